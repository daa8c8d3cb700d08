import sharp from 'sharp';
import { JPEG, JPEG_HTML, PNG, POLYGLOT_PNG, pixelBombPng } from '../../../test/images';
import { detectImage } from './fileType';
import { reencodeImage } from './reencode';

// The content check behind every upload: decode, then keep only freshly encoded pixels.

const PNG_KIND = { ext: 'png', mime: 'image/png' } as const;
const JPEG_KIND = { ext: 'jpg', mime: 'image/jpeg' } as const;

async function reencoded(bytes: Buffer, kind: typeof PNG_KIND | typeof JPEG_KIND) {
  const result = await reencodeImage(bytes, kind);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.bytes;
}

/** Random pixels: they do not compress, so cutting the file cuts the picture. */
function noise(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 3) * 104729) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** The GPS latitude 48° 51' 24" as EXIF rationals, in either byte order. */
function hasLatitude(bytes: Buffer) {
  const rationals = (write: (b: Buffer, value: number, at: number) => void) => {
    const b = Buffer.alloc(24);
    [48, 1, 51, 1, 24, 1].forEach((value, i) => write(b, value, i * 4));
    return b;
  };
  return [
    rationals((b, v, at) => b.writeUInt32BE(v, at)),
    rationals((b, v, at) => b.writeUInt32LE(v, at)),
  ].some((needle) => bytes.includes(needle));
}

test.each([
  ['a PNG with a script chunk and HTML after IEND', POLYGLOT_PNG, PNG_KIND, 'png'],
  ['a JPEG with a script comment and HTML after its end', JPEG_HTML, JPEG_KIND, 'jpeg'],
])('%s comes out as the same picture without the page', async (_label, bytes, kind, format) => {
  expect(bytes.toString('latin1')).toContain('<script>');
  const out = await reencoded(bytes, kind);
  const text = out.toString('latin1');
  expect(text).not.toMatch(/<script|<html/i);
  expect(await detectImage(out)).toEqual(kind);
  expect(await sharp(out).metadata()).toMatchObject({ format, width: 1, height: 1 });
});

test('plain pictures keep their format and size', async () => {
  expect(await sharp(await reencoded(PNG, PNG_KIND)).metadata()).toMatchObject({
    format: 'png',
    width: 1,
    height: 1,
  });
  expect(await sharp(await reencoded(JPEG, JPEG_KIND)).metadata()).toMatchObject({
    format: 'jpeg',
    width: 1,
    height: 1,
  });
});

test('a phone photo loses its EXIF (GPS included) and is turned upright by its orientation', async () => {
  // 40x20 as stored, orientation 6 (rotate 90° clockwise to view): 20x40 upright.
  const photo = await noise(40, 20)
    .withExif({
      IFD0: { Make: 'PhoneCo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  const before = await sharp(photo).metadata();
  expect(before.exif?.toString('latin1')).toContain('PhoneCo');
  expect(hasLatitude(photo)).toBe(true);
  expect(before.orientation).toBe(6);

  const out = await reencoded(photo, JPEG_KIND);
  const after = await sharp(out).metadata();
  expect(after.exif).toBeUndefined();
  expect(after.orientation).toBeUndefined();
  expect(out.toString('latin1')).not.toContain('PhoneCo');
  expect(hasLatitude(out)).toBe(false);
  expect({ width: after.width, height: after.height }).toEqual({ width: 20, height: 40 });
});

test.each([
  ['a truncated PNG', 'png'],
  ['a truncated JPEG', 'jpeg'],
] as const)('%s is refused', async (_label, format) => {
  const whole = await noise(64, 64).toFormat(format).toBuffer();
  const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
  const kind = format === 'png' ? PNG_KIND : JPEG_KIND;
  expect(await detectImage(cut)).toEqual(kind);
  expect(await reencodeImage(cut, kind)).toEqual({ ok: false, reason: 'undecodable' });
});

test('a picture whose bytes are not the format its header claims is refused', async () => {
  const corrupt = Buffer.concat([PNG.subarray(0, 33), Buffer.from('not a chunk stream at all')]);
  expect(await reencodeImage(corrupt, PNG_KIND)).toEqual({ ok: false, reason: 'undecodable' });
  expect(await reencodeImage(PNG, JPEG_KIND)).toEqual({ ok: false, reason: 'undecodable' });
});

test('a decompression bomb is refused by its declared size', async () => {
  expect(await reencodeImage(pixelBombPng(), PNG_KIND)).toEqual({
    ok: false,
    reason: 'tooManyPixels',
  });
});
