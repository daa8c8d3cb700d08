import type { Readable } from 'node:stream';

// Where uploaded images (avatars, KYC scans, apps' logos) and account archives live, by the
// names the server gave them. Every process that serves the same database must see the same
// files: a directory shared by all hosts (directoryStore.ts, e.g. on NFS/EFS) today; an object store (S3 and the like) can
// replace it by implementing this interface, and nothing else in the server touches the files.

/** A stored name: letters, digits, `_` and `-`, then .png/.jpg/.jpeg/.zip; never a path. */
const STORED_NAME = /^[A-Za-z0-9_-]{1,120}\.(png|jpg|jpeg|zip)$/;

export function isStoredName(name: string): boolean {
  return STORED_NAME.test(name);
}

/** Thrown for a name that is not a stored name (a path, another extension): never reaches I/O. */
export class BadStoredNameError extends Error {
  constructor(name: string) {
    super(`Not a stored file name: ${JSON.stringify(name)}`);
  }
}

export function assertStoredName(name: string): void {
  if (!isStoredName(name)) throw new BadStoredNameError(name);
}

export interface FileStore {
  /** Stores `bytes` under `name`; rejects when the name is taken (never overwrites). */
  put(name: string, bytes: Buffer): Promise<void>;
  /** The bytes stored under `name`, or null when there are none. */
  read(name: string): Promise<Buffer | null>;
  /**
   * Stores the bytes `source` gives under `name` as they come, so memory holds one piece at a
   * time; the name appears only once every byte is written, and replaces what it held (a run
   * that is tried again). Answers the number of bytes.
   */
  putStream(name: string, source: Readable): Promise<number>;
  /** The bytes stored under `name` as a stream, or null when there are none. */
  readStream(name: string): Promise<Readable | null>;
  /** Deletes `name`; a name that is already gone is not an error. */
  remove(name: string): Promise<void>;
}
