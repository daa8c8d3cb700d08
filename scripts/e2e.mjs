// `npm run test:e2e`: the built server on a free port with a fresh DATA_DIR, and the journeys in
// test/e2e driving Debian's headless chromium through playwright-core.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBuildIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && fs.existsSync('/usr/bin/apt-get')) {
    console.log('e2e: installing Debian chromium (apt-get install chromium)...');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env,
    });
    if (update.status === 0 && install.status === 0 && fs.existsSync(CHROMIUM)) return;
  }
  console.error(
    `e2e: no browser at ${CHROMIUM}. Install Debian's chromium (as root: apt-get install -y chromium) ` +
      'or set CHROMIUM_PATH, then run npm run test:e2e again.',
  );
  process.exit(1);
}

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForServer(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not answer ${url} within 30 s`);
}

ensureChromium();
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
if (!fs.existsSync(path.join(distDir, 'web/index.html'))) run('npm', ['run', '-s', 'build:web']);
if (serverBuildIsStale()) run('npm', ['run', '-s', 'build:server']);

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
const baseUrl = `http://127.0.0.1:${port}`;
const serverEnv = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  NODE_ENV: 'test',
  PORTAL_ROOT: root,
  // A bundle built into a DIST_DIR outside the repo still finds the project's packages.
  NODE_PATH: path.join(root, 'node_modules'),
  RATE_LIMIT_MAX: '10000',
  AUTH_RATE_LIMIT_MAX: '1000',
};
const server = spawn(process.execPath, [path.join(distDir, 'server/main.cjs')], {
  cwd: root,
  env: serverEnv,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const serverLog = fs.createWriteStream(path.join(dataDir, 'server.log'));
server.stdout.pipe(serverLog);
server.stderr.pipe(serverLog);

let status = 1;
try {
  await waitForServer(`${baseUrl}/`, server);
  const jest = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/jest/bin/jest.js'),
      '--selectProjects',
      'e2e',
      '--runInBand',
      // testTimeout is a global option: the e2e project's own setting does not apply.
      '--testTimeout=60000',
      ...process.argv.slice(2),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_BASE_URL: baseUrl,
        E2E_DATA_DIR: dataDir,
        CHROMIUM_PATH: CHROMIUM,
      },
    },
  );
  status = jest.status ?? 1;
} catch (error) {
  console.error(`e2e: ${error.message}; server log: ${path.join(dataDir, 'server.log')}`);
} finally {
  server.kill('SIGTERM');
}
if (status === 0) fs.rmSync(dataDir, { recursive: true, force: true });
else console.error(`e2e: server data and log kept in ${dataDir}`);
process.exit(status);
