import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/connection';
import type { AccountArchivesTable } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { addJob } from '../../jobs/queue';
import type { FileStore } from '../../storage/fileStore';
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from '../errors';
import { EXPORT_KINDS, type ExportKindName } from '../exports/kinds';
import { exportCsv, latestVersion, planExport } from '../exports/stream';
import { newId } from '../ids';
import { recordAccountEvent } from './events';
import { kycStatusWord, uploadStatusWord } from './kyc';
import { codedMessages } from '../messageCodes';

// The settings panel's Download: one ZIP of the whole account. Asking queues a job (one
// preparing archive per account at most); the job streams every export kind's CSV (the same
// text as each list's Download CSV) and a profile.json into one file in the storage directory,
// then records an `archive_ready` event, which the bell shows. The archive is downloaded through
// a signed link made with the session (as the lists' CSV), for a day after it was ready.
// KYC documents are listed with their status only: the scans' images stay out of the archive.

export const ARCHIVE_KIND = 'account.archive';
/** How long a ready archive can be downloaded. */
export const ARCHIVE_LIFETIME_MS = 86_400_000;
/** How long a link made by createArchiveLink works. */
export const ARCHIVE_LINK_SECONDS = 60;
const LINK_PREFIX = 'arc_';
/** Attempts of the job before the archive is marked failed. */
export const ARCHIVE_ATTEMPTS = 3;

export const ARCHIVE_MESSAGES = codedMessages('archive', {
  preparing:
    'Your archive is being prepared. It will appear in your notifications when it is ready.',
  notReady: 'This archive is still being prepared: it will appear in your notifications.',
  notFound: 'There is no such archive of your account.',
  expired: 'This archive has expired: use Download again for a new one.',
  failed: 'This archive could not be prepared: use Download again.',
  missing: 'This archive is no longer stored: use Download again for a new one.',
  linkInvalid: 'This download link is not valid: open the notification again.',
  linkExpired: 'This download link has expired: open the notification again.',
} as const);

type ArchiveView = components['schemas']['AccountArchive'];
type ArchiveRow = AccountArchivesTable;

function viewOf(row: ArchiveRow): ArchiveView {
  return {
    id: row.id,
    state: row.state,
    created_at: row.created_at,
    ready_at: row.ready_at,
    expires_at: row.expires_at,
  };
}

async function preparingOf(db: Db, userId: string): Promise<ArchiveRow | undefined> {
  return db
    .selectFrom('account_archives')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'preparing')
    .executeTakeFirst();
}

/**
 * Queues an archive of `userId`, or answers the one already being prepared (asking again while
 * one is under way queues nothing). The archive and its job are added in one transaction.
 */
export async function requestArchive(db: Db, userId: string, now: Date): Promise<ArchiveView> {
  const pending = await preparingOf(db, userId);
  if (pending) return viewOf(pending);
  const row: ArchiveRow = {
    id: newId('arc'),
    user_id: userId,
    state: 'preparing',
    file: null,
    created_at: now.toISOString(),
    ready_at: null,
    expires_at: null,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('account_archives').values(row).execute();
      await addJob(
        trx,
        {
          kind: ARCHIVE_KIND,
          key: row.id,
          payload: { archiveId: row.id },
          maxAttempts: ARCHIVE_ATTEMPTS,
        },
        now.getTime(),
      );
    });
  } catch (error) {
    // Two requests at once: the unique index on an account's preparing archive kept one.
    const winner = await preparingOf(db, userId);
    if (winner) return viewOf(winner);
    throw error;
  }
  return viewOf(row);
}

/** What the job needs besides the database. */
export interface ArchiveDeps {
  db: Db;
  files: FileStore;
  /** Whether sweeps pay the gateway's fee apart (the Daily Logs' payout figure). */
  feeLeg: boolean;
  clock: () => Date;
}

const fileNameOf = (archiveId: string) => `${archiveId}.zip`;

