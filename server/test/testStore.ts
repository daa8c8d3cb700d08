import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDatabase, freshSchema, workerDatabase } from '../../scripts/pg-cluster.mjs';

/**
 * Where a test keeps its data. Always a fresh DATA_DIR (secret key, uploads, outbox); the
 * database is SQLite in it unless TEST_DATABASE_URL is set (by scripts/test-pg.mjs, or by a
 * developer pointing at their own server): then it is a fresh schema of that PostgreSQL
 * server's database for this Jest worker, dropped again on close. Tests pass `env` to loadConfig and to admin commands, so the
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
    const home = await workerDatabase(adminUrl, process.env.JEST_WORKER_ID ?? '1');
    const schema = await freshSchema(home);
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

/** Migrates and seeds the store at `env` (opens a runtime on it and closes it again). */
type Seeder = (env: TestStore['env']) => Promise<void>;

interface Template {
  store: TestStore;
  /** On PostgreSQL: the database the copies are made from. */
  database: string | undefined;
  madeAt: number;
}

// A test file's seeded stores are copies of one it seeded itself (per configuration): migrating
// and seeding (argon2 hashes, the development wallet key, the Demo Store's history through the
// gateway's code) cost about 1 s a store; a copy costs a file copy on SQLite, a CREATE DATABASE
// ... TEMPLATE on PostgreSQL. The seed's times are relative to when it ran, so a template older
// than TEMPLATE_MAX_AGE_MS is made again: a copy's data is never more than that older than
// its app's clock (a fresh seed already is by the time it takes).
const TEMPLATE_MAX_AGE_MS = 30_000;
const templates = new Map<string, Promise<Template>>();
const madeTemplates: Promise<Template>[] = [];

// Templates last as long as the test file (this module is loaded once per file, at its top).
afterAll(async () => {
  const made = await Promise.allSettled(madeTemplates.splice(0));
  templates.clear();
  for (const result of made) if (result.status === 'fulfilled') await result.value.store.close();
});

async function makeTemplate(seedInto: Seeder): Promise<Template> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-template-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await freshDatabase(adminUrl) : undefined;
  const store: TestStore = {
    dataDir,
    databaseUrl: database?.url,
    env: { DATA_DIR: dataDir, DATABASE_URL: database?.url },
    async close() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const madeAt = Date.now();
  try {
    await seedInto(store.env);
  } catch (error) {
    await store.close();
    throw error;
  }
  return { store, database: database?.name, madeAt };
}

/**
 * A fresh store already migrated and seeded by `seedInto`: a copy of this file's template for
 * `key` (the configuration the seed ran with), made on first use. Closing it removes the copy.
 */
export async function seededTestStore(
  key: string,
  seedInto: Seeder,
  prefix = 'portal-test-',
): Promise<TestStore> {
  let made = templates.get(key);
  const current = made && (await made);
  if (!current || Date.now() - current.madeAt > TEMPLATE_MAX_AGE_MS) {
    made = makeTemplate(seedInto);
    templates.set(key, made);
    madeTemplates.push(made);
  }
  const template = await (made as Promise<Template>);
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  // The DATA_DIR too: the development wallet key the demo's deposit accounts derive from.
  cpSync(template.store.dataDir, dataDir, { recursive: true });
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await freshDatabase(adminUrl, template.database) : undefined;
  return {
    dataDir,
    databaseUrl: database?.url,
    env: { DATA_DIR: dataDir, DATABASE_URL: database?.url },
    async close() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
