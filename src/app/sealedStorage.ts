import storage from 'redux-persist/lib/storage';
import type { Storage } from 'redux-persist';

/**
 * redux-persist's localStorage with the session's authToken sealed at rest (never stored plain).
 * The record keeps redux-persist's shape (each value JSON in one JSON object); only the token's
 * value is replaced by its sealed form. The cipher (src/lib/obfuscate) loads only when there is a
 * token to seal or open, so a visitor on /login never downloads it.
 */
const TOKEN = 'authToken';
type Record = { [key: string]: string };
type Seal = (value: string) => string;

const cipher = () => import(/* webpackChunkName: "cipher" */ '../lib/obfuscate');

async function rewriteToken(serialized: string, seal: () => Promise<Seal>): Promise<string> {
  const record = JSON.parse(serialized) as Record;
  const token = record[TOKEN] ? (JSON.parse(record[TOKEN]) as unknown) : '';
  if (typeof token !== 'string' || token === '') return serialized;
  record[TOKEN] = JSON.stringify((await seal())(token));
  return JSON.stringify(record);
}

// Writes land in the order they were made, even when an earlier one waits for the cipher.
let lastWrite: Promise<unknown> = Promise.resolve();
// Until the stored record has been read, a write without a token is the signed-out start that
// redux-persist writes when the read failed (the cipher chunk did not load): it must not
// replace a stored session. A sign-in (a token to seal) is written whatever happened before.
let recordRead = false;

const hasToken = (serialized: string) => {
  const token = (JSON.parse(serialized) as Record)[TOKEN];
  return token !== undefined && JSON.parse(token) !== '';
};

export const sealedStorage: Storage = {
  async getItem(key: string) {
    const stored = (await storage.getItem(key)) as string | null;
    const opened =
      stored === null ? null : await rewriteToken(stored, async () => (await cipher()).deobfuscate);
    recordRead = true;
    return opened;
  },
  setItem(key: string, value: string) {
    if (!recordRead && !hasToken(value)) return Promise.resolve();
    const sealed = rewriteToken(value, async () => (await cipher()).obfuscate);
    const write = lastWrite.then(async () => storage.setItem(key, await sealed));
    lastWrite = write.catch(() => undefined);
    return write;
  },
  removeItem: (key: string) => storage.removeItem(key),
};
