// `npm run bench:streams`: many shoppers watching one checkout page at once. It starts the built
// server (SQLite, one process, production-like as `npm run bench:api` does), makes an invoice
// through the gateway API, opens --streams status streams on it (GET /pay/{id}/events, default
// 1,000), checks that the process still answers other requests while they are open, pays the
// invoice on the local chain (`admin chain transfer`, as a wallet would), and prints how long
// the new status took to reach every stream, counted from the moment the server moved the
// invoice (its `updated_at`), and how long detection took before that. A benchmark, not a test:
// it fails only when a stream is refused or closed, or the payment never reaches one.
//
//   npm run bench:streams -- [--streams <n>] [--processes <n>]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { buildServer, serverBuildIsStale } from './build-server.mjs';
import { rawRequest } from './bench/http.mjs';
import { admin, cleanUpOnExit, stopProcesses } from './bench/processes.mjs';
import { closeStore, keepLogs, openStore, serverEnv, startOurs } from './bench/servers.mjs';
import { setUpGateway, signIn } from './bench/setup.mjs';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    processes: { type: 'string', default: '1' },
  },
});
const STREAMS = Number(values.streams);
const PROCESSES = Number(values.processes);
/** Longest wait for the payment to reach every stream (detection included). */
const DEADLINE_MS = 60_000;

/**
 * One open status stream: the times at which each `status` event arrived, with its screen.
 * @typedef {{ events: { screen: string, at: number }[], closed: boolean, request: http.ClientRequest }} Stream
 */

/**
 * Opens a status stream on `url`; resolves once its first event (the state now) arrived.
 * @param {string} url @returns {Promise<Stream>}
 */
function openStream(url) {
  return new Promise((resolve, reject) => {
    /** @type {Stream} */
    const stream = { events: [], closed: false, request: http.get(url, { agent: false }) };
    stream.request.on('error', reject);
    stream.request.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url} answered ${response.statusCode}`));
        response.resume();
        return;
      }
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (/** @type {string} */ chunk) => {
        pending += chunk;
        const blocks = pending.split('\n\n');
        pending = blocks.pop() ?? '';
        for (const block of blocks) {
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!block.startsWith('event: status') || !data) continue;
          const { screen } = JSON.parse(data.slice('data: '.length));
          stream.events.push({ screen, at: Date.now() });
          if (stream.events.length === 1) resolve(stream);
        }
      });
      response.on('close', () => (stream.closed = true));
    });
  });
}

/** @param {number[]} sorted @param {number} share */
const quantile = (sorted, share) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

/** @param {() => Promise<boolean>} done @param {string} what */
async function waitFor(done, what) {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

cleanUpOnExit();
if (serverBuildIsStale()) await buildServer();
const store = await openStore('sqlite');
/** @type {import('node:child_process').ChildProcess[]} */
const started = [];
let failed = false;
try {
  const env = serverEnv(store);
  const ours = await startOurs(store, env, { processes: PROCESSES, cpuProf: undefined });
  started.push(ours.server);
  const api = `${ours.origin}/api`;
  const { key } = await setUpGateway(api, await signIn(api));
  const gateway = `${ours.origin}/gateway/v1`;
  const create = async () => {
    const response = await fetch(`${gateway}/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10', currency: 'USD', methods: ['USDT-BEP20'] }),
    });
    if (response.status !== 201) throw new Error(`POST /invoices answered ${response.status}`);
    return /** @type {{ id: string, payment_options: { address: string }[] }} */ (
      await response.json()
    );
  };
  const invoice = await create();
  const other = await create();

  console.log(
    `Opening ${STREAMS} status streams on one invoice (${PROCESSES} process${PROCESSES === 1 ? '' : 'es'})...`,
  );
  const opening = Date.now();
  /** @type {Stream[]} */
  const streams = [];
  // In batches, as shoppers arrive: not all 1,000 handshakes in the same millisecond.
  for (let i = 0; i < STREAMS; i += 100) {
    const batch = Array.from({ length: Math.min(100, STREAMS - i) }, () =>
      openStream(`${ours.origin}/pay/${invoice.id}/events`),
    );
    streams.push(...(await Promise.all(batch)));
  }
  console.log(`  all open, each with its first status, in ${Date.now() - opening} ms`);

  // Still served: another shopper's page and status answer, one after the other.
  /** @type {number[]} */
  const served = [];
  for (let i = 0; i < 50; i += 1) {
    const start = process.hrtime.bigint();
    const answer = await rawRequest(`${ours.origin}/pay/${other.id}${i % 2 ? '/status' : ''}`, {});
    if (answer.status !== 200)
      throw new Error(`GET /pay/{id} answered ${answer.status} beside the streams`);
    served.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  served.sort((a, b) => a - b);
  console.log(
    `  beside them, another invoice's page and status: p50 ${quantile(served, 0.5).toFixed(1)} ms, max ${(served.at(-1) ?? 0).toFixed(1)} ms`,
  );

  const paidAt = Date.now();
  await admin(
    ['chain', 'transfer', invoice.payment_options[0]?.address ?? '', '10', 'USDT-BEP20'],
    env,
  );
  /** The first event showing another screen than the stream's first (the feed may repeat one). */
  const changed = (/** @type {Stream} */ s) =>
    s.events.find((e) => e.screen !== s.events[0]?.screen);
  await waitFor(
    async () => streams.every((s) => changed(s) !== undefined || s.closed),
    'the payment to reach every stream',
  );
  const closed = streams.filter((s) => s.closed).length;
  if (closed > 0) throw new Error(`${closed} streams closed before the payment reached them`);
  const read = await rawRequest(`${gateway}/invoices/${invoice.id}`, {
    authorization: `Bearer ${key}`,
  });
  /** @type {{ status: string, updated_at: string }} */
  const now = JSON.parse(read.body.toString('utf8'));
  const moved = Date.parse(now.updated_at);
  const delays = streams.map((s) => (changed(s)?.at ?? 0) - moved).sort((a, b) => a - b);
  const screens = new Set(streams.map((s) => changed(s)?.screen));
  console.log(
    `  paid: the invoice is ${now.status}; every stream got screen ${[...screens].join(', ')}`,
  );
  console.log(`  detection (transfer to status change): ${moved - paidAt} ms`);
  console.log(
    `  status change to stream, over ${streams.length} streams: p50 ${quantile(delays, 0.5)} ms, p99 ${quantile(delays, 0.99)} ms, max ${delays.at(-1)} ms`,
  );
  for (const stream of streams) stream.request.destroy();
} catch (error) {
  failed = true;
  console.error(`bench:streams: ${error instanceof Error ? error.message : String(error)}`);
  keepLogs(store);
} finally {
  await stopProcesses(started);
  await closeStore(store);
}
process.exit(failed ? 1 : 0);
