import { chmodSync, mkdirSync } from 'node:fs';

/** Owner read/write only (0600); a file owned by someone else is left as it is. */
export function ownerOnly(file: string): void {
  chmodQuietly(file, 0o600);
}

/**
 * Creates `dir` 0700 (and its missing parents), or tightens an existing one to 0700: DATA_DIR
 * holds the database, the secret key and identity documents.
 */
export function ownerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodQuietly(dir, 0o700);
}

// EPERM: not ours (e.g. a volume root owned by root); refusing to start would not make it safer.
function chmodQuietly(target: string, mode: number): void {
  try {
    chmodSync(target, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}
