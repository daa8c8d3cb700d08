// `npm run test:two-processes`: two built server processes on one PostgreSQL database, requests
// alternating between them, must give the results of one process:
// - a deposit that both see is credited once;
// - 20 concurrent purchases never overspend, and the ledger still sums to the balance;
// - wrong passwords spread over both are braked as if they hit one.
// Starts a throwaway cluster (or uses a fresh schema of TEST_DATABASE_URL) and the built server
// (dist/server); prints each check and exits non-zero when one fails.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildServer, outDir, serverBuildIsStale } from './build-server.mjs';
import { freePort, waitForServer } from './net.mjs';
import { freshSchema, startPgCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * An account's failure budget from one address (LOGIN_ACCOUNT_MAX_FAILURES); every request here
 * comes from 127.0.0.1.
 */
const ACCOUNT_FAILURES = 6;

if (serverBuildIsStale()) await buildServer();
const adminUrl = process.env.TEST_DATABASE_URL;
const cluster = adminUrl ? null : await startPgCluster();
const schema = await freshSchema(adminUrl ?? cluster?.url ?? '');
// One DATA_DIR for both, as processes on one host share it (secret key, development wallet).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-two-'));
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: schema.url,
  NODE_ENV: 'test',
  PORTAL_ROOT: root,
  NODE_PATH: path.join(root, 'node_modules'),
  RATE_LIMIT_MAX: '1000000',
  AUTH_RATE_LIMIT_MAX: '1000000',
  LOGIN_ACCOUNT_MAX_FAILURES: String(ACCOUNT_FAILURES),
  LOGIN_IP_MAX_FAILURES: '1000000',
  LOGIN_LOCK_THRESHOLD: '1000000',
  LOG_LEVEL: 'warn',
};

/** @type {import('node:child_process').ChildProcess[]} */
const servers = [];
/** @type {string[]} */
const bases = [];
let failures = 0;

/** @param {boolean} ok @param {string} what */
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}

/**
 * A JSON request to process `i % 2`.
 * @param {number} i @param {string} method @param {string} route
 * @param {{ body?: unknown, token?: string }} [options]
 * @returns {Promise<{ status: number, json: any }>}
 */