/** profile.json: the account's details and KYC status; documents by status, never their images. */
async function profileJson(db: Db, userId: string, apps: readonly AppRef[], now: Date) {
  const user = await db
    .selectFrom('users')
    .select([
      'username',
      'email',
      'name',
      'gender',
      'dob',
      'phone',
      'country',
      'state',
      'city',
      'landmark',
      'pincode',
      'address_line1',
      'address_line2',
      'auth_type',
      'status_kyc',
      'created_at',
      'last_login_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom('kyc_uploads')
    .select(['document_name', 'document_number', 'status', 'remarks', 'created_at', 'reviewed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const { status_kyc: kycStatus, ...profile } = user;
  const content = {
    exported_at: now.toISOString(),
    profile,
    kyc: {
      status: kycStatusWord(kycStatus),
      documents: documents.map((doc) => ({ ...doc, status: uploadStatusWord(doc.status) })),
    },
    apps: apps.map((app) => ({ id: app.id, name: app.app_name, folder: `apps/${app.id}/` })),
  };
  return Buffer.from(`${JSON.stringify(content, null, 2)}\n`, 'utf8');
}

interface AppRef {
  id: string;
  app_name: string;
}

const KIND_NAMES = Object.keys(EXPORT_KINDS) as ExportKindName[];

/** The archive's entries after profile.json: each kind's CSV, the account's then each app's. */
function* csvEntries(
  deps: ArchiveDeps,
  userId: string,
  apps: readonly AppRef[],
): Generator<{ path: string; text: () => AsyncIterable<string> }> {
  const owners = [
    { folder: '', ownerId: userId, owner: 'user' as const },
    ...apps.map((app) => ({ folder: `apps/${app.id}/`, ownerId: app.id, owner: 'app' as const })),
  ];
  for (const { folder, ownerId, owner } of owners) {
    for (const name of KIND_NAMES) {
      const kind = EXPORT_KINDS[name];
      if (kind.owner !== owner) continue;
      const plan = planExport({ kind: name });
      yield {
        path: `${folder}${name}-v${latestVersion(kind)}.csv`,
        text: () => exportCsv({ db: deps.db, ownerId, feeLeg: deps.feeLeg }, plan, { bom: false }),
      };
    }
  }
}

/**
 * The job: writes the archive of `archiveId` (streamed: one chunk of rows in memory at a time),
 * then marks it ready and records the `archive_ready` event in one transaction. Idempotent: an
 * archive no longer preparing is left alone, and a run tried again rewrites the file.
 */
export async function prepareArchive(deps: ArchiveDeps, archiveId: string): Promise<void> {
  const { db } = deps;
  const row = await db
    .selectFrom('account_archives')
    .selectAll()
    .where('id', '=', archiveId)
    .executeTakeFirst();
  if (row?.state !== 'preparing') return;
  const apps = await db
    .selectFrom('apps')
    .select(['id', 'app_name'])
    .where('user_id', '=', row.user_id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const zip = new ZipFile();
  // yazl's output is a PassThrough; its typings name the interface only.
  const output = zip.outputStream as Readable;
  // A failed read ends the file's write with its error (the run fails, and is tried again).
  zip.on('error', (error: Error) => output.destroy(error));
  const name = fileNameOf(archiveId);
  const written = deps.files.putStream(name, output);
  // Its failure is awaited below, after the entries are added.
  written.catch(() => undefined);
  try {
    zip.addBuffer(await profileJson(db, row.user_id, apps, deps.clock()), 'profile.json');
    // Each CSV is read only when the entries before it are written: one chunk in memory.
    for (const entry of csvEntries(deps, row.user_id, apps)) {
      zip.addReadStreamLazy(entry.path, (done) => {
        const text = Readable.from(entry.text());
        text.on('error', (error) => zip.emit('error', error));
        done(null, text);
      });
    }
  } catch (error) {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    zip.end();
  }
  await written;
  const ready = deps.clock();
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('account_archives')
      .set({
        state: 'ready',
        file: name,
        ready_at: ready.toISOString(),
        expires_at: new Date(ready.getTime() + ARCHIVE_LIFETIME_MS).toISOString(),
      })
      .where('id', '=', archiveId)
      .where('state', '=', 'preparing')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    await recordAccountEvent(
      trx,
      row.user_id,
      'archive_ready',
      { archive_id: archiveId },
      { at: ready.toISOString() },
    );
  });
}

/**
 * The job's last attempt failed: the archive is marked failed (so the account may ask again),
 * its partial file removed, and the bell says so.
 */
export async function failArchive(deps: ArchiveDeps, archiveId: string): Promise<void> {
  const { db } = deps;
  await deps.files.remove(fileNameOf(archiveId));
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('account_archives')
      .set({ state: 'failed' })
      .where('id', '=', archiveId)
      .where('state', '=', 'preparing')
      .returning('user_id')
      .executeTakeFirst();
    if (!row) return;
    await recordAccountEvent(trx, row.user_id, 'archive_failed', {}, { clock: deps.clock });
  });
}

/**
 * Removes the files of archives past their day (the rows stay, so their links answer 410 with
 * the reason). Answers how many it removed.
 */
export async function pruneArchives(deps: Pick<ArchiveDeps, 'db' | 'files'>, now: Date) {
  const expired = await deps.db
    .selectFrom('account_archives')
    .select(['id', 'file'])
    .where('state', '=', 'ready')
    .where('file', 'is not', null)
    .where('expires_at', '<=', now.toISOString())
    .execute();
  for (const { id, file } of expired) {
    if (file !== null) await deps.files.remove(file);
    await deps.db
      .updateTable('account_archives')
      .set({ file: null })
      .where('id', '=', id)
      .execute();
  }
  return expired.length;
}

/** The archive `id` of `userId`, downloadable now; each refusal says why. */
async function downloadable(db: Db, userId: string, id: string, now: Date): Promise<ArchiveRow> {
  const row = await db
    .selectFrom('account_archives')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(ARCHIVE_MESSAGES.notFound);
  if (row.state === 'preparing') throw new ConflictError(ARCHIVE_MESSAGES.notReady);
  if (row.state === 'failed') throw new GoneError(ARCHIVE_MESSAGES.failed);
  // Past its day (its file may be pruned already: pruneArchives).
  if (row.expires_at === null || row.expires_at <= now.toISOString() || row.file === null) {
    throw new GoneError(ARCHIVE_MESSAGES.expired);
  }
  return row;
}

interface LinkClaims {
  sub: string;
  arc: string;
  exp: number;
}

function sign(secret: string, payload: string): string {
  const key = createHmac('sha256', secret).update('archive-link:v1').digest();
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** A signed link, for a minute, to the archive `id` of `userId`, once it is ready. */
export async function createArchiveLink(
  db: Db,
  secret: string,
  userId: string,
  id: string,
  now: Date,
): Promise<{ url: string; expiresAt: string }> {
  await downloadable(db, userId, id, now);
  const exp = Math.floor(now.getTime() / 1000) + ARCHIVE_LINK_SECONDS;
  const claims: LinkClaims = { sub: userId, arc: id, exp };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return {
    url: `/api/account/archives/download?token=${LINK_PREFIX}${payload}.${sign(secret, payload)}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/** The archive a link names, once its signature, its time and the archive's day are checked. */
export async function openArchiveLink(
  db: Db,
  files: FileStore,
  secret: string,
  token: string,
  now: Date,
): Promise<{ stream: Readable; fileName: string }> {
  const [payload = '', signature = ''] = token.slice(LINK_PREFIX.length).split('.');
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new ForbiddenError(ARCHIVE_MESSAGES.linkInvalid);
  }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
  if (Math.floor(now.getTime() / 1000) >= claims.exp) {
    throw new ForbiddenError(ARCHIVE_MESSAGES.linkExpired);
  }
  const row = await downloadable(db, claims.sub, claims.arc, now);
  const stream = row.file === null ? null : await files.readStream(row.file);
  if (!stream) throw new NotFoundError(ARCHIVE_MESSAGES.missing);
  return { stream, fileName: `account-${row.created_at.slice(0, 10)}.zip` };
}
