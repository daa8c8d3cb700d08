// CI: holds our reference server to openapi.yaml and server/openapi/gateway.yaml. Starts the
// built server (dist/server, or DIST_DIR) on a free port with a fresh DATA_DIR, high rate limits
// and the local chain's auto-mining off, runs the contract tool against it with a throwaway
// account, a fixed seed, the admin `deposit` command as --fund, `chain mine` as --mine and
// `chain transfer` as --pay, then stops the server. Exit status = the tool's. `--postgres` runs the server on PostgreSQL (a
// throwaway cluster, or a fresh schema of TEST_DATABASE_URL); other arguments go to the tool
// (e.g. `node scripts/contract-ci.mjs --only Apps`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, outDir, serverBuildIsStale } from './build-server.mjs';
import { freePort, waitForServer } from './net.mjs';
import { freshSchema, startPgCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEED = '20250115';
// Requests per property: 40 on SQLite. The PostgreSQL run is there for what the engine changes
// (every operation and flow, each answer checked the same way) and makes 20.
const RUNS = process.argv.includes('--postgres') ? '20' : '40';

/** @param {import('node:child_process').ChildProcess} child @returns {Promise<number>} */
function exitOf(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (serverBuildIsStale()) await buildServer();

const onPostgres = process.argv.includes('--postgres');
const toolArgs = process.argv.slice(2).filter((arg) => arg !== '--postgres');
const cluster = onPostgres ? await startPgCluster({ inMemory: true }) : null;
const schema = cluster ? await freshSchema(cluster.url) : null;

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-contract-'));
const baseUrl = `http://127.0.0.1:${port}/api`;
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  // The --fund and --mine commands inherit this env too, so they reach the same database.
  DATABASE_URL: schema?.url,
  NODE_ENV: 'test',
  PORTAL_ROOT: root,
  // A DIST_DIR outside the project (e.g. /tmp/dist-me) still finds the dependencies.
  NODE_PATH: path.join(root, 'node_modules'),
  // The tool checks every answer itself and reports the exact mismatch; the server's own
  // response validation would turn each one into an opaque 500.
  RESPONSE_VALIDATION: 'false',
  RATE_LIMIT_MAX: '1000000',
  AUTH_RATE_LIMIT_MAX: '1000000',
  GATEWAY_RATE_LIMIT_MAX: '1000000',
  // Its requests without a valid key would otherwise brake its own address on the gateway.
  GATEWAY_AUTH_FAILURE_MAX: '1000000',
  // Blocks only when --mine asks: a test deposit stays Pending until then, whatever the timing.
  LOCAL_BLOCK_MS: '0',
  // The brute-force brakes would lock the tool's own account after its wrong-password probes.
  LOGIN_ACCOUNT_MAX_FAILURES: '1000000',
  LOGIN_IP_MAX_FAILURES: '1000000',
  LOGIN_LOCK_THRESHOLD: '1000000',
  // Password reset requests per IP and per name, failed resets per name: the tool's many calls
  // (with the operations' example names) would otherwise meet 429 and wait out its Retry-After.
  RECOVERY_IP_MAX: '1000000',
  RECOVERY_NAME_MAX: '1000000',
  RECOVERY_FAILED_RESET_MAX: '1000000',
  // Send test event's 5 a minute per app: the tool's 40 runs would wait out a minute each time.
  WEBHOOK_TEST_EVENTS_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
};
const server = spawn(process.execPath, ['--enable-source-maps', path.join(outDir, 'main.cjs')], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const logFile = path.join(dataDir, 'server.log');
const serverLog = fs.createWriteStream(logFile);
server.stdout.pipe(serverLog);
server.stderr.pipe(serverLog);

let status = 1;
try {
  await waitForServer(`${baseUrl}/countries`, server);
  const admin = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(outDir, 'admin.cjs'))}`;
  const fund = `${admin} deposit {username} {amount}`;
  const mine = `${admin} chain mine {blocks}`;
  const pay = `${admin} chain transfer {address} {amount} {method}`;
  const tool = spawn(
    process.execPath,
    [
      path.join(root, 'scripts/contract/cli.mjs'),
      '--base-url',
      baseUrl,
      '--register',
      '--seed',
      SEED,
      '--runs',
      RUNS,
      '--fund',
      fund,
      '--mine',
      mine,
      '--pay',
      pay,
      '--junit',
      path.join(root, `test-results/contract${onPostgres ? '-postgres' : ''}.xml`),
      ...toolArgs,
    ],
    { cwd: root, stdio: 'inherit', env },
  );
  status = await exitOf(tool);
} catch (error) {
  console.error(`contract: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  server.kill('SIGTERM');
  await exitOf(server);
  await schema?.drop();
  cluster?.stop();
}
if (status === 0) fs.rmSync(dataDir, { recursive: true, force: true });
else console.error(`contract: server data and log kept in ${dataDir} (server.log)`);
process.exit(status);
