// `npm run bench:api`: how fast the built server answers the reads users feel, next to a bare
// Fastify that answers the same bytes, measured in the same run (issue 18). A benchmark, not a
// test: it prints figures, and fails only when the figures are invalid (a non-2xx answer, e.g. a
// 429 from the limiter, or a socket error), never because a target is missed.
//
// For each engine it starts the built server (dist/server, built when stale) production-like with
// a fresh DATA_DIR, in as many processes on one port as `npm start` runs (PROCESSES=auto: one per
// core; server/src/cluster.ts): SQLite, then PostgreSQL (a throwaway cluster, or a fresh schema of
// TEST_DATABASE_URL). It signs in the demo account, records each route's exact answer (status,
// headers, body bytes), starts a bare Fastify (scripts/bench-bare.mjs) with as many processes on
// one port that replays them, then runs autocannon against ours and right after against the bare
// one (and the other way round, in turns, --rounds times), route by route, and prints a table
// with the median ratio ours/bare and the targets.
//
//   npm run bench:api -- [--duration <seconds>] [--rounds <n>] [--engine sqlite|postgres|both]
//     [--route <part of a route's name>] [--cpu-prof <dir>] [--processes <n>]
// --route measures only the routes whose name contains it; --cpu-prof writes a V8 CPU profile of
// each of our server processes into <dir> when it stops (node --cpu-prof), to profile, not guess;
// --processes runs n processes a side instead of one per core (e.g. 1, to measure one process).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HDKey } from '@scure/bip32';
import autocannon from 'autocannon';
import { buildServer, outDir, serverBuildIsStale } from './build-server.mjs';
import { freePort, waitForServer } from './net.mjs';
import { freshSchema, startPgCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 10;
/** Seconds of load before each measured run, so neither side is measured while still warming up. */
const WARMUP_SECONDS = 1;
/** Issue 18: ours must reach at least this share of the bare Fastify's req/s. */
const TARGET = { authenticated: 0.5, public: 0.7 };
const DEMO = { username: 'demo', password: 'Demo@12345', mpin: '1234' };
/** Not replayed by the bare server: per-connection or set by Fastify itself for every answer. */
const UNREPLAYED_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * @typedef {'sqlite' | 'postgres'} Engine
 * @typedef {{ reqPerSec: number, p50: number, p99: number, non2xx: number, errors: number, cpuMicros: number | null }} Figures
 *   `cpuMicros`: the CPU (user + system) the measured processes used per request, warm-up
 *   included, in µs; null where /proc is missing. Less moved by the machine's drift than req/s.
 * @typedef {{ engine: string, route: string, ours: Figures, bare: Figures, ratio: number, ratios: number[], target: number | null, untargeted?: string }} Row
 * @typedef {{ name: string, method: 'GET' | 'POST', path: string, public: boolean, headers: Record<string, string>, nextBody?: () => string, untargeted?: string }} Route
 *   `untargeted`: why the route is measured for information, with no target.
 * @typedef {{ engine: string, route: string, rows: number, alone: Figures, loaded: Figures }} LargeRow
 */

/**
 * Issue 18, large data: with a million rows, these reads answer within these latencies. Judged on
 * one connection, one request at a time: the time a request takes to answer, not how long it
 * queues behind 9 others (10 connections are measured and printed too; their p50 is about 10 ×
 * the time a request takes, so it measures throughput, which the ratios above judge).
 */
const LARGE_TARGET = { p50: 5, p99: 20 };

/**
 * Runs an admin command (dist/server/admin.cjs) on the engine's database, its output shown
 * indented; throws unless it exits 0.
 * @param {string[]} args @param {NodeJS.ProcessEnv} env
 */
function admin(args, env) {
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

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'both' },
    'large-rows': { type: 'string', default: '1000000' },
    route: { type: 'string', default: '' },
    'cpu-prof': { type: 'string' },
    processes: { type: 'string', default: String(os.availableParallelism()) },
  },
});
const duration = Number(flags.duration);
if (!Number.isInteger(duration) || duration < 1) {
  throw new Error(`--duration takes whole seconds (1 or more), got '${flags.duration}'`);
}
const rounds = Number(flags.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  throw new Error(`--rounds takes a whole number (1 or more), got '${flags.rounds}'`);
}
const processes = Number(flags.processes);
if (!Number.isInteger(processes) || processes < 1) {
  throw new Error(`--processes takes a whole number (1 or more), got '${flags.processes}'`);
}
const largeRows = Number(flags['large-rows']);
if (!Number.isSafeInteger(largeRows) || largeRows < 0) {
  throw new Error(
    `--large-rows takes a whole number (0 skips the step), got '${flags['large-rows']}'`,
  );
}
/** @type {Engine[]} */
let engines;
if (flags.engine === 'both') engines = ['sqlite', 'postgres'];
else if (flags.engine === 'sqlite' || flags.engine === 'postgres') engines = [flags.engine];
else throw new Error(`--engine takes sqlite, postgres or both, got '${flags.engine}'`);

