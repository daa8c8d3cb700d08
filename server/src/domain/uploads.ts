import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Database, FileKind } from '../db/schema';
import { ROOT_DIR } from '../paths';
import { detectImage, type ImageKind } from './fileType';

type Executor = Kysely<Database> | Transaction<Database>;

/** Uploaded pictures live in DATA_DIR/uploads, under names the server made up. */
export const UPLOADS_SUBDIR = 'uploads';
/** Scans of the seeded demo upload ship with the code (the seed has no DATA_DIR to write to). */
export const DEMO_ASSETS_DIR = path.join(ROOT_DIR, 'server', 'assets', 'demo');

/** A stored name: letters, digits, `_` and `-`, then .png/.jpg/.jpeg; never a path. */
const STORED_NAME = /^[A-Za-z0-9_-]{1,120}\.(png|jpg|jpeg)$/;

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, UPLOADS_SUBDIR);
}

export function isStoredName(name: string): boolean {
  return STORED_NAME.test(name);
}

export function notAnImageMessage(field: string): string {
  return `The ${field} must be a file of type: jpg, png, jpeg.`;
}

/** A picture that passed the content check, ready to be written. */
export interface CheckedImage {
  bytes: Buffer;
  image: ImageKind;
}

/** Judges each file by its bytes; returns the checked images or the fields that are not jpg/png. */
export async function checkImages(
  files: Record<string, Buffer | undefined>,
): Promise<{ images: Record<string, CheckedImage>; errors: Record<string, string[]> }> {
  const images: Record<string, CheckedImage> = {};
  const errors: Record<string, string[]> = {};
  for (const [field, bytes] of Object.entries(files)) {
    if (bytes === undefined) continue;
    const image = bytes.length > 0 ? await detectImage(bytes) : null;
    if (image) images[field] = { bytes, image };
    else errors[field] = [notAnImageMessage(field)];
  }
  return { images, errors };
}

/**
 * Writes the bytes under a fresh random 128-bit name (the client's file name never reaches the
 * disk) and returns that name. `wx` refuses to overwrite, so a name collision cannot clobber.
 */
export async function writeImage(dataDir: string, checked: CheckedImage): Promise<string> {
  const dir = uploadsDir(dataDir);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${checked.image.ext}`;
  await writeFile(path.join(dir, name), checked.bytes, { flag: 'wx', mode: 0o600 });
  return name;
}

/** The `files` row that records owner and kind of a written image. */
export async function recordImage(
  db: Executor,
  row: { name: string; userId: string; kind: FileKind; checked: CheckedImage; createdAt: string },
): Promise<void> {
  await db
    .insertInto('files')
    .values({
      name: row.name,
      user_id: row.userId,
      kind: row.kind,
      mime: row.checked.image.mime,
      size: row.checked.bytes.length,
      created_at: row.createdAt,
    })
    .execute();
}

/** Best effort: an orphaned file is harmless, a failed request must not fail twice. */
export async function removeImages(dataDir: string, names: readonly string[]): Promise<void> {
  await Promise.all(
    names
      .filter(isStoredName)
      .map((name) => unlink(path.join(uploadsDir(dataDir), name)).catch(() => undefined)),
  );
}

/** Bytes of a stored image: DATA_DIR/uploads first, then the shipped demo scans; null if gone. */
export async function readImage(dataDir: string, name: string): Promise<Buffer | null> {
  if (!isStoredName(name)) return null;
  for (const dir of [uploadsDir(dataDir), DEMO_ASSETS_DIR]) {
    const file = path.join(dir, name);
    if (existsSync(file)) return readFile(file);
  }
  return null;
}
