// `npm run bench:payments`: how long a payment takes from the chain to the merchant's webhook
// receiver, per stage, on the built server with two processes, on SQLite and on PostgreSQL. A
// benchmark, not a test: it prints figures, and fails only when a payment's webhook never comes
// (or comes before its block), never because a target is missed.
//
// The server runs as `npm start` runs it in production (scripts/bench/servers.mjs), on one of two
// chains, and this process is the chain's network: the built-in local chain mining only on demand
// (LOCAL_BLOCK_MS=0), whose blocks this process writes into the server's database; or a Hardhat
// node standing in for BNB Smart Chain, which the server reads through its EVM adapter
// (CHAIN_RPC_URL, our ERC-20 as USDT). For each payment it makes a USDT (BEP20) transfer to a
// deposit address the gateway gave out, mines the blocks short of the method's confirmations,
// waits a moment (the watcher sees the payment pending, as it would on a real chain), then mines
// the block that gives the last required confirmation and notes the time it was there: t0. A
// receiver on 127.0.0.1 notes when the `deposit.confirmed` webhook for that transfer arrives. Per
// payment:
//   detect    t0 → the watcher pass that saw the block began (the event's created_at);
//   record    → the webhook's delivery began: the pass's reads and writes, its commit (status
//             change and event in one transaction), the wake and claim of the delivery job;
//   deliver   → the receiver has it (the signed POST on loopback);
//   total     t0 → the receiver has it.
// Invoices the same way: `invoice.payment_received` from the block carrying the payment, and
// `invoice.settled` from the block that gives it its last confirmation; and `checkout`, t0 → the
// invoice's checkout page, followed as a browser does (its Server-Sent Events), shows the new
// screen. Then the isolation step (see `isolation`).
//
// Last, the drain (see `drain`): a backlog of --drain webhook events delivered to a healthy
// receiver, each counted by its webhook-id, while the gateway's deposits are read.
//
//   npm run bench:payments -- [--payments <n>] [--engine sqlite|postgres|both]
//     [--chain local|hardhat|both] [--processes <n>] [--drain <events>, 0 for none]
//     [--cpu-prof <dir>]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { parseUnits } from 'viem';
import { buildServer, serverBuildIsStale } from './build-server.mjs';
import { postJson, rawRequest } from './bench/http.mjs';
import { admin, cleanUpOnExit, stopProcesses } from './bench/processes.mjs';
import {
  closeStore,
  engineLabel,
  keepLogs,
  openStore,
  serverEnv,
  startOurs,
} from './bench/servers.mjs';
import { signIn } from './bench/setup.mjs';
import { openDb } from '../server/src/db/connection.ts';
import {
  LocalChainAdapter,
  mineLocalBlocks,
  recordLocalChainBlock,
} from '../server/src/domain/chain/localAdapter.ts';
import { startLocalNode } from '../server/test/chain/localNode.ts';
import { PAYMENT_METHODS } from '../server/src/domain/chain/paymentMethods.ts';

const { values } = parseArgs({
  options: {
    payments: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'both' },
    chain: { type: 'string', default: 'both' },
    processes: { type: 'string', default: '2' },
    drain: { type: 'string', default: '100000' },
    'cpu-prof': { type: 'string' },
  },
});
const PAYMENTS = Number(values.payments);
const PROCESSES = Number(values.processes);
const DRAIN = Number(values.drain);
/** Where each server process writes a V8 CPU profile when it stops (node --cpu-prof), if given. */
const CPU_PROF = values['cpu-prof'];
const ENGINES = values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine];
const CHAINS = values.chain === 'both' ? ['local', 'hardhat'] : [values.chain];
const METHOD = PAYMENT_METHODS.find((m) => m.id === 'pm_usdt_bsc');
if (!METHOD?.token_contract_address) throw new Error('No live USDT-BEP20 method');
/** The webhook of a payment that has not come by then is a failure. */
const WAIT_MS = 20_000;
/** Between the blocks short of the last and the last: the watcher sees the payment pending. */
const SETTLE_MS = 300;

const now = () => performance.timeOrigin + performance.now();
const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a receiver path does: answers 204 at once, never answers (the server's timeout ends the
 * request), or answers 500 at once.
 * @typedef {'ok' | 'hang' | 'error'} Behaviour
 */