/** Server processes still running (ours and bare), stopped on any exit. */
const children = new Set(/** @type {import('node:child_process').ChildProcess[]} */ ([]));
/** Temporary directories removed on exit (a failed engine's is kept for its logs). */
const tempDirs = new Set(/** @type {string[]} */ ([]));
/** The PostgreSQL schema in use, dropped on an interrupt when it lives on TEST_DATABASE_URL. */
let liveSchema = /** @type {{ drop: () => Promise<void> } | null} */ (null);

process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
// Registered before startPgCluster's own handlers, so the servers are told to stop before the
// throwaway cluster goes away (that handler then stops it and exits).
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
async function startProcess(args, env, logFile, readyUrl, ready) {
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
async function stopProcesses(list) {
  for (const child of list) child.kill('SIGTERM');
  await Promise.all(list.map(exitOf));
}

/**
 * A request whose answer is kept as raw bytes: node:http neither adds an accept-encoding header nor
 * decodes a compressed body, unlike fetch, so the bytes are those autocannon's requests get.
 * @param {string} url @param {Record<string, string>} headers
 * @param {{ method?: 'GET' | 'POST', body?: string }} [request]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }>}
 */
function rawRequest(url, headers, { method = 'GET', body } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent: false }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A JSON call of the set-up (sign-in, the gateway app and its key).
 * @param {string} url @param {{ body: unknown, token?: string, cookie: string }} options
 * @returns {Promise<Record<string, any>>}
 */
async function postJson(url, { body, token, cookie }) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = /** @type {Record<string, any>} */ (await response.json());
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Signs in the demo account (preLogin, then login with the pin) and returns the headers every
 * measured request carries. A browser carries the XSRF-TOKEN cookie the first answer set, so the
 * requests do too (without it the server sets a new cookie on every answer). No accept-encoding:
 * autocannon sends none by default, so both servers answer uncompressed, as in issue 18's figures.
 * @param {string} base
 * @returns {Promise<{ public: Record<string, string>, authenticated: Record<string, string> }>}
 */
async function signIn(base) {
  const first = await rawRequest(`${base}/countries`, {});
  const xsrf = [first.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('XSRF-TOKEN='));
  if (!xsrf) throw new Error('GET /api/countries set no XSRF-TOKEN cookie');
  const credentials = { username: DEMO.username, password: DEMO.password };
  const step = await postJson(`${base}/pre-login`, { body: credentials, cookie: xsrf });
  if (typeof step.token !== 'string') throw new Error('pre-login gave no step token');
  const session = await postJson(`${base}/login`, {
    body: { ...credentials, mpin: DEMO.mpin },
    token: step.token,
    cookie: xsrf,
  });
  if (typeof session.token !== 'string') throw new Error('login gave no session token');
  return {
    public: { cookie: xsrf },
    authenticated: { cookie: xsrf, authorization: `Bearer ${session.token}` },
  };
}

/** Deposits the gateway app holds while GET /deposits is measured (one page of the default 25). */
const BENCH_DEPOSITS = 25;

/**
 * The gateway routes use the demo's app (its package allows one app), with loopback added to its
 * IP whitelist so the check still runs on every request; a key for accounts and deposits, and
 * BENCH_DEPOSITS test deposits that the server's watcher has recorded, so GET /deposits answers a
 * full page.
 * @param {string} api @param {{ authenticated: Record<string, string> }} headers
 * @param {Record<string, any>} app the demo app as get-apps lists it
 * @returns {Promise<string>} the key
 */
async function gatewayKey(api, headers, app) {
  const token = headers.authenticated.authorization?.slice('Bearer '.length) ?? '';
  const cookie = headers.authenticated.cookie ?? '';
  const call = (/** @type {string} */ route, /** @type {unknown} */ body) =>
    postJson(`${api}${route}`, { body, token, cookie });
  const appId = app.id;
  await call('/cryptosafelock/update-app', {
    app_id: appId,
    app_name: app.app_name,
    project_url: app.project_url,
    whitelist_ip: `${app.whitelist_ip ?? ''}\n127.0.0.1`.trim(),
    status: app.status,
  });
  const generated = await call('/cryptosafelock/generate-apikey', {
    token_name: 'Bench',
    app_id: appId,
    abilities: ['accounts:write', 'deposits:read'],
  });
  const key = generated.token;
  if (typeof key !== 'string') throw new Error('generate-apikey gave no key');
  const gateway = `${api.slice(0, -'/api'.length)}/gateway/v1`;
  for (let i = 0; i < BENCH_DEPOSITS; i += 1) {
    const opened = await postJson(`${gateway}/accounts`, {
      body: { unique_id: `paid-${i}`, method: 'USDT-BEP20' },
      token: key,
      cookie: '',
    });
    if (typeof opened.address !== 'string') throw new Error('POST /accounts gave no address');
  }
  const details = await rawRequest(
    `${api}/cryptosafelock/app-details/${appId}`,
    headers.authenticated,
  );
  /** @type {{ data: { accounts: { data: { id: string }[] } } }} */
  const detail = JSON.parse(details.body.toString('utf8'));
  // The first page of accounts holds 10; the deposits go to those, round-robin.
  const accounts = detail.data.accounts.data;
  for (let i = 0; i < BENCH_DEPOSITS; i += 1) {
    await call('/cryptosafelock/test-deposit', {
      account_id: accounts[i % accounts.length]?.id,
      method: 'USDT-BEP20',
      amount: `${10 + i}.5`,
    });
  }
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await rawRequest(`${gateway}/deposits`, { authorization: `Bearer ${key}` });
    const seen = JSON.parse(page.body.toString('utf8')).data?.length ?? 0;
    if (seen >= BENCH_DEPOSITS) return key;
    if (Date.now() > deadline) throw new Error(`the watcher recorded ${seen} of ${BENCH_DEPOSITS}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * The process and, when it is a primary of several (cluster), the workers it started.
 * @param {number | undefined} pid @returns {number[]}
 */
function withWorkers(pid) {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return [Number(pid), ...(children ? children.split(/\s+/).map(Number) : [])];
}

/**
 * CPU time (user + system) a server and its workers have used, in clock ticks; null without
 * /proc.
 * @param {import('node:child_process').ChildProcess} server
 */
function cpuTicks(server) {
  try {
    return withWorkers(server.pid).reduce((total, pid) => {
      // Fields after the command name, which ends with ') ': utime and stime are the 12th and
      // 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
      return total + Number(fields?.[11]) + Number(fields?.[12]);
    }, 0);
  } catch {
    return null;
  }
}

/**
 * A server under test: where it answers, and its process (a primary of several, or alone).
 * @typedef {{ origin: string, server: import('node:child_process').ChildProcess }} Side
 */

/**
 * Load on `route` of `side` for `duration` seconds, counting the CPU of the side's processes.
 * @param {Side} side @param {Record<string, string>} headers @param {Route} route
 * @returns {Promise<Figures>}
 */
async function measure(side, headers, route, connections = CONNECTIONS) {
  const before = cpuTicks(side.server);
  const result = await autocannon({
    url: `${side.origin}${route.path}`,
    connections,
    duration,
    headers,
    method: route.method,
    // A POST body per request (each creates its own account); GETs send none.
    ...(route.nextBody ? { requests: [{ setupRequest: withBody(route.nextBody) }] } : {}),
    warmup: { connections, duration: WARMUP_SECONDS },
  });
  const runs = [result, ...(result.warmup ? [result.warmup] : [])];
  const after = cpuTicks(side.server);
  const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
  return {
    cpuMicros:
      before === null || after === null || requests === 0
        ? null
        : ((after - before) / CLOCK_TICKS / requests) * 1e6,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
  };
}

/**
 * @param {() => string} nextBody
 * @returns {(request: Record<string, unknown>) => Record<string, unknown>}
 */
const withBody = (nextBody) => (request) => ({ ...request, body: nextBody() });

/** @param {number} n */
const reqs = (n) => Math.round(n).toLocaleString('en-US');
/** autocannon's latency histogram counts whole milliseconds: 0 is under one. @param {number} ms */
const millis = (ms) => (ms < 1 ? '< 1 ms' : `${Number(ms.toFixed(2))} ms`);
/** Two decimals, three below 0.1, so a tiny ratio does not print as 0. @param {number} ratio */
const fraction = (ratio) => ratio.toFixed(ratio < 0.1 ? 3 : 2);
/** @param {Figures} f */
const describe = (f) =>
  `${reqs(f.reqPerSec)} req/s, p50 ${millis(f.p50)}, p99 ${millis(f.p99)}, non-2xx ${f.non2xx}` +
  (f.cpuMicros === null ? '' : `, CPU ${f.cpuMicros.toFixed(1)} µs/request`) +
  (f.errors > 0 ? `, errors ${f.errors}` : '');

/** Production-like, except the limits that would answer 429 to a benchmark's one client IP. */
function serverEnv(/** @type {string} */ dataDir, /** @type {string | undefined} */ databaseUrl) {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    // Production refuses to generate a wallet key; a throwaway account xpub (its seed is dropped).
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
    LOG_LEVEL: 'warn',
  };
}

/**
 * Starts ours on `engine`, records the routes, starts the bare replay, measures every route.
 * @param {Engine} engine @returns {Promise<Row[]>}
 */
async function benchEngine(engine) {
  // Our processes share one port, as `npm start` runs them; so do the bare ones. One autocannon
  // run keeps one latency histogram, which two runs' p50/p99 could not be summed into.
  const label = `${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${processes} process${processes === 1 ? '' : 'es'}`;
  console.log(`\n== ${label}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${engine}-`));
  tempDirs.add(dataDir);
  const cluster = engine === 'postgres' ? await startPgCluster() : null;
  const schema = cluster ? await freshSchema(cluster.url) : null;
  liveSchema = schema;
  /** @type {import('node:child_process').ChildProcess[]} */
  const started = [];
  try {
    const env = serverEnv(dataDir, schema?.url);
    /**
     * Starts ours (the API under /api, the gateway under /gateway/v1).
     * @param {Record<string, string>} extraEnv @returns {Promise<Side>}
     */
    const startOurs = async (extraEnv = {}) => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const server = await startProcess(
        [
          '--enable-source-maps',
          ...(flags['cpu-prof']
            ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(flags['cpu-prof'])}`]
            : []),
          path.join(outDir, 'main.cjs'),
        ],
        { ...env, ...extraEnv, PORT: String(port), PROCESSES: String(processes) },
        path.join(dataDir, 'server.log'),
        `${origin}/api/countries`,
        'Portal listening on',
      );
      started.push(server);
      return { origin, server };
    };
    const ours = await startOurs();
    const api = `${ours.origin}/api`;
    const headers = await signIn(api);

    const apps = await rawRequest(`${api}/cryptosafelock/get-apps`, headers.authenticated);
    /** @type {{ data?: Record<string, any>[] }} */
    const list = JSON.parse(apps.body.toString('utf8'));
    const demoApp = list.data?.[0];
    const appId = demoApp?.id;
    if (typeof appId !== 'string') throw new Error(`get-apps listed no app: ${apps.body}`);
    const key = await gatewayKey(api, headers, demoApp ?? {});
    const gatewayHeaders = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let account = 0;
    /** @type {Route[]} */
    const routes = [
      { name: 'GET /api/dashboard', path: '/api/dashboard', public: false },
      {
        name: 'GET /api/cryptosafelock/get-apps',
        path: '/api/cryptosafelock/get-apps',
        public: false,
      },
      {
        name: 'GET /api/cryptosafelock/app-details/{id}',
        path: `/api/cryptosafelock/app-details/${appId}`,
        public: false,
      },
      { name: 'GET /api/countries', path: '/api/countries', public: true },
    ].map((route) => ({
      ...route,
      method: /** @type {const} */ ('GET'),
      headers: route.public ? headers.public : headers.authenticated,
    }));
    routes.push(
      {
        name: 'GET /gateway/v1/deposits',
        method: 'GET',
        path: '/gateway/v1/deposits',
        public: false,
        headers: { authorization: gatewayHeaders.authorization },
      },
      {
        // The same page as merchants' HTTP clients ask for it: fetch, axios and browsers send
        // Accept-Encoding by default (Go's and Python's clients too, with gzip). Issue 18's
        // figures and targets are for answers without compression, which the row above judges;
        // here the bare server sends a fifth of the bytes for the same per-request work of ours.
        name: 'GET /gateway/v1/deposits (br)',
        method: 'GET',
        path: '/gateway/v1/deposits',
        public: false,
        untargeted: 'compressed',
        headers: {
          authorization: gatewayHeaders.authorization,
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      {
        // Each request a new customer: the write path (derivation lock, insert), not a replay.
        name: 'POST /gateway/v1/accounts',
        method: 'POST',
        path: '/gateway/v1/accounts',
        public: false,
        headers: gatewayHeaders,
        untargeted: 'a write',
        nextBody: () =>
          JSON.stringify({ unique_id: `bench-${(account += 1)}`, method: 'USDT-BEP20' }),
      },
    );

    /** @type {import('./bench-bare.mjs').RecordedAnswer[]} */
    const answers = [];
    /** @type {Map<string, number>} */
    const sizes = new Map();
    for (const route of routes) {
      const answer = await rawRequest(`${ours.origin}${route.path}`, route.headers, {
        method: route.method,
        body: route.nextBody?.(),
      });
      if (answer.status < 200 || answer.status > 299) {
        throw new Error(`${route.name} answered ${answer.status}: ${answer.body}`);
      }
      /** @type {Record<string, string | string[]>} */
      const replayed = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !UNREPLAYED_HEADERS.has(name)) replayed[name] = value;
      }
      answers.push({
        method: route.method,
        url: route.path,
        acceptEncoding: route.headers['accept-encoding'],
        status: answer.status,
        headers: replayed,
        body: answer.body.toString('base64'),
      });
      sizes.set(route.name, answer.body.length);
    }
    const answersFile = path.join(dataDir, 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify(answers));
    // As many bare processes as ours, sharing one port the same way: same cores, same split.
    const barePort = await freePort();
    const bareChild = await startProcess(
      [path.join(root, 'scripts/bench-bare.mjs'), answersFile, String(barePort), String(processes)],
      process.env,
      path.join(dataDir, 'bare.log'),
      `http://127.0.0.1:${barePort}/api/countries`,
      'Bare listening',
    );
    started.push(bareChild);
    /** @type {Side} */
    const bare = { origin: `http://127.0.0.1:${barePort}`, server: bareChild };
    // The comparison holds only if the bare processes give the very answers ours gave.
    for (const [i, answer] of answers.entries()) {
      const route = routes[i];
      const replay = await rawRequest(`${bare.origin}${answer.url}`, route?.headers ?? {}, {
        method: answer.method,
        body: route?.nextBody?.(),
      });
      const same =
        replay.status === answer.status &&
        replay.body.toString('base64') === answer.body &&
        Object.entries(answer.headers).every(
          ([name, value]) => String(replay.headers[name]) === String(value),
        );
      if (!same) throw new Error(`the bare server does not replay ${answer.url} exactly`);
    }

    /** @type {Row[]} */
    const rows = [];
    for (const route of routes.filter((r) => r.name.includes(flags.route))) {
      const size = sizes.get(route.name) ?? 0;
      const name = `${route.name} (${size < 10_000 ? `${size} B` : `${Math.round(size / 1024)} KB`})`;
      // Back to back, so both see the same moment of a busy machine as nearly as can be, in
      // `rounds` pairs taking turns at going first; the row is the pair with the median ratio
      // (this machine's speed drifts by up to 2× within minutes, which a single pair measures).
      /** @type {{ ours: Figures, bare: Figures, ratio: number }[]} */
      const pairs = [];
      const load = (/** @type {Side} */ side) => measure(side, route.headers, route);
      for (let round = 0; round < rounds; round += 1) {
        const oursFirst = round % 2 === 0;
        const firstFigures = await load(oursFirst ? ours : bare);
        const secondFigures = await load(oursFirst ? bare : ours);
        const [oursFigures, bareFigures] = oursFirst
          ? [firstFigures, secondFigures]
          : [secondFigures, firstFigures];
        pairs.push({
          ours: oursFigures,
          bare: bareFigures,
          ratio: oursFigures.reqPerSec / bareFigures.reqPerSec,
        });
      }
      pairs.sort((a, b) => a.ratio - b.ratio);
      const median = pairs[Math.floor(pairs.length / 2)];
      if (!median) throw new Error('no rounds measured');
      const sum = (/** @type {(figures: Figures) => number} */ of) =>
        pairs.reduce((total, pair) => total + of(pair.ours) + of(pair.bare), 0);
      const oursFigures = {
        ...median.ours,
        non2xx: sum((f) => f.non2xx),
        errors: sum((f) => f.errors),
      };
      const bareFigures = median.bare;
      const row = {
        engine: label,
        route: name,
        ours: oursFigures,
        bare: bareFigures,
        ratio: median.ratio,
        ratios: pairs.map((pair) => pair.ratio),
        // Issue 18 sets targets for reads; a write, and the compressed read, are information.
        target: route.untargeted ? null : route.public ? TARGET.public : TARGET.authenticated,
        untargeted: route.untargeted,
      };
      console.log(`${name}\n  ours: ${describe(row.ours)}\n  bare: ${describe(row.bare)}`);
      console.log(
        `  ratio ${fraction(row.ratio)}, the median of ${row.ratios.map(fraction).join(', ')} (${verdictOf(row)})`,
      );
      rows.push(row);
    }
    if (largeRows > 0) {
      large.push(...(await benchLarge()));
    }
    return rows;

    /**
     * Large data: the servers stopped (their watcher would fail the made-up deposits), the
     * demo merchant's year of wallet entries and deposits written by `npm run admin -- bench
     * large-data` (the domain's bulk paths), the servers started again without kept reads, the
     * dashboard and the app detail measured, and the kept counts and daily totals compared with
     * the rows.
     * @returns {Promise<LargeRow[]>}
     */
    async function benchLarge() {
      console.log(`\n== ${label}: large data, ${reqs(largeRows)} wallet entries and deposits`);
      await stopProcesses([ours.server]);
      const seedStart = Date.now();
      // get-apps' demo app had its Webhook URl cleared by gatewayKey (update-app without one).
      await admin(['bench', 'large-data', DEMO.username, String(largeRows)], env);
      console.log(`  written in ${Math.round((Date.now() - seedStart) / 1000)} s`);
      // Without kept reads: what a read costs that the database answers (the first after a
      // change); kept, a repeated read never reaches the million rows.
      const uncached = await startOurs({ KEPT_READS: 'off' });
      const signedIn = await signIn(`${uncached.origin}/api`);
      /** @type {LargeRow[]} */
      const measured = [];
      const largeRoutes = routes.filter(
        (route) =>
          route.name === 'GET /api/dashboard' ||
          route.name === 'GET /api/cryptosafelock/app-details/{id}',
      );
      for (const route of largeRoutes) {
        const answer = await rawRequest(`${uncached.origin}${route.path}`, signedIn.authenticated);
        if (answer.status !== 200) throw new Error(`${route.name} answered ${answer.status}`);
        const alone = await measure(uncached, signedIn.authenticated, route, 1);
        const loaded = await measure(uncached, signedIn.authenticated, route);
        console.log(
          `${route.name} (${answer.body.length} B)\n  1 connection: ${describe(alone)}` +
            `\n  ${CONNECTIONS} connections: ${describe(loaded)}`,
        );
        measured.push({ engine: label, route: route.name, rows: largeRows, alone, loaded });
      }
      console.log('  kept counts and daily totals against the rows (COUNT(*), derived):');
      await admin(['bench', 'check', DEMO.username], env);
      return measured;
    }
  } catch (error) {
    tempDirs.delete(dataDir);
    console.error(`bench:api: server logs kept in ${dataDir}`);
    throw error;
  } finally {
    await stopProcesses(started);
    liveSchema = null;
    await schema?.drop();
    cluster?.stop();
  }
}

