// `npm run bench:watcher`: what one pass of the deposit watcher costs per block range with 1,000,
// 100,000 and 1,000,000 watched deposit addresses on a busy chain, and the ratio of the largest
// case to the smallest. A benchmark, not a test: it prints figures, and fails only when a pass
// finds other deposits than the chain holds, never because a target is missed.
//
// The chain is a JSON-RPC stand-in on loopback in a child process (scripts/bench/watcher-chain.mjs
// over server/test/chain/logReplay.ts): every block holds --transfers USDT Transfer logs and
// --native BNB transfers to random recipients, and every tenth block pays one of three watched
// addresses in each; it refuses a log query of more than 10,000 results, as Infura does. The
// database is a SQLite file in a temporary directory, migrated, with the deposit accounts of one
// app added in bulk (one INSERT ... SELECT per case). The watcher's own code runs in this process
// (node --import tsx, from server/src): for each case, a fresh provider pool and cursor, one
// warm-up pass (the pool learns the widest log range the stand-in answers), then --passes passes
// of --blocks blocks each, the same blocks in every case. Per pass it counts the JSON-RPC calls the
// stand-in answered (each call of a batch counted), the database queries (Kysely's log hook) and
// the process's CPU time (process.cpuUsage: the watcher, Kysely and SQLite, which runs in-process),
// and prints the medians per block range.
//
//   npm run bench:watcher -- [--addresses 1000,100000,1000000] [--blocks <n>] [--passes <n>]
//     [--transfers <per block>] [--native <per block>]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDb } from '../server/src/db/connection.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { NEW_ACCOUNT_BLANKS } from '../server/src/domain/account/auth.ts';
import { EvmChainAdapter } from '../server/src/domain/chain/evmAdapter.ts';
import { PAYMENT_METHODS } from '../server/src/domain/chain/paymentMethods.ts';
import { closeProviderPools } from '../server/src/domain/chain/rpc.ts';
import { scanChain, watchedMethods } from '../server/src/domain/payments/depositScan.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '1000,100000,1000000' },
    blocks: { type: 'string', default: '100' },
    passes: { type: 'string', default: '5' },
    transfers: { type: 'string', default: '300' },
    native: { type: 'string', default: '100' },
  },
});
const CASES = values.addresses.split(',').map(Number);
const BLOCKS = Number(values.blocks);
const PASSES = Number(values.passes);
const CHAIN_ID = 56;
/** The stand-in's USDT: any contract, the adapter reads it in the spec's USDT's place. */
const TOKEN = '0x00000000000000000000000000000000000a11CE';
const APP_ID = 'app_bench_watcher';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Account n's address: digits only, so its EIP-55 form (the stored one) is itself. */
const addressOf = (/** @type {number} */ n) => `0x${String(n).padStart(40, '0')}`;
const median = (/** @type {number[]} */ xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const chain = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    path.join(root, 'scripts/bench/watcher-chain.mjs'),
    JSON.stringify({
      chainId: CHAIN_ID,
      token: TOKEN,
      transfersPerBlock: Number(values.transfers),
      nativePerBlock: Number(values.native),
      head: BLOCKS,
    }),
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-watcher-'));
process.on('exit', () => {
  chain.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});
if (!chain.stdout) throw new Error('The stand-in chain has no stdout');
const url = await new Promise((resolve, reject) => {
  chain.once('exit', (code) => reject(new Error(`The stand-in chain exited (${code})`)));
  createInterface({ input: chain.stdout }).once('line', resolve);
});

/** A call to the stand-in outside the watcher (steering it, reading its counts). */
async function control(/** @type {string} */ method, /** @type {unknown[]} */ params = []) {
  const response = await fetch(String(url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = /** @type {{ result?: unknown, error?: { message: string } }} */ (
    await response.json()
  );
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
/** The watcher's calls answered so far, by method. */
async function rpcCalls() {
  const counts = /** @type {Record<string, number>} */ (await control('replay_calls'));
  return Object.fromEntries(Object.entries(counts).filter(([m]) => !m.startsWith('replay_')));
}

let queries = 0;
const db = openDb(
  { dataDir },
  {
    log: (event) => {
      if (event.level === 'query') queries += 1;
    },
  },
);
await migrateToLatest(db);
const now = new Date().toISOString();
await db
  .insertInto('payment_methods')
  .values([...PAYMENT_METHODS])
  .execute();
await db.insertInto('countries').values({ id: 'FR', name: 'France', calling_code: '33' }).execute();
await db
  .insertInto('users')
  .values({
    id: 'usr_bench_watcher',
    username: 'bench_watcher',
    email: 'bench_watcher@example.com',
    name: 'Bench Merchant',
    password_hash: 'x',
    pin_hash: 'x',
    sponsor_id: null,
    ...NEW_ACCOUNT_BLANKS,
    phone: '+33612345678',
    country: 'FR',
    created_at: now,
  })
  .execute();
await db
  .insertInto('apps')
  .values({
    id: APP_ID,
    user_id: 'usr_bench_watcher',
    app_name: 'Bench',
    info: null,
    project_url: 'https://example.com',
    whitelist_ip: null,
    callback_url: null,
    created_at: now,
    updated_at: now,
  })
  .execute();

/** Adds deposit accounts first..last of the app on the chain, in one statement. */
async function addAccounts(/** @type {number} */ first, /** @type {number} */ last) {
  await sql`with recursive n(i) as (select ${first} union all select i + 1 from n where i < ${last})
    insert into app_accounts
      (id, app_id, payment_method_id, unique_id, address, created_at, chain_id, derivation_index)
    select 'acc_' || i, ${APP_ID}, 'pm_usdt_bsc', 'customer-' || i, '0x' || printf('%040d', i),
      ${now}, ${CHAIN_ID}, i
    from n`.execute(db);
}

/** One pass of the watcher over the next BLOCKS blocks, measured. */
async function pass(/** @type {EvmChainAdapter} */ adapter, /** @type {number} */ head) {
  await control('replay_setHead', [head]);
  const rpcBefore = await rpcCalls();
  const queriesBefore = queries;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const methods = await watchedMethods(db, adapter);
  const scan = await scanChain(db, adapter, methods, new Date());
  await scan.advance();
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  const rpcAfter = await rpcCalls();
  /** @type {Record<string, number>} */
  const rpc = {};
  for (const [method, n] of Object.entries(rpcAfter)) {
    const delta = n - (rpcBefore[method] ?? 0);
    if (delta > 0) rpc[method] = delta;
  }
  return {
    rpc,
    rpcTotal: Object.values(rpc).reduce((a, b) => a + b, 0),
    queries: queries - queriesBefore,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs,
    found: scan.found.length,
  };
}

console.log(
  `bench:watcher: ${BLOCKS} blocks a range, ${values.transfers} USDT transfers and ` +
    `${values.native} BNB transfers a block, ${PASSES} passes a case (medians)`,
);
/** @type {{ addresses: number, rpcTotal: number, rpc: Record<string, number>, queries: number, cpuMs: number, wallMs: number, fillS: number }[]} */
const rows = [];
let filled = 0;
let failed = false;
for (const addresses of CASES) {
  const fillStarted = performance.now();
  if (addresses > filled) await addAccounts(filled + 1, addresses);
  filled = Math.max(filled, addresses);
  const fillS = (performance.now() - fillStarted) / 1000;
  // Every tenth block pays the first, middle and last account in turn (USDT, then BNB next block).
  await control(
    'replay_setDeposits',
    [1, Math.ceil(addresses / 2), addresses].map((n) => addressOf(n)),
  );
  closeProviderPools();
  await db.deleteFrom('watch_cursors').where('chain_id', '=', CHAIN_ID).execute();
  const adapter = new EvmChainAdapter({ rpcUrl: String(url), tokenAddress: TOKEN, chainId: 56 });
  await pass(adapter, BLOCKS); // warm-up: the first blocks, the cursor set
  const passes = [];
  for (let i = 1; i <= PASSES; i += 1) passes.push(await pass(adapter, BLOCKS * (i + 1)));
  // Blocks n*10 (USDT) and n*10+1 (BNB) pay a watched address: two a ten blocks.
  const expected = Math.floor(BLOCKS / 10) * 2;
  const wrong = passes.find((p) => p.found !== expected);
  if (wrong) {
    failed = true;
    console.error(`bench:watcher: ${addresses} addresses: found ${wrong.found}, not ${expected}`);
  }
  const rpc = /** @type {Record<string, number>} */ ({});
  for (const method of new Set(passes.flatMap((p) => Object.keys(p.rpc)))) {
    rpc[method] = median(passes.map((p) => p.rpc[method] ?? 0));
  }
  const row = {
    addresses,
    rpcTotal: median(passes.map((p) => p.rpcTotal)),
    rpc,
    queries: median(passes.map((p) => p.queries)),
    cpuMs: median(passes.map((p) => p.cpuMs)),
    wallMs: median(passes.map((p) => p.wallMs)),
    fillS,
  };
  rows.push(row);
  console.log(
    `${addresses.toLocaleString('en-US').padStart(10)} addresses: ` +
      `${row.rpcTotal} RPC calls (${Object.entries(rpc)
        .map(([m, n]) => `${m} ${n}`)
        .join(', ')}), ${row.queries} DB queries, CPU ${row.cpuMs.toFixed(0)} ms, ` +
      `wall ${row.wallMs.toFixed(0)} ms per range (accounts added in ${fillS.toFixed(1)} s)`,
  );
}
const first = rows[0];
const last = rows[rows.length - 1];
if (first && last && rows.length > 1) {
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (b === 0 ? 0 : a / b);
  console.log(
    `${last.addresses.toLocaleString('en-US')} / ${first.addresses.toLocaleString('en-US')}: ` +
      `RPC calls x${ratio(last.rpcTotal, first.rpcTotal).toFixed(2)}, ` +
      `DB queries x${ratio(last.queries, first.queries).toFixed(2)}, ` +
      `CPU x${ratio(last.cpuMs, first.cpuMs).toFixed(2)} (target: at most x1.5 in RPC calls and CPU)`,
  );
}
await db.destroy();
closeProviderPools();
process.exit(failed ? 1 : 0);
