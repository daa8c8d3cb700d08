import sharp from 'sharp';
import type { ImageKind } from './fileType';

/**
 * The most pixels an uploaded picture may decode to. 50 million covers the 48 MP photos of
 * today's phones (8000x6000) and keeps a decompression bomb (a small file declaring huge
 * dimensions) from taking gigabytes: it is refused from its header, before any pixel is decoded.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

export interface ReencodeOptions {
  /** Scale a larger picture down (never up, aspect kept) to fit a square of this many pixels. */
  maxSide?: number;
}

type Reencoded =
  { ok: true; bytes: Buffer } | { ok: false; reason: 'undecodable' | 'tooManyPixels' };

const SHARP_FORMAT: Record<ImageKind['ext'], 'png' | 'jpeg'> = { png: 'png', jpg: 'jpeg' };

/**
 * Decodes the picture and encodes its pixels afresh in the same format: whatever rode along in
 * the file (text chunks, bytes after the end marker, HTML behind a valid header, EXIF with GPS)
 * is gone, and what does not decode completely is refused. EXIF orientation is applied first,
 * so a phone photo stays upright once its metadata is stripped. With `maxSide` the picture is
 * also scaled down to fit (a logo is shown small: its file stays small).
 */
export async function reencodeImage(
  bytes: Buffer,
  kind: ImageKind,
  { maxSide }: ReencodeOptions = {},
): Promise<Reencoded> {
  const format = SHARP_FORMAT[kind.ext];
  // failOn 'warning' (the default, spelled out): a truncated or damaged image is an error.
  const options = {
    limitInputPixels: MAX_IMAGE_PIXELS,
    failOn: 'warning',
    autoOrient: true,
  } as const;
  try {
    // The header alone (no pixels decoded, so no limit yet) tells a bomb from a broken file.
    const header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
    if (header.format !== format) return { ok: false, reason: 'undecodable' };
    if (header.width * header.height > MAX_IMAGE_PIXELS)
      return { ok: false, reason: 'tooManyPixels' };
    let image = sharp(bytes, options);
    if (maxSide !== undefined) {
      image = image.resize({
        width: maxSide,
        height: maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
    }
    // sharp writes no metadata unless asked (no keepExif / withMetadata here).
    const output = format === 'png' ? image.png() : image.jpeg({ quality: 90 });
    return { ok: true, bytes: await output.toBuffer() };
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
}
