import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import Fastify from 'fastify';
import path from 'node:path';
import { loadConfig } from './config';
import { DB_FILE } from './db/connection';
import { resolveWalletXpub } from './domain/chain/walletKey';
import { sendMail } from './domain/mailer';
import { openRuntime, resolveConfig, SECRET_FILE } from './runtime';
import { directoryFileStore } from './storage/directoryStore';

describe('resolveConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-runtime-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const resolve = (env: Record<string, string>) =>
    resolveConfig(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 's'.repeat(40), ...env }));

  it('keeps uploads in DATA_DIR/uploads when STORAGE_DIR is unset', () => {
    expect(resolve({}).storageDir).toBe(path.join(dataDir, 'uploads'));
  });

  it('in production, starts only with the request key the signer made', () => {
    const file = path.join(dataDir, 'signer-request.key');
    expect(() => resolve({ NODE_ENV: 'production' })).toThrow(`request key ${file} is missing`);
    const made = resolveConfig(
      loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 's'.repeat(40), NODE_ENV: 'production' }),
      { createRequestKey: true },
    ).signerRequestKey;
    expect(resolve({ NODE_ENV: 'production' }).signerRequestKey).toEqual(made);
  });

  it('takes STORAGE_DIR, made absolute against the working directory', () => {
    expect(resolve({ STORAGE_DIR: '/mnt/shared/uploads' }).storageDir).toBe('/mnt/shared/uploads');
    expect(resolve({ STORAGE_DIR: 'shared/uploads' }).storageDir).toBe(
      path.resolve('shared/uploads'),
    );
  });
});

describe('DATA_DIR permissions', () => {
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'portal-modes-'));
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  const mode = (file: string) => statSync(file).mode & 0o777;

  it('keeps the directory 0700 and the SQLite database, its -wal and -shm owner-only', async () => {
    const dataDir = path.join(parent, 'data');
    // No SECRET_KEY and no DATABASE_URL: secret.key and portal.sqlite are written here.
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }));
    try {
      await directoryFileStore(runtime.config.storageDir).put('a.png', Buffer.from('x'));
      resolveWalletXpub(runtime.config); // the development key pair
      await sendMail(
        runtime.config,
        { to: 'a@example.com', subject: 's', text: 't' },
        Fastify({ logger: false }).log,
      );
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(runtime.config.storageDir)).toBe(0o700);
      for (const name of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, SECRET_FILE]) {
        expect([name, mode(path.join(dataDir, name))]).toEqual([name, 0o600]);
      }
      expect(mode(path.join(runtime.config.storageDir, 'a.png'))).toBe(0o600);
      // Everything else in it too, whatever wrote it.
      const entries = readdirSync(dataDir, { recursive: true, withFileTypes: true });
      expect(entries.length).toBeGreaterThanOrEqual(10);
      for (const entry of entries) {
        const file = path.join(entry.parentPath, entry.name);
        expect([file, mode(file)]).toEqual([file, entry.isDirectory() ? 0o700 : 0o600]);
      }
    } finally {
      await runtime.close();
    }
  });

  it('tightens a DATA_DIR and database an earlier version left world-readable', async () => {
    const dataDir = path.join(parent, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, DB_FILE), '', { mode: 0o644 });
    chmodSync(path.join(dataDir, DB_FILE), 0o644);
    const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }));
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const name of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) {
        expect([name, mode(path.join(dataDir, name))]).toEqual([name, 0o600]);
      }
    } finally {
      await runtime.close();
    }
  });
});
