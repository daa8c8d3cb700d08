// 'file-type/core' (buffers and streams only) resolves under every export condition, Jest's too.
import { fileTypeFromBuffer } from 'file-type/core';

export type ImageKind = { ext: 'jpg' | 'png'; mime: 'image/jpeg' | 'image/png' };

/** Sniffs the bytes (never trusts the file name or the declared type): jpg/png only. */
export async function detectImage(bytes: Uint8Array): Promise<ImageKind | null> {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime === 'image/jpeg') return { ext: 'jpg', mime: 'image/jpeg' };
  if (type?.mime === 'image/png') return { ext: 'png', mime: 'image/png' };
  return null;
}
