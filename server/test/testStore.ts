import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  dropDatabase,
  freshDatabase,
  freshSchema,
  workerDatabase,
} from '../../scripts/pg-cluster.mjs';

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

// Seeded stores are copies of a template seeded once per configuration: migrating and seeding
// (argon2 hashes, the development wallet key, the Demo Store's history through the gateway's
// code) cost about 1 s a store on SQLite and 3 s on PostgreSQL; a copy costs a file copy on
// SQLite, a CREATE DATABASE ... TEMPLATE on PostgreSQL. The seed's times are relative to when it
// ran, so only a template younger than TEMPLATE_MAX_AGE_MS is copied: a copy's data is never more
// than that older than its app's clock (a fresh seed already is by the time it takes).
//
// The templates are shared by every test file of the run (a file lasts seconds, so the next ones
// find the template fresh): each is a directory of TEST_TEMPLATE_DIR (globalSetup.ts makes it,
// globalTeardown.ts removes it and drops the templates' databases), named by its configuration's
// hash and the time its seed began, holding the template's DATA_DIR and, on PostgreSQL, the name
// of its database. A template appears there by a rename once seeded, so a file never copies one
// half made. The seed reads nothing but its configuration (loadConfig of the env it is given)
// and the code, the same for every file of the run.
const TEMPLATE_MAX_AGE_MS = 30_000;
// Nobody copies a template past its age, so one this much older than that is removed (by the
// next file that seeds one): a copy started just before the age ran out has long ended.
const TEMPLATE_REMOVED_AFTER_MS = 4 * TEMPLATE_MAX_AGE_MS;

interface Template {
  /** The template's DATA_DIR. */
  dataDir: string;
  /** On PostgreSQL: the database the copies are made from. */
  database: string | undefined;
}

const META = 'template.json';

/** The run's template directory (a file run outside the project's Jest config gets its own). */
function templateRoot(): string {
  process.env.TEST_TEMPLATE_DIR ??= mkdtempSync(path.join(tmpdir(), 'portal-templates-'));
  return process.env.TEST_TEMPLATE_DIR;
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** The run's newest template for `key` still young enough to copy. */
function freshTemplate(key: string): Template | undefined {
  const prefix = `${hashOf(key)}-`;
  const names = readdirSync(templateRoot()).filter((name) => name.startsWith(prefix));
  const newest = names.sort((a, b) => madeAtOf(b) - madeAtOf(a))[0];
  if (newest === undefined || Date.now() - madeAtOf(newest) > TEMPLATE_MAX_AGE_MS) return;
  const { database } = JSON.parse(
    readFileSync(path.join(templateRoot(), newest, META), 'utf8'),
  ) as { database?: string };
  return { dataDir: path.join(templateRoot(), newest, 'data'), database };
}

/** A template directory's name is `<hash>-<madeAt>-<random>` (made by makeTemplate). */
const madeAtOf = (name: string) => Number(name.split('-')[1]);

async function makeTemplate(key: string, seedInto: Seeder): Promise<Template> {
  await removeOldTemplates();
  const madeAt = Date.now();
  const name = `${hashOf(key)}-${madeAt}-${randomBytes(4).toString('hex')}`;
  const building = mkdtempSync(path.join(templateRoot(), '.building-'));
  const dataDir = path.join(building, 'data');
  mkdirSync(dataDir);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await freshDatabase(adminUrl) : undefined;
  try {
    await seedInto({ DATA_DIR: dataDir, DATABASE_URL: database?.url });
    writeFileSync(path.join(building, META), JSON.stringify({ database: database?.name }));
    renameSync(building, path.join(templateRoot(), name));
  } catch (error) {
    await database?.drop();
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
  return { dataDir: path.join(templateRoot(), name, 'data'), database: database?.name };
}

/**
 * Removes the run's templates that nobody copies any more: each is first renamed away, so that
 * of two files removing at once only one drops it.
 */
async function removeOldTemplates(): Promise<void> {
  const root = templateRoot();
  for (const name of readdirSync(root)) {
    if (name.startsWith('.') || Date.now() - madeAtOf(name) <= TEMPLATE_REMOVED_AFTER_MS) continue;
    const claimed = path.join(root, `.removing-${name}`);
    try {
      renameSync(path.join(root, name), claimed);
    } catch {
      continue; // Another file took it.
    }
    await dropTemplate(claimed);
  }
}

/** Drops a template directory's database (if any) and removes the directory. */
export async function dropTemplate(dir: string): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  // A template whose seed failed wrote no META and made no database that outlived it.
  const meta = path.join(dir, META);
  const { database } = existsSync(meta)
    ? (JSON.parse(readFileSync(meta, 'utf8')) as { database?: string })
    : {};
  if (adminUrl && database) await dropDatabase(adminUrl, database);
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh store already migrated and seeded by `seedInto`: a copy of the run's template for
 * `key` (the configuration the seed ran with), made when there is none young enough. Closing it
 * removes the copy.
 */
export async function seededTestStore(
  key: string,
  seedInto: Seeder,
  prefix = 'portal-test-',
): Promise<TestStore> {
  const template = freshTemplate(key) ?? (await makeTemplate(key, seedInto));
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  // The DATA_DIR too: the development wallet key the demo's deposit accounts derive from.
  cpSync(template.dataDir, dataDir, { recursive: true });
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
