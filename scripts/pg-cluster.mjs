// A throwaway PostgreSQL for the tests: TEST_DATABASE_URL when a developer has their own server,
// otherwise Debian's PostgreSQL 15 (installed through apt when missing, as chromium is) started as
// a fresh cluster in a temporary directory on a free loopback port, with trust authentication, and
// removed again on stop. PostgreSQL refuses to run as root, which CI is: then the cluster belongs
// to the `postgres` user and every command runs through runuser.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './net.mjs';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const isRoot = process.getuid?.() === 0;

function ensureInstalled() {
  if (fs.existsSync(path.join(PG_BIN, 'pg_ctl'))) return;
  if (!isRoot) {
    throw new Error(
      `PostgreSQL 15 is not installed: run 'sudo apt-get install -y postgresql-15', or set TEST_DATABASE_URL`,
    );
  }
  console.log('pg-cluster: installing postgresql-15 through apt');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql-15'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Runs a PostgreSQL program as the cluster's owner. @param {string} program @param {string[]} args */
function runPg(program, args) {
  const command = path.join(PG_BIN, program);
  const result = isRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

/** The room a run's cluster needs in memory: about 300 MB at most in a full run, and to spare. */
const IN_MEMORY_ROOM = 1024 ** 3;

/**
 * Where a test run's cluster keeps its data: in memory (/dev/shm) when there is room, as its
 * durability is not wanted (fsync is off too): creating and dropping a database per test there
 * takes about half the time it takes on a disk, and a PostgreSQL run of the server suite about a
 * fifth less. The temporary directory otherwise.
 */
function inMemoryParent() {
  try {
    const shm = fs.statfsSync('/dev/shm');
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    if (shm.bavail * shm.bsize >= IN_MEMORY_ROOM) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return os.tmpdir();
}

/**
 * Starts a cluster (or takes TEST_DATABASE_URL) and returns its URL and a stop function.
 * `inMemory`: for the tests; the benchmarks keep theirs on the disk, as their figures were taken.
 * @param {{ inMemory?: boolean }} [options]
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
export async function startPgCluster({ inMemory = false } = {}) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: () => {} };
  ensureInstalled();
  const dir = fs.mkdtempSync(path.join(inMemory ? inMemoryParent() : os.tmpdir(), 'portal-pg-'));
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  runPg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  // Durability is not wanted from a cluster that is deleted after the run: fsync off makes it fast.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runPg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runPg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once('exit', stop);
  // An interrupted run still removes its cluster (the exit handler alone does not run on signals).
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

/** @param {string} adminUrl @param {string} statement */
async function onAdmin(adminUrl, statement) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new empty schema in the database at `adminUrl`, and the URL whose connections use it
 * (search_path), so that runs sharing one server never see each other's tables.
 * @param {string} adminUrl
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
export async function freshSchema(adminUrl) {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  await onAdmin(adminUrl, `CREATE SCHEMA ${schema}`);
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => onAdmin(adminUrl, `DROP SCHEMA ${schema} CASCADE`) };
}

/**
 * The database at `adminUrl`'s server that one test worker keeps its schemas in (made on first
 * use), so that workers running side by side never share one: a migration's introspection lists
 * every schema of its database, and fails on a table another worker's teardown drops meanwhile.
 * @param {string} adminUrl
 * @param {string} worker
 * @returns {Promise<string>}
 */
export async function workerDatabase(adminUrl, worker) {
  const name = `portal_test_worker_${worker.replace(/\W/g, '')}`;
  try {
    await onAdmin(adminUrl, `CREATE DATABASE ${name}`);
  } catch (error) {
    // 42P04: made by an earlier file of this worker; 23505: by this file a moment ago.
    const code = /** @type {{ code?: string }} */ (error).code;
    if (code !== '42P04' && code !== '23505') throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database in the server at `adminUrl`, empty or a copy of the database `template` (which
 * nobody may be connected to), and its URL. Copying a migrated and seeded template is a file
 * copy inside PostgreSQL: much cheaper than migrating and seeding again (test stores).
 * @param {string} adminUrl
 * @param {string} [template]
 * @returns {Promise<{ name: string, url: string, drop: () => Promise<void> }>}
 */
export async function freshDatabase(adminUrl, template) {
  const name = `t_${randomBytes(8).toString('hex')}`;
  // FILE_COPY: PostgreSQL 15's default strategy writes every block of the copy to the WAL
  // (measured ~0.6 s a database here, FILE_COPY ~0.1 s).
  await onAdmin(
    adminUrl,
    `CREATE DATABASE ${name} TEMPLATE ${template ?? 'template1'} STRATEGY FILE_COPY`,
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => dropDatabase(adminUrl, name),
  };
}

/**
 * Drops the database `name` of the server at `adminUrl`, if it is there. FORCE: a connection a
 * test left open (a worker, an admin command) does not keep it.
 * @param {string} adminUrl
 * @param {string} name
 */
export function dropDatabase(adminUrl, name) {
  return onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
