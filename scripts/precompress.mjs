// Compressed twins made at build time, a .br and a .gz beside a file, which the server sends as
// they are (@fastify/static's preCompressed for the SPA, keepBytes for the gateway's reference
// page): compressed once here at the strongest settings, instead of per request.
import { writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } };
export const GZIP = { level: 9 };
/** Below this, compression saves less than its headers cost (@fastify/compress's threshold). */
export const COMPRESS_FROM_BYTES = 1024;

/** Writes `file`'s twins from its bytes (none for a file under COMPRESS_FROM_BYTES). */
export function writeCompressedTwins(file, bytes) {
  if (bytes.length < COMPRESS_FROM_BYTES) return;
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, BROTLI));
  writeFileSync(`${file}.gz`, gzipSync(bytes, GZIP));
}
