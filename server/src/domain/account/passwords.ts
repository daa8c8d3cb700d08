import { hash, verify } from '@node-rs/argon2';

// argon2id with the library defaults (OWASP-level memory/time cost). Pins get the same
// treatment: a 4-digit pin is weak, so the brakes on guesses (lockout.ts) matter more than cost.

export function hashSecret(plain: string): Promise<string> {
  return hash(plain);
}

export async function verifySecret(storedHash: string, plain: string): Promise<boolean> {
  try {
    return await verify(storedHash, plain);
  } catch {
    return false; // malformed hash: treat as mismatch, never as a 500
  }
}
