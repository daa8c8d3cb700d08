// Realistic values where a format or a field's meaning demands one: e-mail addresses, URLs,
// EIP-55 EVM and base58check Tron addresses, IP whitelists, names, dates and small real
// PNG / JPEG files. Every generator is a fast-check arbitrary, so it shrinks.
import { createHash, createHmac } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { getAddress } from 'viem';

const lower = 'abcdefghijklmnopqrstuvwxyz';
const alnum = `${lower}0123456789`;

/** @param {string} chars @param {number} min @param {number} max */
const word = (chars, min, max) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });

const FIRST = ['Asha', 'Ravi', 'Maria', 'John', 'Li', 'Fatima', 'Ola', 'Chen', 'Amara', 'Noah'];
const LAST = ['Verma', 'Kumar', 'Garcia', 'Smith', 'Wei', 'Khan', 'Nordmann', 'Okafor', 'Rossi'];
const WORDS = ['shop', 'checkout', 'donations', 'pay', 'market', 'store', 'api', 'main', 'test'];
// Only names reserved for examples (RFC 2606): a server that mails an address or calls a
// webhook it is given never reaches a real host because of this tool.
const DOMAINS = ['example.com', 'example.org', 'example.net', 'example', 'test'];

export const personName = fc
  .tuple(fc.constantFrom(...FIRST), fc.constantFrom(...LAST))
  .map(([a, b]) => `${a} ${b}`);

export const phrase = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
  .map((ws) => ws.join(' '));

const host = fc
  .tuple(word(lower, 1, 12), fc.constantFrom(...DOMAINS))
  .map(([name, domain]) => `${name}.${domain}`);

export const email = fc
  .tuple(word(alnum, 1, 16), fc.option(word(alnum, 1, 6), { nil: undefined }), host)
  .map(([user, tag, domain]) => `${user}${tag ? `.${tag}` : ''}@${domain}`);

export const httpUrl = fc
  .tuple(
    fc.constantFrom('https', 'http'),
    host,
    fc.array(word(alnum, 1, 10), { maxLength: 3 }),
    fc.option(word(alnum, 1, 8), { nil: undefined }),
  )
  .map(
    ([scheme, h, segments, query]) =>
      `${scheme}://${h}${segments.length ? `/${segments.join('/')}` : ''}${query ? `?q=${query}` : ''}`,
  );

export const ipv4 = fc
  .tuple(...Array.from({ length: 4 }, () => fc.integer({ min: 0, max: 255 })))
  .map((parts) => parts.join('.'));

const ipEntry = fc.oneof(
  ipv4,
  fc.tuple(ipv4, fc.integer({ min: 8, max: 32 })).map(([ip, bits]) => `${ip}/${bits}`),
  fc.ipV6(),
);

/** A whitelist as the contract describes it: entries separated by commas or newlines, or none. */
export const ipWhitelist = fc.oneof(
  fc.constant(''),
  fc
    .tuple(fc.array(ipEntry, { minLength: 1, maxLength: 4 }), fc.constantFrom(', ', ',', '\n'))
    .map(([entries, sep]) => entries.join(sep)),
);

