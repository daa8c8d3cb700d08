import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Database, FileKind } from '../../db/schema';
import { ROOT_DIR } from '../../paths';
import { directoryFileStore } from '../../storage/directoryStore';
import { isStoredName, type FileStore } from '../../storage/fileStore';
import { detectImage, type ImageKind } from './fileType';
import { MAX_IMAGE_PIXELS, reencodeImage, type ReencodeOptions } from './reencode';

type Executor = Kysely<Database> | Transaction<Database>;

/** Scans of the seeded demo upload ship with the code (the seed has no file store to write to). */
export const DEMO_ASSETS_DIR = path.join(ROOT_DIR, 'server', 'assets', 'demo');
const demoAssets = directoryFileStore(DEMO_ASSETS_DIR);

export function notAnImageMessage(field: string): string {
  return `The ${field} must be a file of type: jpg, png, jpeg.`;
}

function tooManyPixelsMessage(field: string): string {
  return `The ${field} may not be greater than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`;
}

/** A picture that passed the content check, re-encoded and ready to be written. */
export interface CheckedImage {
  bytes: Buffer;
  image: ImageKind;
}

/** One file: its re-encoded picture, or the message that refuses it. */
async function checkImage(
  field: string,
  bytes: Buffer,
  options: ReencodeOptions,
): Promise<CheckedImage | string> {
  const image = bytes.length > 0 ? await detectImage(bytes) : null;
  if (!image) return notAnImageMessage(field);
  const reencoded = await reencodeImage(bytes, image, options);
  if (reencoded.ok) return { bytes: reencoded.bytes, image };
  return reencoded.reason === 'tooManyPixels'
    ? tooManyPixelsMessage(field)
    : notAnImageMessage(field);
}

/**
 * Judges each file by its bytes (jpg or png, whatever its name or declared type says), then
 * decodes it and keeps only its re-encoded pixels (./reencode.ts). Returns the checked images, or
 * for each refused field why.
 */
export async function checkImages(
  files: Record<string, Buffer | undefined>,
  options: ReencodeOptions = {},
): Promise<{ images: Record<string, CheckedImage>; errors: Record<string, string[]> }> {
  const images: Record<string, CheckedImage> = {};
  const errors: Record<string, string[]> = {};
  for (const [field, bytes] of Object.entries(files)) {
    if (bytes === undefined) continue;
    const checked = await checkImage(field, bytes, options);
    if (typeof checked === 'string') errors[field] = [checked];
    else images[field] = checked;
  }
  return { images, errors };
}

/**
 * Stores the bytes under a fresh random 128-bit name (the client's file name never reaches the
 * store) and returns that name. The store refuses to overwrite, so a collision cannot clobber.
 */
export async function writeImage(files: FileStore, checked: CheckedImage): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.${checked.image.ext}`;
  await files.put(name, checked.bytes);
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
export async function removeImages(files: FileStore, names: readonly string[]): Promise<void> {
  await Promise.all(
    names.filter(isStoredName).map((name) => files.remove(name).catch(() => undefined)),
  );
}

/** Bytes of a stored image: the file store first, then the shipped demo scans; null if gone. */
export async function readImage(files: FileStore, name: string): Promise<Buffer | null> {
  if (!isStoredName(name)) return null;
  return (await files.read(name)) ?? (await demoAssets.read(name));
}
