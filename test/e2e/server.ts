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
}

/** The URL the server prints once it listens (`Portal listening on http://localhost:<port>`). */
function listeningPort(child: ChildProcess, logPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error('the server did not start within 30 s')), 30_000);
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

async function startServer(): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const logPath = path.join(dataDir, 'server.log');
  // Port 0: the system picks a free port at bind time, so files started side by side can
  // never be handed the same one; the server prints which.
  const child = spawn(process.execPath, [path.join(DIST, 'main.cjs')], {
    cwd: ROOT,
    env: {
      ...serverEnv(dataDir),
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '10000',
      AUTH_RATE_LIMIT_MAX: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logPath);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  try {
    const baseUrl = `http://127.0.0.1:${await listeningPort(child, logPath)}`;
    return { baseUrl, dataDir, child };
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
 */
export function freshServer(): { readonly baseUrl: string; readonly dataDir: string } {
  beforeAll(async () => {
    current = await startServer();
  }, 60_000);
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

/** The base URL of this file's server, for pages opened without the handle at hand. */
export const serverUrl = () => running().baseUrl;

/** `npm run admin -- ...` on the given server's DATA_DIR. */
export function admin(dataDir: string, ...args: string[]): string {
  return execFileSync(process.execPath, [path.join(DIST, 'admin.cjs'), ...args], {
    env: serverEnv(dataDir),
    encoding: 'utf8',
  });
}
