// The child processes of `npm run bench:api` (our server, the bare one, admin commands) and what
// is cleaned up when it exits: every process still running is stopped, every temporary directory
// removed, and on an interrupt the PostgreSQL schema in use dropped.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { outDir } from '../build-server.mjs';
import { waitForServer } from '../net.mjs';

/** The repository's root: the working directory of every process started. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Server processes still running (ours and bare), stopped on any exit. */
const children = new Set(/** @type {import('node:child_process').ChildProcess[]} */ ([]));
/** Temporary directories removed on exit (a failed engine's is kept for its logs). */
export const tempDirs = new Set(/** @type {string[]} */ ([]));
/** The PostgreSQL schema in use, dropped on an interrupt when it lives on TEST_DATABASE_URL. */
let liveSchema = /** @type {{ drop: () => Promise<void> } | null} */ (null);

/** @param {{ drop: () => Promise<void> } | null} schema the schema in use now, or none */
export function setLiveSchema(schema) {
  liveSchema = schema;
}

/**
 * Stops the processes and removes the directories on exit, and on SIGINT or SIGTERM stops the
 * servers, drops the live schema and exits 130. Called before any PostgreSQL cluster starts, so
 * these handlers run before startPgCluster's own: the servers are told to stop before the
 * throwaway cluster goes away (that handler then stops it and exits).
 */
export function cleanUpOnExit() {
  process.on('exit', () => {
    for (const child of children) child.kill('SIGTERM');
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      console.error(`\nbench:api: ${signal}, stopping the servers`);
      const running = [...children];
      for (const child of running) child.kill('SIGTERM');
      Promise.all(running.map(exitOf))
        .then(() => liveSchema?.drop())
        .catch(() => {})
        .finally(() => process.exit(130));
    });
  }
}

/** @param {import('node:child_process').ChildProcess} child @returns {Promise<void>} */
function exitOf(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts a Node process and waits until `readyUrl` answers 2xx and it has printed `ready` (all
 * its workers listen); its output goes to `logFile`.
 * @param {string[]} args @param {NodeJS.ProcessEnv} env @param {string} logFile
 * @param {string} readyUrl @param {string} ready
 */
export async function startProcess(args, env, logFile, readyUrl, ready) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const log = fs.createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let printed = '';
  child.stdout.on('data', (chunk) => (printed += chunk));
  // A first start migrates and seeds; on a loaded machine that takes more than the default.
  await waitForServer(readyUrl, child, 180_000);
  while (!printed.includes(ready)) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

/** @param {import('node:child_process').ChildProcess[]} list */
export async function stopProcesses(list) {
  for (const child of list) child.kill('SIGTERM');
  await Promise.all(list.map(exitOf));
}

/**
 * Runs an admin command (dist/server/admin.cjs) on the engine's database, its output shown
 * indented; throws unless it exits 0.
 * @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
export function admin(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(outDir, 'admin.cjs'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let pending = '';
    const show = (/** @type {Buffer} */ chunk) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) console.log(`  | ${line}`);
    };
    child.stdout.on('data', show);
    child.stderr.on('data', show);
    child.once('exit', (code) => {
      children.delete(child);
      if (pending) console.log(`  | ${pending}`);
      if (code === 0) resolve(undefined);
      else reject(new Error(`npm run admin -- ${args.join(' ')} exited ${code}`));
    });
  });
}
