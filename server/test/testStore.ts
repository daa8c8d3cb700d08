import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshSchema } from '../../scripts/pg-cluster.mjs';

/**
 * Where a test keeps its data. Always a fresh DATA_DIR (secret key, uploads, outbox); the
 * database is SQLite in it unless TEST_DATABASE_URL is set (by scripts/test-pg.mjs, or by a
 * developer pointing at their own server): then it is a fresh schema of that PostgreSQL
 * database, dropped again on close. Tests pass `env` to loadConfig and to admin commands, so the
 * same suite runs on both engines.
 */
export interface TestStore {
  dataDir: string;
  /** DATABASE_URL of the test's schema, or undefined on SQLite. */
  databaseUrl: string | undefined;
  env: { DATA_DIR: string; DATABASE_URL: string | undefined };
  close(): Promise<void>;
}

export async function freshTestStore(prefix = 'portal-test-'): Promise<TestStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropSchema = async () => {};
  if (adminUrl) {
    const schema = await freshSchema(adminUrl);
    databaseUrl = schema.url;
    dropSchema = schema.drop;
  }
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    async close() {
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh DATA_DIR beside another store's database (a second server process of one deployment).
 * Closing it removes only that directory: the database stays with the store that made it.
 */
export function siblingTestStore(
  databaseUrl: string | undefined,
  prefix = 'portal-test-',
): TestStore {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    async close() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
