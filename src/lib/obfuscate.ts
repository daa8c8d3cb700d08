import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import {
  bytesToHex,
  hexToBytes,
  managedNonce,
  utf8ToBytes,
  bytesToUtf8,
} from '@noble/ciphers/utils.js';

/**
 * The spec keeps authToken "encrypted with a fixed client-side secret". A key shipped in the bundle
 * is obfuscation, not protection: it only keeps the raw token out of a casual look at localStorage.
 */
const FIXED_KEY = hexToBytes('6c0f3a9e2b7d4415a8c91e03f6b2d7584e1a9c3b0d6f8e2a7c5b4d3e1f0a9b8c');
const cipher = managedNonce(xchacha20poly1305)(FIXED_KEY);

export function obfuscate(plain: string): string {
  return bytesToHex(cipher.encrypt(utf8ToBytes(plain)));
}

/** Returns '' for anything that does not decrypt (tampered or from another build). */
export function deobfuscate(sealed: string): string {
  try {
    return bytesToUtf8(cipher.decrypt(hexToBytes(sealed)));
  } catch {
    return '';
  }
}
