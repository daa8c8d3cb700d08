import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Each journey file gets its own built server with a fresh DATA_DIR, so it starts from the
// seeded demo world whatever ran before it (or beside it, in another worker). The DATA_DIR is a
// copy of the one the run's first start made (./globalSetup.ts), as a restart finds it.

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.resolve(ROOT, process.env.DIST_DIR ?? 'dist', 'server');

/** Set by ./environment.ts when a test or hook of this file fails. */
export const FAILED_FLAG = 'e2eJourneyFailed';

/** The environment the server and the admin command share. */
function serverEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    PORTAL_ROOT: ROOT,
    // A journey hands out a handful of addresses: a pool of 20 stays ahead of it, where the
    // default 1,000 per branch cost each start about 2 s of CPU deriving them.
    ADDRESS_POOL_SIZE: '20',
    // A bundle built into a DIST_DIR outside the repo still finds the project's packages.
    NODE_PATH: path.join(ROOT, 'node_modules'),
    // The contracts' parses, kept on disk as the server tests keep theirs
    // (server/src/openapi/diskParses.ts): each start after the first reads them back, about
    // 3.7 s of CPU less a start of two processes.
    OPENAPI_PARSE_CACHE: path.join(ROOT, 'node_modules/.cache/openapi-parses'),
  };
}

interface RunningServer {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** What the journey added to the environment (a restart starts with the same). */
  extraEnv: ExtraEnv;
  /** The signer process beside it (dist/server/signer.cjs), when the journey asked for one. */
  signer?: ChildProcess;
}

/** The first match of `pattern` in what `child` prints, once it prints it. */
function printed(
  child: ChildProcess,
  pattern: RegExp,
  what: { name: string; logPath: string; withinMs: number },
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`the ${what.name} did not start within ${what.withinMs / 1000} s`)),
      what.withinMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}; ${what.name} log: ${what.logPath}`));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      resolve(match);
    });
    child.once('exit', (code) => fail(new Error(`the ${what.name} exited with ${code}`)));
  });
}

/** The URL the server prints once it listens (`Portal listening on http://localhost:<port>`). */
async function listeningPort(child: ChildProcess, logPath: string, withinMs: number) {
  const match = await printed(child, /listening on http:\/\/[^:\s]+:(\d+)/, {
    name: 'server',
    logPath,
    withinMs,
  });
  return Number(match[1]);
}

