import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/connection';
import type { FileKind } from '../../db/schema';
import { LOGOS_DIR } from '../../paths';
import type { FileStore } from '../../storage/fileStore';
import { InvalidError } from '../errors';
import { checkImages, readImage, recordImage, removeImages, writeImage } from './uploads';

// The account's own pictures: its avatar, and the images getImage serves (avatars, KYC scans,
// apps' logos, payment method logos).

/**
 * Replaces the user's avatar with `photo` (checked by its bytes) and returns its stored name.
 * The old picture goes once nothing points at it any more.
 */
export async function changeAvatar(
  db: Db,
  files: FileStore,
  userId: string,
  photo: Buffer,
  nowIso: string,
): Promise<string> {
  const { images, errors } = await checkImages({ photo });
  const checked = images.photo;
  if (!checked) throw new InvalidError(undefined, errors);
  const name = await writeImage(files, checked);
  let previous: string | null;
  try {
    previous = await db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('users')
        .select('avatar')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      await recordImage(trx, { name, userId, kind: 'avatar', checked, createdAt: nowIso });
      await trx.updateTable('users').set({ avatar: name }).where('id', '=', userId).execute();
      if (current.avatar) {
        await trx
          .deleteFrom('files')
          .where('name', '=', current.avatar)
          .where('user_id', '=', userId)
          .where('kind', '=', 'avatar')
          .execute();
      }
      return current.avatar;
    });
  } catch (error) {
    await removeImages(files, [name]);
    throw error;
  }
  if (previous) await removeImages(files, [previous]);
  return name;
}

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

export type StoredImage =
  | { found: true; kind: FileKind | 'logo'; mime: string; bytes: Buffer }
  | { found: false; reason: 'missing' | 'ownerOnly' };

/**
 * The image stored under `name`: an uploaded file (a KYC scan only for its owner, `viewerId`)
 * or a payment method's logo.
 */
export async function storedImage(
  db: Db,
  files: FileStore,
  name: string,
  viewerId: string | null,
): Promise<StoredImage> {
  const file = await db
    .selectFrom('files')
    .select(['user_id', 'kind', 'mime'])
    .where('name', '=', name)
    .executeTakeFirst();
  if (file) {
    if (file.kind === 'kyc' && viewerId !== file.user_id)
      return { found: false, reason: 'ownerOnly' };
    const bytes = await readImage(files, name);
    if (!bytes) return { found: false, reason: 'missing' };
    return { found: true, kind: file.kind, mime: file.mime, bytes };
  }
  const method = await db
    .selectFrom('payment_methods')
    .select('logo')
    .where('logo', '=', name)
    .executeTakeFirst();
  const mime = MIME_BY_EXT[name.split('.').pop() ?? ''];
  if (!method || !mime) return { found: false, reason: 'missing' };
  const bytes = await readFile(path.join(LOGOS_DIR, path.basename(method.logo))).catch(() => null);
  if (!bytes) return { found: false, reason: 'missing' };
  return { found: true, kind: 'logo', mime, bytes };
}
