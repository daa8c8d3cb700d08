import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForServer } from '../../scripts/net.mjs';

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

async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logPath = path.join(dataDir, 'server.log');
  // The server writes straight to the file: nothing to pipe or flush in this process.
  const log = fs.openSync(logPath, 'a');
  const child = spawn(process.execPath, [path.join(DIST, 'main.cjs')], {
    cwd: ROOT,
    env: {
      ...serverEnv(dataDir),
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '10000',
      AUTH_RATE_LIMIT_MAX: '1000',
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  try {
    await waitForServer(`${baseUrl}/`, child);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`${(error as Error).message}; server log: ${logPath}`, { cause: error });
  }
  return { baseUrl, dataDir, child };
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