/** Starts `dist/server/<bundle>.cjs` on `dataDir`, its output appended to `logName` there. */
function spawnBundle(
  bundle: 'main' | 'signer',
  dataDir: string,
  env: NodeJS.ProcessEnv,
  logName: string,
): { child: ChildProcess; logPath: string } {
  const logPath = path.join(dataDir, logName);
  const child = spawn(process.execPath, [path.join(DIST, `${bundle}.cjs`)], {
    cwd: ROOT,
    env: { ...serverEnv(dataDir), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Appended: a restarted process's log follows the one before it.
  const log = fs.createWriteStream(logPath, { flags: 'a' });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  // How it ended, in its log: a process killed by a signal it did not expect says nothing itself.
  child.once('close', (code, signal) => {
    log.end(`e2e: ${bundle}.cjs ended (exit code ${code}, signal ${signal})\n`);
  });
  return { child, logPath };
}

/**
 * Starts the signer (the only process with the wallet seed, as `npm start` runs it) on `dataDir`
 * and waits until it listens on DATA_DIR/signer.sock: the server started after it reads the
 * xpub it wrote and asks it to sign. Its log is `signer.log` beside the server's.
 */
async function startSigner(dataDir: string, extraEnv: ExtraEnv): Promise<ChildProcess> {
  const { child, logPath } = spawnBundle('signer', dataDir, extraEnv, 'signer.log');
  try {
    await printed(child, /Signer listening on /, {
      name: 'signer',
      logPath,
      withinMs: START_WITHIN_MS,
    });
    return child;
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

/** Stops a child with SIGTERM and waits for it to exit (so it closes its database first). */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Settings a journey gives its server on top of the harness's own (e.g. WEBHOOK_*). */
type ExtraEnv = Readonly<Record<string, string>>;

/**
 * Starting takes ~3 s of CPU for one process, ~7 s for two (loading modules; the OpenAPI
 * documents' parses are read back from disk; validators compile on first use), up to 20 s of a
 * busy 2-core machine, and more while a journey runs beside it.
 */
const START_WITHIN_MS = 60_000;

/** Names the DATA_DIR that ./globalSetup.ts made for the run's servers to start from. */
export const TEMPLATE_ENV = 'E2E_TEMPLATE_DIR';

/**
 * The built server's own first start (migrations, the demo world's seed, the development
 * wallet) on a new DATA_DIR, stopped once it listens: each journey's server starts from a copy,
 * which saves it about 2 s of CPU. Answers the directory.
 */
export async function makeTemplate(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-template-'));
  const env = { PORT: '0', HOST: '127.0.0.1', PROCESSES: '1' };
  const { child, logPath } = spawnBundle('main', dataDir, env, 'server.log');
  try {
    await listeningPort(child, logPath, START_WITHIN_MS);
  } finally {
    await stopChild(child);
  }
  fs.rmSync(logPath);
  return dataDir;
}

/**
 * A new DATA_DIR: a copy of the run's template, or an empty one for a journey whose signer
 * must be there before the server's first start, as with `npm start`.
 */
function newDataDir(fromTemplate: boolean): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  if (!fromTemplate) return dataDir;
  const template = process.env[TEMPLATE_ENV];
  if (!template) throw new Error(`no ${TEMPLATE_ENV}: run journeys with npm run test:e2e`);
  fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

async function startServer(
  extraEnv: ExtraEnv,
  restart?: { dataDir: string; port: number; signer?: ChildProcess },
  withinMs = START_WITHIN_MS,
  withSigner = false,
): Promise<RunningServer> {
  const dataDir = restart?.dataDir ?? newDataDir(!withSigner);
  // A restart keeps the signer that runs beside the server (restartSigner() replaces it).
  const signer = restart
    ? restart.signer
    : withSigner
      ? await startSigner(dataDir, extraEnv)
      : undefined;
  // Port 0: the system picks a free port at bind time, so files started side by side can
  // never be handed the same one; the server prints which. A restart keeps its port, so the
  // browser's origin (and the session stored for it) stays the same.
  const { child, logPath } = spawnBundle(
    'main',
    dataDir,
    {
      PORT: String(restart?.port ?? 0),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '10000',
      AUTH_RATE_LIMIT_MAX: '1000',
      ...extraEnv,
    },
    'server.log',
  );
  try {
    const baseUrl = `http://127.0.0.1:${await listeningPort(child, logPath, withinMs)}`;
    return { baseUrl, dataDir, child, extraEnv, ...(signer ? { signer } : {}) };
  } catch (error) {
    child.kill('SIGTERM');
    if (!restart) await stopChild(signer);
    throw error;
  }
}

async function stopServer({ child, signer, dataDir }: RunningServer, failed: boolean) {
  // Waiting lets each process close its database before the directory goes; the signer last,
  // as `npm start` does, so the server's jobs never ask a signer that is gone.
  await stopChild(child);
  await stopChild(signer);
  if (failed) console.error(`e2e: server data and logs kept in ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
}

let current: RunningServer | undefined;

function running(): RunningServer {
  if (!current) throw new Error('no e2e server: call freshServer() at the top of the file');
  return current;
}

/**
 * Starts a fresh server for this journey file (beforeAll) and stops it (afterAll), removing its
 * data unless something in the file failed. Read the handle's fields inside tests and hooks.
 * `env` adds settings of the journey's own; `signer: true` runs the signer process first, on
 * the same DATA_DIR and settings, as `npm start` does (without it, nothing is ever signed).
 * `processes: 2` runs it as `npm start` does on two cores, for a journey whose screens follow
 * what another process did (a job's status change in a stream); one process otherwise, which
 * starts with less than half the CPU (several processes are `npm run test:two-processes`'
 * subject).
 */
export function freshServer(
  env: ExtraEnv = {},
  options: { signer?: boolean; processes?: 1 | 2 } = {},
): {
  readonly baseUrl: string;
  readonly dataDir: string;
} {
  const settings = { PROCESSES: String(options.processes ?? 1), ...env };
  beforeAll(
    async () => {
      current = await startServer(settings, undefined, START_WITHIN_MS, options.signer === true);
    },
    options.signer ? 150_000 : 90_000,
  );
  afterAll(async () => {
    if (!current) return;
    await stopServer(current, Reflect.get(globalThis, FAILED_FLAG) === true);
  });
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get dataDir() {
      return running().dataDir;
    },
  };
}

/**
 * Kills this file's server as `kill -9` does (SIGKILL: nothing flushed, nothing closed) and
 * waits for it to be gone; `restartServer` starts it again. Pages should be off the server
 * meanwhile: a request that meets no server ends the portal's session.
 */
export async function killServer(): Promise<void> {
  const { child } = running();
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Starts this file's (stopped) server again on the same DATA_DIR, port and settings. */
export async function restartServer(): Promise<void> {
  const { dataDir, baseUrl, extraEnv, signer } = running();
  current = await startServer(extraEnv, {
    dataDir,
    port: Number(new URL(baseUrl).port),
    ...(signer ? { signer } : {}),
  });
}

/** The signer of a file started with `freshServer(env, { signer: true })`. */
function runningSigner(): ChildProcess {
  const { signer } = running();
  if (!signer) throw new Error('no signer: start the file with freshServer(env, { signer: true })');
  return signer;
}

/**
 * Kills this file's signer as `kill -9` does (nothing flushed, its socket file left behind) and
 * waits for it to be gone; the server keeps running and its jobs find no signer meanwhile.
 */
export async function killSigner(): Promise<void> {
  const signer = runningSigner();
  if (signer.exitCode !== null || signer.signalCode !== null) return;
  const exited = once(signer, 'exit');
  signer.kill('SIGKILL');
  await exited;
}

/** Starts this file's (killed) signer again on the same DATA_DIR and settings. */
export async function restartSigner(): Promise<void> {
  const server = running();
  const old = runningSigner();
  if (old.exitCode === null && old.signalCode === null) throw new Error('the signer still runs');
  current = { ...server, signer: await startSigner(server.dataDir, server.extraEnv) };
}

/**
 * A second server for this file, on a fresh DATA_DIR of its own with `env` added, for a journey
 * that needs other settings. Called after freshServer(), it starts in the background once the
 * file's server is up (so it does not slow that one's start); it stops in afterAll. Await the
 * function for its handle.
 */
export function otherServer(env: ExtraEnv): () => Promise<{ baseUrl: string }> {
  let starting: Promise<RunningServer> | undefined;
  beforeAll(() => {
    // Beside the journey's own work it gets less of the machine: the test that awaits it waits.
    starting = startServer({ PROCESSES: '1', ...env }, undefined, 3 * START_WITHIN_MS);
    // Its failure surfaces where a test awaits it; it must not be an unhandled rejection.
    starting.catch(() => {});
  });
  afterAll(async () => {
    const other = await starting?.catch(() => undefined);
    if (other) await stopServer(other, Reflect.get(globalThis, FAILED_FLAG) === true);
  });
  return async () => {
    if (!starting) throw new Error('otherServer() must be called at the top of the file');
    return starting;
  };
}

/** The base URL of this file's server, for pages opened without the handle at hand. */
export const serverUrl = () => running().baseUrl;

/** `npm run admin -- ...` on the given server's DATA_DIR. */
export function admin(dataDir: string, ...args: string[]): string {
  return execFileSync(process.execPath, [path.join(DIST, 'admin.cjs'), ...args], {
    env: serverEnv(dataDir),
    encoding: 'utf8',
  });
}