async function call(i, method, route, options = {}) {
  const response = await fetch(`${bases[i % 2]}${route}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, json: await response.json() };
}

try {
  for (let i = 0; i < 2; i += 1) {
    const port = await freePort();
    const server = spawn(
      process.execPath,
      ['--enable-source-maps', path.join(outDir, 'main.cjs')],
      {
        cwd: root,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const log = fs.createWriteStream(path.join(dataDir, `server-${i}.log`));
    server.stdout?.pipe(log);
    server.stderr?.pipe(log);
    servers.push(server);
    bases.push(`http://127.0.0.1:${port}/api`);
    // One after the other: the first migrates and seeds the empty schema.
    await waitForServer(`${bases[i]}/countries`, server);
  }

  // A new merchant, signed up through process 0 and signed in through process 1.
  const suffix = randomBytes(4).toString('hex');
  const account = { username: `two_${suffix}`, password: `Two-${suffix}!9`, pin: '2468' };
  const registered = await call(0, 'POST', '/register', {
    body: {
      name: 'Two Processes',
      username: account.username,
      email: `${account.username}@example.com`,
      sponsor_id: '',
      password: account.password,
      spassword: account.pin,
      country: 'IN',
      phone: `91${Date.now() % 1e10}`,
      is_checked: 1,
    },
  });
  if (registered.status !== 200) throw new Error(`register: ${JSON.stringify(registered.json)}`);
  const credentials = { username: account.username, password: account.password };
  const step = await call(1, 'POST', '/pre-login', { body: credentials });
  const login = await call(0, 'POST', '/login', {
    body: { ...credentials, mpin: account.pin },
    token: step.json.token,
  });
  const token = login.json.token;
  if (typeof token !== 'string') throw new Error(`login: ${JSON.stringify(login.json)}`);

  // 68 USDT paid to the merchant's deposit address, then Check Balance on both at once.
  const paid = spawnSync(
    process.execPath,
    [path.join(outDir, 'admin.cjs'), 'deposit', account.username, '68'],
    { cwd: root, env, encoding: 'utf8' },
  );
  if (paid.status !== 0) throw new Error(`admin deposit: ${paid.stdout}${paid.stderr}`);
  const syncs = await Promise.all(
    Array.from({ length: 10 }, (_, i) => call(i, 'GET', '/balance-sync', { token })),
  );
  const credited = syncs.filter((s) => s.json.is_new === true).length;
  check(
    syncs.every((s) => s.status === 200) && credited === 1,
    `a deposit seen by both processes is credited once (10 concurrent checks, ${credited} credited it)`,
  );
  const funded = await call(1, 'GET', '/balance', { token });
  check(
    funded.json.data?.payInBalance === 68,
    `the balance is 68 USDT on both (read: ${funded.json.data?.payInBalance})`,
  );

  // 20 purchases at once, alternating processes and plans. 68 pays Business (49) once; Enterprise
  // (149, or 100 after Business's credit) never fits, and a second Business is the plan in force.
  const plans = ['pkg_business', 'pkg_enterprise'];
  const purchases = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      call(i, 'POST', '/cryptosafelock/purchase', {
        token,
        body: { package_id: plans[Math.floor(i / 2) % 2] },
      }).then((r) => ({ ...r, plan: plans[Math.floor(i / 2) % 2] })),
    ),
  );
  const bought = purchases.filter((p) => p.status === 200);
  const spent = bought.length === 1 && bought[0].plan === 'pkg_business' ? 49 : NaN;
  check(
    purchases.every((p) => [200, 409, 422].includes(p.status)),
    `every purchase answered 200, 409 or 422 (${purchases.map((p) => p.status).join(' ')})`,
  );
  check(
    bought.length === 1 && spent === 49,
    `exactly the one plan 68 USDT pays for was bought (${bought.map((p) => p.plan).join(', ')})`,
  );
  const after = await call(0, 'GET', '/balance', { token });
  check(
    after.json.data?.payInBalance === 68 - spent,
    `the balance is 68 - ${spent} (read: ${after.json.data?.payInBalance})`,
  );

  const db = new pg.Client({ connectionString: schema.url });
  await db.connect();
  try {
    const { rows } = await db.query(
      `select coalesce(sum(case when type = 'credit' then amount_micro else -amount_micro end), 0)::text as net
         from ledger_entries join users on users.id = ledger_entries.user_id
        where users.username = $1`,
      [account.username],
    );
    const net = Number(rows[0]?.net) / 1e6;
    check(net === after.json.data?.payInBalance, `the ledger sums to the balance (${net} USDT)`);
    const jobs = await db.query(`select count(*)::int as n from jobs where kind = 'gas.provision'`);
    check(jobs.rows[0]?.n === 1, 'both processes share one recurring gas job');
  } finally {
    await db.end();
  }

  // Wrong passwords, 2 × the budget, at once and alternating: braked as on one process.
  const wrong = await Promise.all(
    Array.from({ length: 2 * ACCOUNT_FAILURES }, (_, i) =>
      call(i, 'POST', '/pre-login', {
        body: { username: account.username, password: 'Wrong-pass!1' },
      }),
    ),
  );
  const refused = wrong.filter((w) => w.status === 422).length;
  const braked = wrong.filter((w) => w.status === 429).length;
  check(
    refused === ACCOUNT_FAILURES && braked === ACCOUNT_FAILURES,
    `${2 * ACCOUNT_FAILURES} wrong passwords over both: ${refused} refused, ${braked} braked (budget ${ACCOUNT_FAILURES})`,
  );
  const right = await call(1, 'POST', '/pre-login', { body: credentials });
  check(right.status === 429, 'the braked account stays braked on the other process too');
} catch (error) {
  failures += 1;
  console.error(`two-processes: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  for (const server of servers) server.kill('SIGTERM');
  await Promise.all(
    servers.map((s) => (s.exitCode !== null ? null : new Promise((r) => s.once('exit', r)))),
  );
  await schema.drop();
  cluster?.stop();
}
if (failures === 0) fs.rmSync(dataDir, { recursive: true, force: true });
else console.error(`two-processes: ${failures} failed; server logs kept in ${dataDir}`);
process.exit(failures === 0 ? 0 : 1);
