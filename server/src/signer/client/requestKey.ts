import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeRequestKey, type SignerConfig } from '../../config';

// The key both processes MAC money-out requests with (requestMac.ts): 32 random bytes the
// database never holds. SIGNER_REQUEST_KEY when set, else an owner-only file,
// DATA_DIR/signer-request.key unless SIGNER_REQUEST_KEY_FILE names another. The signer makes the
// file when it is missing; so does the web process outside production. In production the web
// process refuses to start without it (`npm start` starts the signer first, which makes it; a
// signer on another host has its own, copied to the web host).

export const REQUEST_KEY_FILE = 'signer-request.key';

export class RequestKeyError extends Error {}

/** The key file's path: SIGNER_REQUEST_KEY_FILE, else DATA_DIR/signer-request.key. */
export function requestKeyFile(dataDir: string, signer: Pick<SignerConfig, 'requestKeyFile'>) {
  return path.resolve(signer.requestKeyFile ?? path.join(dataDir, REQUEST_KEY_FILE));
}

/**
 * The request key: SIGNER_REQUEST_KEY, else the file's. `create`: a missing file is made (0600;
 * two processes starting together end up with the same key). A file others may
 * read or write is refused.
 */
export function loadRequestKey(options: {
  dataDir: string;
  signer: Pick<SignerConfig, 'requestKey' | 'requestKeyFile'>;
  create: boolean;
}): Buffer {
  if (options.signer.requestKey) return options.signer.requestKey;
  const file = requestKeyFile(options.dataDir, options.signer);
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!options.create) {
      throw new RequestKeyError(
        `The signer's request key ${file} is missing: start the signer first (it creates it), ` +
          'copy it from the signer host, or set SIGNER_REQUEST_KEY (or SIGNER_REQUEST_KEY_FILE).',
      );
    }
    // Written aside, then linked in place: the file appears whole, and a second process
    // starting at the same moment loses the link and reads the winner's.
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(aside, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(aside, file);
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
    } finally {
      rmSync(aside, { force: true });
    }
    mode = statSync(file).mode;
  }
  if ((mode & 0o077) !== 0) {
    throw new RequestKeyError(
      `The signer's request key ${file} may be read by others (mode ${(mode & 0o777).toString(8)}): ` +
        `make it owner-only (chmod 600 ${file}).`,
    );
  }
  const key = decodeRequestKey(readFileSync(file, 'utf8'));
  if (!key) {
    throw new RequestKeyError(`${file} does not hold a request key (32 bytes, hex or base64).`);
  }
  return key;
}