/** A plain date (YYYY-MM-DD) of birth, safely in the past. */
export const birthDate = fc
  .date({
    min: new Date('1940-01-01T00:00:00Z'),
    max: new Date('2005-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

export const dateTime = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2035-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** A password that passes the sign-up checklist (lower, upper, digit, special, 8 or more). */
export const strongPassword = fc
  .tuple(word(alnum, 4, 20), fc.constantFrom('!', '@', '#', '-', '_', '$'))
  .map(([body, special]) => `Aa9${special}${body}`);

// Never the zero account: the server refuses it as a payout or withdrawal address (money sent
// there is lost), and fast-check draws all zeros often.
const bytes20 = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .filter((b) => b.some((byte) => byte !== 0));

/** An EVM address with its EIP-55 checksum (mixed case). */
export const evmAddress = bytes20.map((b) => getAddress(`0x${Buffer.from(b).toString('hex')}`));

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (/** @type {Uint8Array} */ data) => createHash('sha256').update(data).digest();

/** @param {Uint8Array} data */
function base58(data) {
  let value = 0n;
  for (const byte of data) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of data) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A 20-byte account as a Tron address: 0x41 prefix, double-SHA-256 checksum, base58. @param {Uint8Array} account */
function tronAddressOf(account) {
  const payload = Buffer.from([0x41, ...account]);
  return base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}

export const tronAddress = bytes20.map(tronAddressOf);

// ---------------------------------------------------------------------------------- images

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** @param {Buffer} data */
function crc32(data) {
  let c = 0xffffffff;
  // The index is a byte: always inside the 256 entries.
  for (const byte of data) c = /** @type {number} */ (CRC_TABLE[(c ^ byte) & 0xff]) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** @param {string} type @param {Buffer} data */
function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of `width` x `height` pixels. @param {number} width @param {number} height @param {Uint8Array} pixels */
export function png(width, height, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, no filter, no interlace
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(Buffer.from([0]), Buffer.from(pixels.subarray(y * width * 3, (y + 1) * width * 3)));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// Baseline JPEGs of 1x1, 3x2 and 8x8 pixels (drawn by a browser canvas, ICC profile stripped).
const JPEGS = [
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKACb//Z',
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAaEAACAgMAAAAAAAAAAAAAAAAAAQIDEyEx/8QAFQEBAQAAAAAAAAAAAAAAAAAABAX/xAAZEQACAwEAAAAAAAAAAAAAAAAAAQIDMnH/2gAMAwEAAhEDEQA/ALaIrBDS4ACdZt9Gwyj/2Q==',
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAXEAEBAQEAAAAAAAAAAAAAAAAABCEx/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABwRAAEDBQAAAAAAAAAAAAAAAAQAAQMCEhMhMf/aAAwDAQACEQMRAD8ArHHzAAxhcuV9pQeCizi//9k=',
].map((b64) => Buffer.from(b64, 'base64'));

/** A JPEG with a comment segment after SOI: still a valid image, different bytes. @param {Buffer} jpeg @param {string} comment */
function withComment(jpeg, comment) {
  if (!comment) return jpeg;
  const text = Buffer.from(comment, 'ascii');
  const segment = Buffer.alloc(4);
  segment.set([0xff, 0xfe], 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, text, jpeg.subarray(2)]);
}

/**
 * @typedef {{ filename: string, contentType: string, data: Buffer }} FilePart
 */

/** @type {fc.Arbitrary<FilePart>} */
export const pngFile = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), word(alnum, 1, 12))
  .chain(([w, h, name]) =>
    fc.uint8Array({ minLength: w * h * 3, maxLength: w * h * 3 }).map((pixels) => ({
      filename: `${name}.png`,
      contentType: 'image/png',
      data: png(w, h, pixels),
    })),
  );

/** @type {fc.Arbitrary<FilePart>} */
export const jpegFile = fc
  .tuple(
    fc.constantFrom(...JPEGS),
    word(alnum, 0, 24),
    word(alnum, 1, 12),
    fc.constantFrom('jpg', 'jpeg'),
  )
  .map(([jpeg, comment, name, ext]) => ({
    filename: `${name}.${ext}`,
    contentType: 'image/jpeg',
    data: withComment(jpeg, comment),
  }));

export const imageFile = fc.oneof(pngFile, jpegFile);

/** Not an image at all, whatever its name and declared type say. @type {fc.Arbitrary<FilePart>} */
export const notAnImage = fc
  .tuple(
    fc.string({ minLength: 1, maxLength: 64 }),
    fc.constantFrom('image/png', 'image/jpeg', 'text/plain'),
  )
  .map(([text, contentType]) => ({
    filename: contentType === 'text/plain' ? 'notes.txt' : 'picture.png',
    contentType,
    data: Buffer.from(`not an image: ${text}`),
  }));

/** Bytes of the oversized upload: four times the 2 MB the contract documents for images. */
export const OVERSIZED_BYTES = 8 * 1024 * 1024;

/**
 * A PNG (by content: its signature and chunks come first) padded past OVERSIZED_BYTES, for the
 * operations that declare 413. One shared buffer: runs must not allocate 8 MiB each.
 * @type {FilePart}
 */
export const oversizedImage = {
  filename: 'huge.png',
  contentType: 'image/png',
  data: Buffer.concat([png(1, 1, new Uint8Array(3)), Buffer.alloc(OVERSIZED_BYTES)]),
};

// ---------------------------------------------------------------------------------- TOTP

/** @param {string} text RFC 4648 base32 */
function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out = [];
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * The authenticator app of an `otpauth://totp/...` URL (RFC 6238: secret, algorithm, digits,
 * period), or null when the URL is not one.
 * @param {unknown} url
 */
export function authenticatorOf(url) {
  if (typeof url !== 'string' || !url.startsWith('otpauth://totp/')) return null;
  const params = new URL(url).searchParams;
  const secret = params.get('secret');
  if (!secret) return null;
  const key = base32Decode(secret);
  const algorithm = (params.get('algorithm') ?? 'SHA1').toLowerCase();
  const digits = Number(params.get('digits') ?? 6);
  const period = Number(params.get('period') ?? 30);
  return {
    period,
    /** The time step now. */
    step: () => Math.floor(Date.now() / 1000 / period),
    /** The code of time step `step` (RFC 4226 dynamic truncation). @param {number} step */
    code(step) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(BigInt(step));
      const mac = createHmac(algorithm, key).update(counter).digest();
      const offset = mac.readUInt8(mac.length - 1) & 0x0f;
      const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
      return String(n).padStart(digits, '0');
    },
  };
}
