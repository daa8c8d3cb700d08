// `npm run test:two-processes`: two built server processes on one database, requests alternating
// between them, must give the results of one process, on PostgreSQL and on SQLite (one file):
// - a deposit that both see is credited once;
// - 20 concurrent purchases never overspend, and the ledger still sums to the balance;
// - wrong passwords spread over both are braked as if they hit one.
// Then PROCESSES=2 on one port (server/src/cluster.ts): both processes answer, every scrape of
// /metrics counts every process's requests, a worker killed with -9 is replaced, and a primary
// killed with -9 takes its workers along.
// Starts a throwaway PostgreSQL cluster (or uses a fresh schema of TEST_DATABASE_URL) and the
// built server (dist/server); prints each check and exits non-zero when one fails.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
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
const cluster = adminUrl ? null : await startPgCluster({ inMemory: true });
const schema = await freshSchema(adminUrl ?? cluster?.url ?? '');
// One DATA_DIR per engine for both processes, as processes on one host share it (secret key,
// development wallet; on SQLite the database file).
const dataDirs = ['postgres', 'sqlite'].map((engine) =>
  fs.mkdtempSync(path.join(os.tmpdir(), `portal-two-${engine}-`)),
);
const baseEnv = {
  ...process.env,
  HOST: '127.0.0.1',
  NODE_ENV: 'test',
  PORTAL_ROOT: root,
  NODE_PATH: path.join(root, 'node_modules'),
  PROCESSES: '1',
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

/**
 * Rows of the first answer of each query, read on the engine `env` names.
 * @param {NodeJS.ProcessEnv} env @param {string[]} queries
 * @returns {Promise<(Record<string, unknown> | undefined)[]>}
 */
async function readDatabase(env, queries) {
  if (!env.DATABASE_URL) {
    const db = new Database(path.join(env.DATA_DIR ?? '', 'portal.sqlite'), { readonly: true });
    try {
      return queries.map(
        (query) => /** @type {Record<string, unknown>} */ (db.prepare(query).get()),
      );
    } finally {
      db.close();
    }
  }
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    return await Promise.all(queries.map(async (query) => (await db.query(query)).rows[0]));
  } finally {
    await db.end();
  }
}

/**
 * The checks of one engine on two processes of their own port.
 * @param {NodeJS.ProcessEnv} env
 */
async function twoProcesses(env) {
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
    const log = fs.createWriteStream(path.join(env.DATA_DIR ?? '', `server-${i}.log`));
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

  const [ledger, gasJobs] = await readDatabase(env, [
    `select coalesce(sum(case when type = 'credit' then amount_micro else -amount_micro end), 0)
       as net from ledger_entries join users on users.id = ledger_entries.user_id
      where users.username = '${account.username}'`,
    `select count(*) as n from jobs where kind = 'gas.provision'`,
  ]);
  const net = Number(ledger?.net) / 1e6;
  check(net === after.json.data?.payInBalance, `the ledger sums to the balance (${net} USDT)`);
  check(Number(gasJobs?.n) === 1, 'both processes share one recurring gas job');

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
}

/** Stops the servers started so far and waits for them to end. */
async function stopServers() {
  for (const server of servers) if (server.exitCode === null) server.kill('SIGTERM');
  await Promise.all(
    servers.map((s) =>
      s.exitCode !== null || s.signalCode !== null ? null : new Promise((r) => s.once('exit', r)),
    ),
  );
  servers.length = 0;
  bases.length = 0;
}

/**
 * A GET on a connection of its own: the primary of PROCESSES hands each new one to the next
 * process.
 * @param {string} url @returns {Promise<string>}
 */
function getOnNewConnection(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(text));
      })
      .on('error', reject);
  });
}

/** Whether `pid` is a process that has not ended (a zombie has). @param {number} pid */
function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The processes `pid` started (its workers). @param {number | undefined} pid @returns {number[]} */
function childrenOf(pid) {
  const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** @param {() => boolean} done @param {number} withinMs */
async function until(done, withinMs) {
  const deadline = Date.now() + withinMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return done();
}

/**
 * PROCESSES=2 on one port, as `npm start` runs on a 2-core machine.
 * @param {NodeJS.ProcessEnv} env
 */
async function onePort(env) {
  const port = await freePort();
  const server = spawn(process.execPath, ['--enable-source-maps', path.join(outDir, 'main.cjs')], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(server);
  let printed = '';
  server.stdout?.on('data', (chunk) => (printed += chunk));
  server.stderr?.on('data', (chunk) => (printed += chunk));
  const log = fs.createWriteStream(path.join(env.DATA_DIR ?? '', 'server-one-port.log'));
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const base = `http://127.0.0.1:${port}`;
  await waitForServer(`${base}/api/countries`, server);
  check(
    await until(
      () => printed.includes(`listening on http://localhost:${port} (2 processes)`),
      30_000,
    ),
    'the primary says once that both processes listen',
  );
  const workers = childrenOf(server.pid);
  check(workers.length === 2, `two server processes under the primary (${workers.join(', ')})`);

  /** Requests to GET /api/countries that a scrape of /metrics counts. */
  const counted = async () => {
    const text = await getOnNewConnection(`${base}/metrics`);
    const line = text
      .split('\n')
      .find((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/countries"'));
    return Number(line?.split(' ').at(-1) ?? 0);
  };
  const before = await counted();
  for (let i = 0; i < 20; i += 1) await getOnNewConnection(`${base}/api/countries`);
  const [first, second] = [await counted(), await counted()];
  check(
    first - before === 20 && second === first,
    `two scrapes, one from each process, both count the 20 requests both answered (${before} → ${first}, ${second})`,
  );

  // A worker that fails is replaced, and the server keeps answering meanwhile.
  const [failed = 0, other = 0] = workers;
  process.kill(failed, 'SIGKILL');
  const replaced = await until(() => {
    const now = childrenOf(server.pid);
    return now.length === 2 && now.includes(other) && !now.includes(failed);
  }, 30_000);
  const answered = await getOnNewConnection(`${base}/api/countries`);
  check(
    replaced && answered.includes('"status":true') && printed.includes('starting another'),
    `a worker killed with -9 is replaced (now ${childrenOf(server.pid).join(', ')})`,
  );
  const current = childrenOf(server.pid);

  server.kill('SIGKILL');
  check(
    await until(() => current.every((pid) => !alive(pid)), 5_000),
    'the primary killed with -9: its workers end too',
  );
}

const engines = [
  {
    name: 'PostgreSQL',
    env: { ...baseEnv, DATA_DIR: dataDirs[0], DATABASE_URL: schema.url },
  },
  { name: 'SQLite', env: { ...baseEnv, DATA_DIR: dataDirs[1], DATABASE_URL: '' } },
];
try {
  for (const { name, env } of engines) {
    console.log(`== ${name}: two processes, each on its own port`);
    try {
      await twoProcesses(env);
    } finally {
      await stopServers();
    }
  }
  console.log('== SQLite: PROCESSES=2 on one port');
  await onePort({ ...baseEnv, DATA_DIR: dataDirs[1], DATABASE_URL: '', PROCESSES: '2' });
} catch (error) {
  failures += 1;
  console.error(`two-processes: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopServers();
  await schema.drop();
  cluster?.stop();
}
if (failures === 0) for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
else console.error(`two-processes: ${failures} failed; server logs kept in ${dataDirs.join(', ')}`);
process.exit(failures === 0 ? 0 : 1);