/**
 * Webhook receivers on 127.0.0.1, one per path (/hooks/<name>), that keep, per event, when it
 * came; a path answers as `behaviour` says (204 unless set).
 * @returns {Promise<{ url: (name: string) => string, behave: Map<string, Behaviour>, came: (match: (event: any) => boolean) => Promise<{ at: number, event: any }>, backlog: { arrivals: Map<string, number>, steps: Map<string, number[]>, first: number, last: number }, close: () => void }>}
 */
async function startReceiver() {
  /** @type {{ at: number, event: any }[]} */
  const received = [];
  /** The drain's events: arrivals per webhook-id, each resource's steps in order of arrival. */
  const backlog = {
    arrivals: new Map(),
    /** @type {Map<string, number[]>} */
    steps: new Map(),
    first: 0,
    last: 0,
  };
  /** @type {Set<() => void>} */
  const waiting = new Set();
  /** @type {Map<string, Behaviour>} */
  const behave = new Map();
  const server = http.createServer((req, res) => {
    const chunks = /** @type {Buffer[]} */ ([]);
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = now();
      const behaviour = behave.get(req.url?.slice('/hooks/'.length) ?? '') ?? 'ok';
      if (behaviour === 'hang') return;
      res.writeHead(behaviour === 'error' ? 500 : 204).end();
      if (behaviour === 'error') return;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof event.data?.id === 'string' && event.data.id.startsWith('dep_backlog_')) {
        const id = String(req.headers['webhook-id']);
        backlog.arrivals.set(id, (backlog.arrivals.get(id) ?? 0) + 1);
        backlog.steps.set(event.data.id, [
          ...(backlog.steps.get(event.data.id) ?? []),
          event.data.step,
        ]);
        backlog.first ||= at;
        backlog.last = at;
        return;
      }
      received.push({ at, event });
      for (const wake of waiting) wake();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('receiver has no port');
  return {
    url: (name) => `http://127.0.0.1:${address.port}/hooks/${name}`,
    behave,
    backlog,
    async came(match) {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const found = received.find((r) => match(r.event));
        if (found) return found;
        if (Date.now() > deadline) throw new Error('a webhook did not come within 20 s');
        await new Promise((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            resolve(undefined);
          };
          waiting.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * The demo's app with the receiver as its Webhook URl and loopback whitelisted, the Business
 * package bought from the demo's wallet, and a key.
 * @param {string} origin @param {string} hookUrl
 */
async function setUp(origin, hookUrl) {
  const api = `${origin}/api`;
  const headers = await signIn(api);
  const token = headers.authenticated.authorization?.slice('Bearer '.length) ?? '';
  const cookie = headers.authenticated.cookie ?? '';
  const call = (/** @type {string} */ route, /** @type {unknown} */ body) =>
    postJson(`${api}${route}`, { body, token, cookie });
  const apps = await rawRequest(`${api}/cryptosafelock/get-apps`, headers.authenticated);
  const app = JSON.parse(apps.body.toString('utf8')).data?.[0];
  if (typeof app?.id !== 'string') throw new Error('get-apps listed no app');
  await call('/cryptosafelock/update-app', {
    app_id: app.id,
    app_name: app.app_name,
    project_url: app.project_url,
    whitelist_ip: `${app.whitelist_ip ?? ''}\n127.0.0.1`.trim(),
    callback_url: hookUrl,
    status: app.status,
  });
  // The demo's Starter package opens 100 accounts and invoices a day; a run opens up to 300.
  await call('/cryptosafelock/purchase', { package_id: 'pkg_business' });
  const generated = await call('/cryptosafelock/generate-apikey', {
    token_name: 'Bench payments',
    app_id: app.id,
    abilities: ['accounts:write', 'invoices:write', 'deposits:read'],
  });
  if (typeof generated.token !== 'string') throw new Error('generate-apikey gave no key');
  return { gateway: `${origin}/gateway/v1`, key: generated.token };
}

/**
 * Follows an invoice's checkout page as a shopper's browser does (its Server-Sent Events), and
 * answers when each new screen came.
 * @param {string} origin @param {string} invoiceId
 */
async function followCheckout(origin, invoiceId) {
  /** @type {{ at: number, screen: string }[]} */
  const screens = [];
  const request = http.get(`${origin}/pay/${invoiceId}/events`);
  const response = await new Promise((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  let buffer = '';
  /** @type {import('node:http').IncomingMessage} */ (response).on('data', (chunk) => {
    const at = now();
    buffer += chunk.toString('utf8');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message.split('\n').find((line) => line.startsWith('data: '));
      if (data) screens.push({ at, screen: JSON.parse(data.slice(6)).screen });
    }
  });
  return {
    /** When a screen other than those in `before` came, waiting for it. */
    async changed(/** @type {string[]} */ before) {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const found = screens.find((s) => !before.includes(s.screen));
        if (found) return found;
        if (Date.now() > deadline) throw new Error('the checkout page did not change in 20 s');
        await pause(10);
      }
    },
    first: () => screens[0]?.screen,
    close: () => request.destroy(),
  };
}

/** @param {number[]} xs @param {number} q */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

/**
 * One payment's stages, from its event as received and the attempt the server recorded.
 * @param {import('../server/src/db/connection.ts').Db} db
 * @param {number} t0 @param {{ at: number, event: any }} got
 */
async function stagesOf(db, t0, got) {
  const recorded = () =>
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.created_at', 'a.duration_ms'])
      .where('d.event_id', '=', got.event.id)
      .orderBy('a.attempt')
      .executeTakeFirst();
  // The server records the attempt once the receiver has answered.
  let attempt = await recorded();
  for (let tries = 0; !attempt && tries < 100; tries += 1) {
    await pause(20);
    attempt = await recorded();
  }
  if (!attempt) throw new Error(`no attempt recorded for ${got.event.id}`);
  const sent = Date.parse(attempt.created_at) - attempt.duration_ms;
  const passBegan = Date.parse(got.event.created_at);
  return {
    detect: passBegan - t0,
    record: sent - passBegan,
    deliver: got.at - sent,
    total: got.at - t0,
  };
}

/**
 * The chain the bench pays on, as a shopper's wallet and the network would: `pay` puts transfers
 * in one new block, `mine` mines empty blocks; both answer once the block is there.
 * @typedef {{
 *   env: Record<string, string>,
 *   token: () => string,
 *   pay: (transfers: { to: string, units: bigint }[]) => Promise<{ txHash: string, blockNumber: number }[]>,
 *   mine: (blocks: number) => Promise<void>,
 *   head: () => Promise<number>,
 *   minedAt: (asked: number, answered: number) => number,
 *   close: () => Promise<void>,
 * }} BenchChain
 *   `minedAt`: t0 for a block asked for at `asked` whose call answered at `answered`.
 */

/**
 * The built-in local chain: blocks are rows of the server's database, written from here.
 * @param {() => import('../server/src/db/connection.ts').Db} db the database, once migrated
 * @returns {BenchChain}
 */
function localChain(db) {
  const adapter = () => new LocalChainAdapter(db(), 56);
  const token = () => adapter().tokenContract(METHOD.token_contract_address ?? '');
  return {
    env: { LOCAL_BLOCK_MS: '0' },
    token,
    pay: (transfers) =>
      recordLocalChainBlock(
        db(),
        56,
        transfers.map((t) => ({
          token: token(),
          to: t.to,
          amount: t.units,
          createdAt: new Date().toISOString(),
        })),
      ),
    mine: async (blocks) => void (await mineLocalBlocks(db(), blocks, 56)),
    head: () => adapter().latestBlock(),
    // The block is there when its transaction commits, just before the call answers.
    minedAt: (_asked, answered) => answered,
    close: async () => {},
  };
}

/**
 * A Hardhat node standing in for BNB Smart Chain, read by the server through its EVM adapter
 * (CHAIN_RPC_URL), with our ERC-20 as its USDT.
 * @returns {Promise<BenchChain>}
 */
async function hardhatChain() {
  const node = await startLocalNode(56);
  const token = await node.deployToken(18, parseUnits('1000000000', 18));
  const blockOf = async (/** @type {`0x${string}`} */ hash) =>
    Number((await node.publicClient.getTransactionReceipt({ hash })).blockNumber);
  return {
    env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token, LOCAL_BLOCK_MS: '0' },
    token: () => token,
    async pay(transfers) {
      if (transfers.length === 1 && transfers[0]) {
        const hash = await node.transfer(
          token,
          /** @type {`0x${string}`} */ (transfers[0].to),
          transfers[0].units,
        );
        return [{ txHash: hash, blockNumber: await blockOf(hash) }];
      }
      // Many in one block: they wait in the mempool, then one block takes them all.
      await node.setAutomine(false);
      const hashes = [];
      for (const t of transfers) {
        const signed = await node.signTransfer(token, /** @type {`0x${string}`} */ (t.to), t.units);
        // Sent, not awaited: it is mined with the others below.
        hashes.push(
          /** @type {`0x${string}`} */ (
            await node.publicClient.request({
              method: 'eth_sendRawTransaction',
              params: [signed],
            })
          ),
        );
      }
      await node.mine(1);
      await node.setAutomine(true);
      return Promise.all(
        hashes.map(async (hash) => ({ txHash: hash, blockNumber: await blockOf(hash) })),
      );
    },
    mine: (blocks) => node.mine(blocks),
    head: async () => Number(await node.publicClient.getBlockNumber()),
    // The node mines somewhere within the call, and the server may read the block before the
    // answer (and the receipt polling) come back here: counted from the asking, an upper bound.
    minedAt: (asked) => asked,
    close: () => node.stop(),
  };
}

/** Apps of the isolation step, and rounds of one payment to each. */
const ISOLATION_APPS = 50;
const ISOLATION_ROUNDS = 5;

/**
 * The isolation step: ISOLATION_APPS apps of the demo merchant, each with a receiver of its own
 * and a deposit address, are paid once each per round, all in one block, and confirmed by one
 * block. First with every receiver healthy, then with app 0's receiver never answering and app
 * 1's answering 500: the other apps' block-to-webhook figures side by side, and what the hanging
 * app's deliveries did meanwhile.
 * @param {import('../server/src/db/connection.ts').Db} db
 * @param {Awaited<ReturnType<typeof startReceiver>>} receiver
 * @param {BenchChain} chain @param {(block: number) => Promise<number>} confirm
 */
async function isolation(db, receiver, chain, confirm) {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'demo')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  const apps = Array.from({ length: ISOLATION_APPS }, (_, n) => ({
    id: `app_bench_iso_${n}`,
    address: `0x${String(9_000_000 + n).padStart(40, '0')}`,
  }));
  // Set up as data, as `npm run admin -- bench large-data` does: the merchant's plan allows one
  // app, and what is measured is the chain-to-webhook path, not app creation.
  await db
    .insertInto('apps')
    .values(
      apps.map((app, n) => ({
        id: app.id,
        user_id: user.id,
        app_name: `Isolation ${n}`,
        info: null,
        project_url: 'https://shop.example.com',
        whitelist_ip: null,
        callback_url: receiver.url(String(n)),
        status: 1,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await db
    .insertInto('app_accounts')
    .values(
      apps.map((app, n) => ({
        id: `acc_bench_iso_${n}`,
        app_id: app.id,
        payment_method_id: 'pm_usdt_bsc',
        unique_id: 'customer',
        address: app.address,
        created_at: at,
        chain_id: 56,
        derivation_index: 9_000_000 + n,
      })),
    )
    .execute();
  /** @type {Record<string, Record<string, number>[]>} */
  const totals = { healthy: [], faulty: [] };
  for (const phase of /** @type {const} */ (['healthy', 'faulty'])) {
    if (phase === 'faulty') {
      receiver.behave.set('0', 'hang');
      receiver.behave.set('1', 'error');
    }
    // A first round unmeasured: the watcher meets the fifty new addresses.
    for (let round = phase === 'healthy' ? -1 : 0; round < ISOLATION_ROUNDS; round += 1) {
      const transfers = await chain.pay(
        apps.map((app) => ({ to: app.address, units: parseUnits('5', 18) })),
      );
      const t0 = await confirm(transfers[0]?.blockNumber ?? 0);
      for (const [n, transfer] of transfers.entries()) {
        if (phase === 'faulty' && n < 2) continue;
        const got = await receiver.came(
          (e) => e.type === 'deposit.confirmed' && e.data?.tx_hash === transfer.txHash,
        );
        if (round >= 0) totals[phase]?.push(await stagesOf(db, t0, got));
      }
    }
  }
  // The hanging app's deliveries go on by their schedule: its first attempts time out (10 s),
  // and the retries come 5 s (±20 %) after. Waited for until two attempts of one delivery ended.
  const attemptsOfHung = () =>
    db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.delivery_id', 'a.attempt', 'a.outcome', 'a.created_at', 'a.duration_ms'])
      .where('d.app_id', '=', apps[0]?.id ?? '')
      .orderBy('a.created_at')
      .execute();
  let hung = await attemptsOfHung();
  const retried = () => hung.some((a) => a.attempt >= 2);
  for (const deadline = Date.now() + 45_000; !retried() && Date.now() < deadline;) {
    await pause(500);
    hung = await attemptsOfHung();
  }
  return { totals, hung };
}

/**
 * The drain: with the server stopped, `npm run admin -- bench backlog` leaves DRAIN webhook
 * events due for the demo app, as a receiver's outage ends with them waiting (each made-up
 * deposit's pending, confirmed and completed); then the server starts with PROCESSES processes
 * and delivers them to the healthy receiver, while one client reads the gateway's deposits one
 * request at a time. Throughput from the first delivery to the last; every event counted by its
 * webhook-id, and each deposit's events checked to have come in order.
 * @param {import('./bench/servers.mjs').Store} store @param {NodeJS.ProcessEnv} env
 * @param {Awaited<ReturnType<typeof startReceiver>>} receiver @param {string} key
 */
async function drain(store, env, receiver, key) {
  await admin(['bench', 'backlog', 'demo', String(DRAIN)], env);
  const ours = await startOurs(store, env, { processes: PROCESSES, cpuProf: CPU_PROF });
  /** @type {number[]} */
  const reads = [];
  /** @type {unknown} */
  let readFailure;
  let draining = true;
  const reader = (async () => {
    while (draining) {
      const asked = now();
      const res = await rawRequest(`${ours.origin}/gateway/v1/deposits`, {
        authorization: `Bearer ${key}`,
      });
      if (res.status !== 200) throw new Error(`GET /gateway/v1/deposits answered ${res.status}`);
      reads.push(now() - asked);
    }
  })().catch((error) => {
    readFailure = error;
  });
  try {
    // 30 minutes, or 20 events a second at least (an hour and a half for 100,000).
    const limitMinutes = Math.max(30, Math.ceil(DRAIN / 20 / 60));
    const deadline = Date.now() + limitMinutes * 60_000;
    while (receiver.backlog.arrivals.size < DRAIN) {
      if (readFailure) throw readFailure;
      if (Date.now() > deadline) {
        throw new Error(
          `${receiver.backlog.arrivals.size} of ${DRAIN} events came in ${limitMinutes} min`,
        );
      }
      await pause(200);
    }
    // A second delivery of an event would come soon after the first.
    await pause(2_000);
  } finally {
    draining = false;
    await reader;
    await stopProcesses([ours.server]);
  }
  const { arrivals, steps, first, last } = receiver.backlog;
  const duplicates = [...arrivals.values()].reduce((sum, n) => sum + n - 1, 0);
  const outOfOrder = [...steps.values()].filter((got) => got.some((step, i) => step !== i)).length;
  return {
    events: arrivals.size,
    seconds: (last - first) / 1000,
    duplicates,
    outOfOrder,
    reads,
    perApp: env.WEBHOOK_APP_CONCURRENCY ?? '2',
  };
}

/**
 * One engine on one chain: the server with PROCESSES processes, PAYMENTS deposits, PAYMENTS / 2
 * invoices, then the isolation step.
 * @param {'sqlite' | 'postgres'} engine @param {'local' | 'hardhat'} kind
 */
async function benchEngine(engine, kind) {
  const store = await openStore(engine);
  const receiver = await startReceiver();
  /** @type {import('../server/src/db/connection.ts').Db | undefined} */
  let opened;
  const db = () => (opened ??= openDb({ dataDir: store.dataDir, databaseUrl: store.schema?.url }));
  const chain = kind === 'hardhat' ? await hardhatChain() : localChain(db);
  let ok = false;
  try {
    const env = { ...serverEnv(store), ...chain.env, WEBHOOK_ALLOW_PRIVATE: 'true' };
    const ours = await startOurs(store, env, { processes: PROCESSES, cpuProf: CPU_PROF });
    const { gateway, key } = await setUp(ours.origin, receiver.url('demo'));
    const confirmations = METHOD.confirmations ?? 1;
    /** Mines to one block short of the last confirmation, then that block: its time. */
    const confirm = async (/** @type {number} */ block) => {
      const short = block + confirmations - 2 - (await chain.head());
      if (short > 0) await chain.mine(short);
      await pause(SETTLE_MS);
      const asked = now();
      await chain.mine(1);
      return chain.minedAt(asked, now());
    };
    const pay = async (/** @type {string} */ to, /** @type {string} */ amount) => {
      const asked = now();
      const [transfer] = await chain.pay([
        { to, units: parseUnits(amount, METHOD.decimals ?? 18) },
      ]);
      if (!transfer) throw new Error('no transfer made');
      return { transfer, t0: chain.minedAt(asked, now()) };
    };
    /** @type {Record<string, Record<string, number>[]>} */
    const series = {
      'deposit.confirmed': [],
      'invoice.payment_received': [],
      'invoice.settled': [],
    };
    for (let i = 0; i < PAYMENTS; i += 1) {
      const account = await postJson(`${gateway}/accounts`, {
        body: { unique_id: `bench-${i}`, method: METHOD.code },
        token: key,
        cookie: '',
      });
      if (typeof account.address !== 'string') throw new Error('POST /accounts gave no address');
      const { transfer } = await pay(account.address, '25');
      const t0 = await confirm(transfer.blockNumber);
      const got = await receiver.came(
        (e) => e.type === 'deposit.confirmed' && e.data?.tx_hash === transfer.txHash,
      );
      series['deposit.confirmed']?.push(await stagesOf(db(), t0, got));
    }
    for (let i = 0; i < PAYMENTS / 2; i += 1) {
      const invoice = await postJson(`${gateway}/invoices`, {
        body: { amount: '25.00', currency: 'USD', methods: [METHOD.code], expires_in: 3_600 },
        token: key,
        cookie: '',
      });
      const option = invoice.payment_options?.[0];
      if (typeof option?.address !== 'string') throw new Error('POST /invoices gave no address');
      const page = await followCheckout(ours.origin, invoice.id);
      await page.changed([]);
      const waiting = [page.first() ?? ''];
      const { transfer, t0: carried } = await pay(option.address, String(option.amount_due));
      const received = await receiver.came(
        (e) => e.type === 'invoice.payment_received' && e.data?.id === invoice.id,
      );
      const seen = await page.changed(waiting);
      series['invoice.payment_received']?.push({
        ...(await stagesOf(db(), carried, received)),
        checkout: seen.at - carried,
      });
      const t0 = await confirm(transfer.blockNumber);
      const settled = await receiver.came(
        (e) => e.type === 'invoice.settled' && e.data?.id === invoice.id,
      );
      const paid = await page.changed([...waiting, seen.screen]);
      series['invoice.settled']?.push({
        ...(await stagesOf(db(), t0, settled)),
        checkout: paid.at - t0,
      });
      page.close();
    }
    const isolated = await isolation(db(), receiver, chain, confirm);
    await stopProcesses([ours.server]);
    const drained = DRAIN > 0 ? await drain(store, env, receiver, key) : undefined;
    ok = true;
    return { engine, series, isolated, drained };
  } finally {
    await opened?.destroy();
    await chain.close();
    receiver.close();
    if (!ok) keepLogs(store);
    await closeStore(store);
  }
}

/**
 * @param {string} chain @param {string} engine
 * @param {Record<string, Record<string, number>[]>} series
 */
function print(chain, engine, series) {
  console.log(
    `\n${chain}, ${engineLabel(/** @type {'sqlite' | 'postgres'} */ (engine), PROCESSES)}`,
  );
  console.log('webhook                    n    stage     p50 ms   p99 ms   max ms');
  for (const [type, rows] of Object.entries(series)) {
    for (const stage of ['detect', 'record', 'deliver', 'total', 'checkout']) {
      if (rows[0]?.[stage] === undefined) continue;
      const xs = rows.map((r) => r[stage] ?? NaN);
      if (xs.some((x) => Number.isNaN(x) || (stage === 'total' && x < 0))) {
        throw new Error(`${type}: a webhook came before its block`);
      }
      const fmt = (/** @type {number} */ x) => x.toFixed(0).padStart(8);
      console.log(
        `${type.padEnd(26)} ${String(rows.length).padStart(4)} ${stage.padEnd(8)} ${fmt(quantile(xs, 0.5))} ${fmt(quantile(xs, 0.99))} ${fmt(Math.max(...xs))}`,
      );
    }
  }
}

/** @param {Awaited<ReturnType<typeof isolation>>} isolated */
function printIsolation({ totals, hung }) {
  const p99 = (/** @type {number[]} */ xs) => quantile(xs, 0.99);
  console.log(
    `\nisolation: ${ISOLATION_APPS} apps, ${ISOLATION_ROUNDS} rounds; deposit.confirmed of apps 2–${ISOLATION_APPS - 1}`,
  );
  console.log('receivers                        n    stage     p50 ms   p99 ms');
  /** @type {Record<string, number>} */
  const worst = {};
  for (const [phase, label] of [
    ['healthy', 'all healthy'],
    ['faulty', 'app 0 hangs, app 1 answers 500'],
  ]) {
    const rows = totals[phase] ?? [];
    for (const stage of ['detect', 'record', 'deliver', 'total']) {
      const xs = rows.map((r) => r[stage] ?? NaN);
      if (stage === 'total') worst[phase] = p99(xs);
      const fmt = (/** @type {number} */ x) => x.toFixed(0).padStart(8);
      console.log(
        `${label.padEnd(31)} ${String(rows.length).padStart(4)} ${stage.padEnd(8)} ${fmt(quantile(xs, 0.5))} ${fmt(p99(xs))}`,
      );
    }
  }
  console.log(
    `  p99 with the faulty receivers: ${((worst.faulty ?? NaN) / (worst.healthy ?? NaN)).toFixed(2)}× the healthy one`,
  );
  const timeouts = hung.filter((a) => a.outcome === 'timeout');
  console.log(
    `  app 0's attempts while it hung: ${timeouts.length} timed out, each after ${timeouts.map((a) => `${(a.duration_ms / 1000).toFixed(1)} s`).join(', ') || '–'}`,
  );
  // A retry's wait: from the end of a delivery's attempt to the start of its next one.
  const waits = hung.flatMap((a) => {
    const before = hung.find((b) => b.delivery_id === a.delivery_id && b.attempt === a.attempt - 1);
    if (!before) return [];
    return [(Date.parse(a.created_at) - a.duration_ms - Date.parse(before.created_at)) / 1000];
  });
  console.log(
    `  its retries began ${waits.map((w) => `${w.toFixed(1)} s`).join(', ') || '–'} after the attempt before (schedule: 5 s ±20 %, then 5 min)`,
  );
}

/** @param {NonNullable<Awaited<ReturnType<typeof drain>>>} drained */
function printDrain({ events, seconds, duplicates, outOfOrder, reads, perApp }) {
  console.log(
    `\ndrain: ${events} events of one app (at most ${perApp} in flight), ${PROCESSES} processes: ${(events / seconds).toFixed(0)} deliveries/s (${seconds.toFixed(1)} s from the first to the last), ${duplicates} delivered twice, ${outOfOrder} deposits' events out of order`,
  );
  console.log(
    `  GET /gateway/v1/deposits meanwhile, one at a time: ${reads.length} reads, p50 ${quantile(reads, 0.5).toFixed(1)} ms, p99 ${quantile(reads, 0.99).toFixed(1)} ms`,
  );
  if (duplicates > 0 || outOfOrder > 0)
    throw new Error('the drain delivered twice or out of order');
}

cleanUpOnExit();
if (serverBuildIsStale()) await buildServer();
let failed = false;
for (const kind of CHAINS) {
  for (const engine of ENGINES) {
    try {
      const { series, isolated, drained } = await benchEngine(
        /** @type {'sqlite' | 'postgres'} */ (engine),
        /** @type {'local' | 'hardhat'} */ (kind),
      );
      print(`${kind === 'hardhat' ? 'Hardhat (EVM adapter)' : 'local chain'}`, engine, series);
      printIsolation(isolated);
      if (drained) printDrain(drained);
    } catch (error) {
      failed = true;
      console.error(
        `bench:payments: ${kind}, ${engine}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
process.exit(failed ? 1 : 0);
