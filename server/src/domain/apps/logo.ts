import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { components } from '../../generated/portal.gen';
import type { FileStore } from '../../storage/fileStore';
import { checkImages, recordImage, removeImages, writeImage } from '../account/uploads';
import { InvalidError, NotFoundError } from '../errors';
import { appViewOf } from './apps';

// An app's logo, shown on its checkout and payment link pages: one stored picture per app,
// re-encoded like an avatar (no metadata) and scaled down to a logo's size.

type App = components['schemas']['App'];

/**
 * A logo is kept at most this many pixels on its longer side (never scaled up): twice the 128 px
 * the checkout could ever draw it at on a high-density screen, and a few kilobytes on disk.
 */
export const LOGO_MAX_SIDE = 256;

/** Serializes the changes of one app's logo, so a replaced file is never left behind. */
const logoLock = (appId: string) => `app-logo:${appId}`;

/**
 * Replaces the logo of the user's app `appId` with `logo` (checked by its bytes) and answers the
 * app. Another account's app is as unknown as a missing one (404) and nothing is written. The
 * previous picture goes once nothing points at it any more.
 */
export async function changeAppLogo(
  db: Db,
  files: FileStore,
  userId: string,
  appId: string,
  logo: Buffer,
  nowIso: string,
): Promise<App> {
  await ownedAppLogo(db, userId, appId);
  const { images, errors } = await checkImages({ logo }, { maxSide: LOGO_MAX_SIDE });
  const checked = images.logo;
  if (!checked) throw new InvalidError(undefined, errors);
  const name = await writeImage(files, checked);
  let changed: Awaited<ReturnType<typeof setLogo>>;
  try {
    changed = await db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, logoLock(appId));
      await recordImage(trx, { name, userId, kind: 'app_logo', checked, createdAt: nowIso });
      return setLogo(trx, userId, appId, name, nowIso);
    });
  } catch (error) {
    await removeImages(files, [name]);
    throw error;
  }
  if (changed.previous) await removeImages(files, [changed.previous]);
  return appViewOf(db, changed.row, nowIso);
}

/** Removes the logo of the user's app `appId` (none is no error) and answers the app. */
export async function removeAppLogo(
  db: Db,
  files: FileStore,
  userId: string,
  appId: string,
  nowIso: string,
): Promise<App> {
  await ownedAppLogo(db, userId, appId);
  const changed = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, logoLock(appId));
    return setLogo(trx, userId, appId, null, nowIso);
  });
  if (changed.previous) await removeImages(files, [changed.previous]);
  return appViewOf(db, changed.row, nowIso);
}

/** The app's current logo, or a 404 when the app is not the user's. */
async function ownedAppLogo(db: Db, userId: string, appId: string): Promise<string | null> {
  const app = await db
    .selectFrom('apps')
    .select('logo')
    .where('id', '=', appId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!app) throw new NotFoundError();
  return app.logo;
}

/**
 * Points the app at `name` (or at no logo) and drops the previous logo's `files` row; answers the
 * updated row and the previous file's name, whose bytes the caller removes after the commit.
 */
async function setLogo(
  trx: Db,
  userId: string,
  appId: string,
  name: string | null,
  nowIso: string,
) {
  const previous = await ownedAppLogo(trx, userId, appId);
  if (previous === name) {
    // Nothing to change (a removal with no logo): no write, so nothing kept of the app is voided.
    const row = await trx
      .selectFrom('apps')
      .selectAll()
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    return { row, previous: null };
  }
  const row = await trx
    .updateTable('apps')
    .set({ logo: name, updated_at: nowIso })
    .where('id', '=', appId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (previous !== null) {
    await trx
      .deleteFrom('files')
      .where('name', '=', previous)
      .where('user_id', '=', userId)
      .where('kind', '=', 'app_logo')
      .execute();
  }
  return { row, previous };
}
