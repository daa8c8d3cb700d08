import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Each journey file gets its own built server with a fresh DATA_DIR, so it starts from the
// seeded demo world whatever ran before it (or beside it, in another worker).

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
    // A bundle built into a DIST_DIR outside the repo still finds the project's packages.
    NODE_PATH: path.join(ROOT, 'node_modules'),
  };
}

interface RunningServer {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** What the journey added to the environment (a restart starts with the same). */
  extraEnv: ExtraEnv;
}

/** The URL the server prints once it listens (`Portal listening on http://localhost:<port>`). */
function listeningPort(child: ChildProcess, logPath: string, withinMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => fail(new Error(`the server did not start within ${withinMs / 1000} s`)),
      withinMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}; server log: ${logPath}`));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const port = /listening on http:\/\/[^:\s]+:(\d+)/.exec(seen)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve(Number(port));
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code}`)));
  });
}

/** Settings a journey gives its server on top of the harness's own (e.g. WEBHOOK_*). */
type ExtraEnv = Readonly<Record<string, string>>;

/**
 * Starting takes ~3.5 s of CPU (loading modules, checking both OpenAPI documents; validators
 * compile on first use), 10-20 s of a busy 2-core machine, and more while a journey runs beside it.
 */
const START_WITHIN_MS = 60_000;

async function startServer(
  extraEnv: ExtraEnv,
  restart?: { dataDir: string; port: number },
  withinMs = START_WITHIN_MS,
): Promise<RunningServer> {
  const dataDir = restart?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const logPath = path.join(dataDir, 'server.log');
  // Port 0: the system picks a free port at bind time, so files started side by side can
  // never be handed the same one; the server prints which. A restart keeps its port, so the
  // browser's origin (and the session stored for it) stays the same.
  const child = spawn(process.execPath, [path.join(DIST, 'main.cjs')], {
    cwd: ROOT,
    env: {
      ...serverEnv(dataDir),
      PORT: String(restart?.port ?? 0),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '10000',
      AUTH_RATE_LIMIT_MAX: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Appended: a restarted server's log follows the one before it.
  const log = fs.createWriteStream(logPath, { flags: 'a' });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  try {
    const baseUrl = `http://127.0.0.1:${await listeningPort(child, logPath, withinMs)}`;
    return { baseUrl, dataDir, child, extraEnv };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

async function stopServer({ child, dataDir }: RunningServer, failed: boolean) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // Waiting lets the server close its database before the directory goes.
    await exited;
  }
  if (failed) console.error(`e2e: server data and log kept in ${dataDir}`);
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
 * `env` adds settings of the journey's own.
 */
export function freshServer(env: ExtraEnv = {}): {
  readonly baseUrl: string;
  readonly dataDir: string;
} {
  beforeAll(async () => {
    current = await startServer(env);
  }, 90_000);
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
  const { dataDir, baseUrl, extraEnv } = running();
  current = await startServer(extraEnv, { dataDir, port: Number(new URL(baseUrl).port) });
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
    starting = startServer(env, undefined, 3 * START_WITHIN_MS);
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
