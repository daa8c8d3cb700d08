// Our server under `npm run bench:api`: the engine's store (a fresh DATA_DIR, and for PostgreSQL
// a throwaway cluster, or TEST_DATABASE_URL, with a fresh schema) and the built server started on
// it production-like, in as many processes on one port as `npm start` runs.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { outDir } from '../build-server.mjs';
import { freePort } from '../net.mjs';
import { freshSchema, startPgCluster } from '../pg-cluster.mjs';
import { root, setLiveSchema, startProcess, tempDirs } from './processes.mjs';

/**
 * A server under test: where it answers, and its process (a primary of several, or alone).
 * @typedef {{ origin: string, server: import('node:child_process').ChildProcess }} Side
 * @typedef {{ dataDir: string, cluster: { url: string, stop: () => void } | null, schema: { url: string, drop: () => Promise<void> } | null }} Store
 *   `dataDir`: the server's DATA_DIR, which also holds the logs and the recorded answers.
 */

/**
 * The engine and the process count, as the tables print them.
 * @param {import('./options.mjs').Engine} engine @param {number} processes
 */
export function engineLabel(engine, processes) {
  return `${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${processes} process${processes === 1 ? '' : 'es'}`;
}

/**
 * A fresh DATA_DIR (removed on exit) and, for PostgreSQL, a cluster with a fresh schema.
 * @param {import('./options.mjs').Engine} engine @returns {Promise<Store>}
 */
export async function openStore(engine) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${engine}-`));
  tempDirs.add(dataDir);
  const cluster = engine === 'postgres' ? await startPgCluster() : null;
  const schema = cluster ? await freshSchema(cluster.url) : null;
  setLiveSchema(schema);
  return { dataDir, cluster, schema };
}

/**
 * Keeps a failed engine's DATA_DIR, with the servers' logs, and says where it is.
 * @param {Store} store
 */
export function keepLogs(store) {
  tempDirs.delete(store.dataDir);
  console.error(`bench:api: server logs kept in ${store.dataDir}`);
}

/**
 * Drops the schema and stops the cluster (the servers on them stopped first).
 * @param {Store} store
 */
export async function closeStore(store) {
  setLiveSchema(null);
  await store.schema?.drop();
  store.cluster?.stop();
}

/**
 * Production-like, except the limits that would answer 429 to a benchmark's one client IP, and
 * NODE_ENV: the benchmark signs in as the demo account, which only development seeds (production
 * refuses SEED_DEMO). What production changes is set here explicitly instead: the given
 * WALLET_XPUB, no response validation, the log level.
 * @param {Store} store
 */
export function serverEnv(store) {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: store.dataDir,
    DATABASE_URL: store.schema?.url,
    NODE_ENV: 'development',
    // A throwaway account xpub (its seed is dropped), as production would need.
    WALLET_XPUB: HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey,
    PORTAL_ROOT: root,
    NODE_PATH: path.join(root, 'node_modules'),
    RESPONSE_VALIDATION: 'false',
    // The limiter still does its per-request work, but a million requests a second from the one
    // client IP is out of reach, however fast the server becomes: it never answers 429.
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_WINDOW_MS: '1000',
    AUTH_RATE_LIMIT_MAX: '1000000',
    GATEWAY_RATE_LIMIT_MAX: '1000000',
    CHECKOUT_RATE_LIMIT_MAX: '1000000',
    LOG_LEVEL: 'warn',
  };
}

/**
 * Starts ours (the API under /api, the gateway under /gateway/v1) from the built server, in
 * `processes` processes sharing one port, each writing a V8 CPU profile into `cpuProf` when it
 * stops (node --cpu-prof) if that is given.
 * @param {Store} store @param {NodeJS.ProcessEnv} env
 * @param {{ processes: number, cpuProf: string | undefined }} options
 * @param {Record<string, string>} [extraEnv]
 * @returns {Promise<Side>}
 */
export async function startOurs(store, env, { processes, cpuProf }, extraEnv = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    [
      '--enable-source-maps',
      ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProf)}`] : []),
      path.join(outDir, 'main.cjs'),
    ],
    { ...env, ...extraEnv, PORT: String(port), PROCESSES: String(processes) },
    path.join(store.dataDir, 'server.log'),
    `${origin}/api/countries`,
    'Portal listening on',
  );
  return { origin, server };
}