/** Failed answers, or none at all in the run (a histogram of nothing reads 0 ms). */
const isLargeInvalid = (/** @type {LargeRow} */ row) =>
  [row.alone, row.loaded].some((f) => f.non2xx + f.errors > 0 || f.reqPerSec === 0);

/** @param {LargeRow[]} list */
function printLargeTable(list) {
  if (list.length === 0) return;
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`;
  const head = ['engine', 'route', 'rows', '1 conn. req/s', 'p50', 'p99'];
  head.push(`${CONNECTIONS} conn. req/s`, 'p50', 'p99', 'non-2xx', 'target (1 connection)');
  console.log(`\n${line(head)}`);
  console.log(line(head.map(() => '---')));
  for (const row of list) {
    const { alone, loaded } = row;
    const met = alone.p50 <= LARGE_TARGET.p50 && alone.p99 <= LARGE_TARGET.p99;
    const verdict = isLargeInvalid(row) ? 'invalid' : met ? 'met' : 'not met';
    console.log(
      line([
        row.engine,
        row.route,
        reqs(row.rows),
        ...[alone, loaded].flatMap((f) => [reqs(f.reqPerSec), millis(f.p50), millis(f.p99)]),
        String(alone.non2xx + loaded.non2xx),
        `p50 ≤ ${LARGE_TARGET.p50} ms, p99 ≤ ${LARGE_TARGET.p99} ms: ${verdict}`,
      ]),
    );
  }
}

/** A 429 or a failed request is answered faster than a real one: such a row proves nothing. */
const isInvalid = (/** @type {Row} */ row) =>
  row.ours.non2xx + row.ours.errors + row.bare.non2xx + row.bare.errors > 0;

/** @param {Row} row */
function verdictOf(row) {
  if (row.target === null) return isInvalid(row) ? 'invalid' : `none (${row.untargeted})`;
  const met = row.ratio >= row.target ? 'met' : 'not met';
  return `≥ ${row.target}: ${isInvalid(row) ? 'invalid' : met}`;
}

/** @param {Row[]} rows */
function printTable(rows) {
  const table = [
    ['engine', 'route', 'ours req/s', 'p50', 'p99', 'non-2xx', 'bare req/s', 'ratio', 'target'],
    ...rows.map((row) => [
      row.engine,
      row.route,
      reqs(row.ours.reqPerSec),
      millis(row.ours.p50),
      millis(row.ours.p99),
      String(row.ours.non2xx),
      reqs(row.bare.reqPerSec),
      fraction(row.ratio),
      verdictOf(row),
    ]),
  ];
  const line = (/** @type {string[]} */ cells) => `| ${cells.join(' | ')} |`;
  console.log(`\n${line(table[0] ?? [])}`);
  console.log(line((table[0] ?? []).map(() => '---')));
  for (const cells of table.slice(1)) console.log(line(cells));
}

if (serverBuildIsStale()) await buildServer();
console.log(
  `bench:api: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${duration} s per run, ` +
    `${rounds} rounds per route; ` +
    `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
);
/** @type {Row[]} */
const rows = [];
/** @type {LargeRow[]} */
const large = [];
let failed = false;
for (const engine of engines) {
  try {
    rows.push(...(await benchEngine(engine)));
  } catch (error) {
    failed = true;
    console.error(
      `bench:api: ${engine}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
printTable(rows);
printLargeTable(large);
const invalid = [
  ...rows.filter(isInvalid),
  ...large
    .filter(isLargeInvalid)
    .map((row) => ({ engine: row.engine, route: `${row.route} (large data)` })),
];
if (invalid.length > 0) {
  console.error(
    `bench:api: INVALID figures, some answers were not 2xx or failed: ${invalid
      .map((row) => `${row.engine} ${row.route}`)
      .join('; ')}`,
  );
}
process.exit(failed || invalid.length > 0 ? 1 : 0);
