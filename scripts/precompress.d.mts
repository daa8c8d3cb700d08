// Types of precompress.mjs for TypeScript callers (webpack.config.ts).
import type { BrotliOptions, ZlibOptions } from 'node:zlib';

export const BROTLI: BrotliOptions;
export const GZIP: ZlibOptions;
export const COMPRESS_FROM_BYTES: number;
export function writeCompressedTwins(file: string, bytes: Buffer): void;
