import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChainUnavailableError } from '../../src/domain/chain/adapter';

// A JSON-RPC provider that misbehaves on demand, for the chain watcher's tests: an HTTP server on
// loopback in front of an upstream node (a Hardhat node from localNode.ts) that forwards single
// and batched calls, and can drop, delay or rate-limit them, refuse eth_getLogs as real providers
// do (in their own words: `dialect`), serve a stale or lagging head, claim another chain, and
// vanish from its port for a while. It counts every call by method and by what became of it.

/** Whose words a refusal is in; not every provider has every refusal (see DIALECTS). */
export type Dialect = 'infura' | 'alchemy' | 'quicknode' | 'ankr' | 'bsc' | 'reth';

/**
 * Which calls a fault hits: those of `methods` (all when absent), of those every `every`th (the
 * every-th, 2·every-th, … since `set`), and of those a `fraction` drawn from a PRNG seeded with
 * `seed` (0 unless said), each narrowing the one before. A batch is hit when one of its calls is.
 */
export interface Which {
  methods?: readonly string[];
  every?: number;
  fraction?: number;
  seed?: number;
}

export interface Faults {
  /** Whose words refusals and 429s are in (Infura's unless said). */
  dialect?: Dialect;
  /** Never answered: the client times out (or fails at once if the proxy vanishes). */
  drop?: Which;
  /** Answered `ms` later. */
  delay?: Which & { ms: number };
  /** HTTP 429 with `Retry-After: retryAfter` seconds (1 unless said) and the dialect's body. */
  status429?: Which & { retryAfter?: number };
  /** eth_getLogs covering more than this many blocks is refused, upstream never asked. */
  maxLogRange?: number;
  /** eth_getLogs is asked upstream, and refused if it matched more than this many logs. */
  maxLogs?: number;
  /**
   * eth_blockNumber and eth_getBlockByNumber('latest') answer as if the head were `frozenAt`, or
   * `behind` blocks below the upstream's (a head that steps back when set, then lags).
   */
  head?: { frozenAt: number } | { behind: number };
  /** eth_chainId and net_version answer this chain instead of the upstream's. */
  chainId?: number;
  /**
   * These methods answer "not found" (a null result), as a node that has not seen a transaction
   * yet, or has pruned it, answers eth_getTransactionReceipt.
   */
  notFound?: readonly string[];
}

/**
 * What became of a call. A delayed call counts as `delayed` and again under what came of it; a
 * refusal of eth_getLogs is `refused`, an answer the proxy made or changed `rewritten`, and a call
 * the upstream did not answer `failed` (HTTP 502).
 */
export type Outcome =
  'forwarded' | 'delayed' | 'dropped' | 'status429' | 'refused' | 'rewritten' | 'failed';

export interface FaultProxy {
  /** http://127.0.0.1:PORT, the same after a vanish. */
  readonly url: string;
  /** Replaces every fault (`{}` for none) and restarts the `every` and `fraction` patterns. */
  set(faults: Faults): void;
  /** Calls received (each call of a batch is one), of `method` or of all. */
  calls(method?: string): number;
  outcomes(method?: string): Partial<Record<Outcome, number>>;
  resetCounts(): void;
  /** Stops listening and cuts every open connection: calls fail with connection refused. */
  vanish(): Promise<void>;
  /** Listens again on the same port. */
  reappear(): Promise<void>;
  close(): Promise<void>;
}

type Id = string | number | null;

interface RpcCall {
  id?: Id;
  method: string;
  params?: unknown[];
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

interface RpcAnswer {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: RpcError;
}

interface Answer {
  outcome: Outcome;
  status: number;
  body: RpcAnswer;
}

/** A provider's answer instead of a result: its HTTP status and JSON-RPC error. */
interface Refusal {
  status: number;
  error: RpcError;
}

interface DialectAnswers {
  /** eth_getLogs from block `from` to `to` covers more than `limit` blocks. */
  range?: (limit: number, from: number, to: number) => Refusal;
  /** eth_getLogs from `from` matched more than `limit` logs; up to `fits` it would not have. */
  results?: (limit: number, from: number, fits: number) => Refusal;
  /** Too many requests; come back in `retryAfter` seconds. */
  rateLimit?: (retryAfter: number) => Refusal;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * The providers' own words, codes and HTTP statuses, as their software or documentation states
 * them or as answers captured from their live endpoints show them. Wording the research found
 * nothing for is left out rather than made up: `set` refuses a fault the dialect cannot word.
 * Where a message carries a limit or a range, ours carries the proxy's.
 */
const DIALECTS: Record<Dialect, DialectAnswers> = {
  infura: {
    // A single report from the live endpoint; Infura's documentation names only `results`.
    range: (limit, from, to) => ({
      status: 200,
      error: { code: -32602, message: `range ${to - from + 1} exceeds limit of ${limit}` },
    }),
    // Documented (-32005, "query returned more than 10000 results"); the live endpoint adds the
    // range to retry with, in upper-case hex, and repeats it in `data`.
    results: (limit, from, fits) => {
      const [a, b] = [from, fits].map((n) => `0x${n.toString(16).toUpperCase()}`);
      return {
        status: 200,
        error: {
          code: -32005,
          message: `query returned more than ${limit} results. Try with this block range [${a}, ${b}].`,
          data: { from: a, limit, to: b },
        },
      };
    },
    // Documented: HTTP 429, -32005, and the advised wait in data.rate.backoff_seconds.
    rateLimit: (retryAfter) => ({
      status: 429,
      error: {
        code: -32005,
        message: 'project ID request rate exceeded',
        data: {
          rate: { allowed_rps: 10, backoff_seconds: retryAfter, current_rps: 10.5 },
          see: 'https://infura.io/docs/ethereum/json-rpc/ratelimits',
        },
      },
    }),
  },
  alchemy: {
    // The free tier's span cap, answered with HTTP 400.
    range: (limit, from) => ({
      status: 400,
      error: {
        code: -32600,
        message:
          `Under the Free tier plan, you can make eth_getLogs requests with up to a ${limit} block ` +
          `range. Based on your parameters, this block range should work: [${hex(from)}, ` +
          `${hex(from + limit - 1)}]. Upgrade to PAYG for expanded block range.`,
      },
    }),
    // Its numbers are the provider's policy, fixed whatever the proxy's limit; the range is ours.
    results: (_limit, from, fits) => ({
      status: 200,
      error: {
        code: -32602,
        message:
          'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block ' +
          'range and no limit on the response size, or you can request any block range with a ' +
          'cap of 10K logs in the response. Based on your parameters and the response size ' +
          `limit, this block range should work: [${hex(from)}, ${hex(fits)}]`,
      },
    }),
    // A JSON-RPC code of 429 itself, beside the HTTP status.
    rateLimit: () => ({
      status: 429,
      error: {
        code: 429,
        message:
          'Your app has exceeded its compute units per second capacity. If you have retries ' +
          'enabled, you can safely ignore this message. If not, check out ' +
          'https://docs.alchemy.com/reference/throughput',
      },
    }),
  },
  quicknode: {
    // HTTP 413 and a code of its own; the limit is written with a thousands comma.
    range: (limit) => ({
      status: 413,
      error: {
        code: -32614,
        message: `eth_getLogs is limited to a ${limit.toLocaleString('en-US')} range`,
      },
    }),
    rateLimit: () => ({
      status: 429,
      error: {
        code: -32007,
        message:
          '50/second request limit reached - reduce calls per second or upgrade your account at ' +
          'quicknode.com',
      },
    }),
  },
  ankr: {
    range: () => ({ status: 200, error: { code: -32600, message: 'block range is too wide' } }),
  },
  bsc: {
    // BSC's eth/filters/filter.go: a plain Go error, which geth's RPC server sends as -32000.
    range: (limit) => ({
      status: 200,
      error: { code: -32000, message: `exceed maximum block range: ${limit}` },
    }),
  },
  reth: {
    // reth's EthFilterError, both as invalid params (-32602); dRPC and others answer the same.
    range: (limit) => ({
      status: 200,
      error: { code: -32602, message: `query exceeds max block range ${limit}` },
    }),
    results: (limit, from, fits) => ({
      status: 200,
      error: {
        code: -32602,
        message: `query exceeds max results ${limit}, retry with the range ${from}-${fits}`,
      },
    }),
  },
};

/** Tags that name the head (the upstream's, whatever `head` says). */
const HEAD_TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);

/** A seeded PRNG (mulberry32): the same seed picks the same calls. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A fault's pattern, advanced by every call its methods take in. */
function selector(which: Which | undefined): (calls: readonly RpcCall[]) => boolean {
  if (which === undefined) return () => false;
  if (which.every !== undefined && !(Number.isInteger(which.every) && which.every > 0)) {
    throw new Error(`every must be a positive integer, not ${which.every}`);
  }
  const draw = random(which.seed ?? 0);
  let seen = 0;
  return (calls) => {
    let hit = false;
    for (const call of calls) {
      if (which.methods !== undefined && !which.methods.includes(call.method)) continue;
      seen += 1;
      if (which.every !== undefined && seen % which.every !== 0) continue;
      if (which.fraction !== undefined && draw() >= which.fraction) continue;
      hit = true;
    }
    return hit;
  };
}

function isCall(value: unknown): value is RpcCall {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { method?: unknown }).method === 'string' &&
    ((value as { params?: unknown }).params === undefined ||
      Array.isArray((value as { params?: unknown }).params))
  );
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed || response.writableEnded) return; // the client has gone
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Starts the proxy in front of `upstreamUrl`, forwarding everything until `set` says otherwise. */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  let faults: Faults = {};
  let dialect = DIALECTS.infura;
  let drops = selector(undefined);
  let delays = selector(undefined);
  let limits = selector(undefined);
  const received = new Map<string, number>();
  const fates: { method: string; outcome: Outcome }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const note = (calls: readonly RpcCall[], outcome: Outcome) => {
    for (const call of calls) fates.push({ method: call.method, outcome });
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function upstream(call: RpcCall): Promise<{ status: number; body: RpcAnswer }> {
    const response = await fetch(upstreamUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', ...call }),
    });
    return { status: response.status, body: (await response.json()) as RpcAnswer };
  }

  async function upstreamHead(): Promise<number> {
    const { body } = await upstream({ id: 0, method: 'eth_blockNumber', params: [] });
    if (typeof body.result !== 'string') throw new Error('the upstream gave no head');
    return Number(body.result);
  }

  async function servedHead(head: NonNullable<Faults['head']>): Promise<number> {
    return 'frozenAt' in head ? head.frozenAt : Math.max(0, (await upstreamHead()) - head.behind);
  }

  /** A filter's block: a number, `earliest`, or the upstream's head; undefined when unreadable. */
  async function blockOf(tag: unknown): Promise<number | undefined> {
    if (tag === undefined || (typeof tag === 'string' && HEAD_TAGS.has(tag))) return upstreamHead();
    if (tag === 'earliest') return 0;
    return typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag) ? Number(tag) : undefined;
  }

  const made = (call: RpcCall, result: unknown): Answer => ({
    outcome: 'rewritten',
    status: 200,
    body: { jsonrpc: '2.0', id: call.id ?? null, result },
  });
  const refused = (call: RpcCall, refusal: Refusal): Answer => ({
    outcome: 'refused',
    status: refusal.status,
    body: { jsonrpc: '2.0', id: call.id ?? null, error: refusal.error },
  });

  async function getLogs(call: RpcCall): Promise<Answer> {
    const filter = call.params?.[0];
    const forwarded = async (): Promise<Answer> => ({
      outcome: 'forwarded',
      ...(await upstream(call)),
    });
    if (typeof filter !== 'object' || filter === null || 'blockHash' in filter) return forwarded();
    const { fromBlock, toBlock } = filter as { fromBlock?: unknown; toBlock?: unknown };
    const from = await blockOf(fromBlock);
    const to = await blockOf(toBlock);
    if (from === undefined || to === undefined) return forwarded();
    const { maxLogRange, maxLogs } = faults;
    if (maxLogRange !== undefined && dialect.range && to - from + 1 > maxLogRange) {
      return refused(call, dialect.range(maxLogRange, from, to));
    }
    const answer = await forwarded();
    const logs = answer.body.result;
    if (maxLogs === undefined || !dialect.results || !Array.isArray(logs)) return answer;
    if (logs.length <= maxLogs) return answer;
    // Logs come in chain order: the range ending before the block of the first one too many.
    const first = (logs[maxLogs] as { blockNumber: string }).blockNumber;
    return refused(call, dialect.results(maxLogs, from, Math.max(from, Number(first) - 1)));
  }

  async function answer(call: RpcCall): Promise<Answer> {
    try {
      const { chainId, head, notFound } = faults;
      if (notFound?.includes(call.method)) return made(call, null);
      if (chainId !== undefined && call.method === 'eth_chainId') return made(call, hex(chainId));
      if (chainId !== undefined && call.method === 'net_version') return made(call, `${chainId}`);
      if (head && call.method === 'eth_blockNumber') return made(call, hex(await servedHead(head)));
      if (head && call.method === 'eth_getBlockByNumber' && call.params?.[0] === 'latest') {
        const params = [hex(await servedHead(head)), ...call.params.slice(1)];
        return { outcome: 'rewritten', ...(await upstream({ ...call, params })) };
      }
      if (call.method === 'eth_getLogs') return await getLogs(call);
      return { outcome: 'forwarded', ...(await upstream(call)) };
    } catch (error) {
      const message = `upstream failed: ${error instanceof Error ? error.message : String(error)}`;
      return {
        outcome: 'failed',
        status: 502,
        body: { jsonrpc: '2.0', id: call.id ?? null, error: { code: -32603, message } },
      };
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(request));
    } catch {
      send(response, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error' },
      });
      return;
    }
    const batch = Array.isArray(parsed);
    const calls: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    if (!calls.every(isCall)) {
      send(response, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request' },
      });
      return;
    }
    for (const call of calls) received.set(call.method, (received.get(call.method) ?? 0) + 1);
    // Every pattern sees every call, whichever fault wins.
    const [dropped, delayed, limited] = [drops(calls), delays(calls), limits(calls)];
    if (delayed && faults.delay) {
      note(calls, 'delayed');
      await sleep(faults.delay.ms);
    }
    if (dropped) {
      note(calls, 'dropped');
      return; // the connection stays open, unanswered
    }
    if (limited && dialect.rateLimit) {
      const retryAfter = faults.status429?.retryAfter ?? 1;
      const { status, error } = dialect.rateLimit(retryAfter);
      note(calls, 'status429');
      const id = batch ? null : (calls[0]?.id ?? null);
      send(response, status, { jsonrpc: '2.0', id, error }, { 'retry-after': `${retryAfter}` });
      return;
    }
    const answers = await Promise.all(
      calls.map(async (call) => {
        const answered = await answer(call);
        note([call], answered.outcome);
        return answered;
      }),
    );
    // A batch goes back whole in one HTTP 200; a single call keeps its answer's status.
    const [only] = answers;
    if (batch)
      send(
        response,
        200,
        answers.map((a) => a.body),
      );
    else if (only) send(response, only.status, only.body);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32603, message: String(error) },
      });
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      const words = DIALECTS[next.dialect ?? 'infura'];
      const needs: [unknown, keyof DialectAnswers][] = [
        [next.maxLogRange, 'range'],
        [next.maxLogs, 'results'],
        [next.status429, 'rateLimit'],
      ];
      for (const [fault, refusal] of needs) {
        if (fault !== undefined && !words[refusal]) {
          throw new Error(`no ${refusal} refusal is known in the ${next.dialect} dialect`);
        }
      }
      faults = next;
      dialect = words;
      drops = selector(next.drop);
      delays = selector(next.delay);
      limits = selector(next.status429);
    },
    calls(method) {
      if (method !== undefined) return received.get(method) ?? 0;
      return [...received.values()].reduce((sum, n) => sum + n, 0);
    },
    outcomes(method) {
      const counts: Partial<Record<Outcome, number>> = {};
      for (const fate of fates) {
        if (method === undefined || fate.method === method) {
          counts[fate.outcome] = (counts[fate.outcome] ?? 0) + 1;
        }
      }
      return counts;
    },
    resetCounts() {
      received.clear();
      fates.length = 0;
    },
    vanish: stop,
    reappear: () => listen(port),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (server.listening) await stop();
    },
  };
}

/**
 * A provider as faulty as real ones are: one answer in four a 429, log ranges over 3 blocks
 * refused, its head 2 blocks behind the other's, and receipts it has "not seen yet".
 */
export const FAULTY: Faults = {
  dialect: 'alchemy',
  status429: { fraction: 0.25, seed: 7 },
  maxLogRange: 3,
  head: { behind: 2 },
  notFound: ['eth_getTransactionReceipt'],
};

/**
 * One pass (a watcher's) that completes, as a job's passes every few seconds come to: a pass the
 * providers fail (the faulty one backing off while the other's "not found" needs its word) moves
 * nothing, and the next one reads on from the same cursor.
 */
export async function passThrough<T>(pass: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pass();
    } catch (error) {
      if (!(error instanceof ChainUnavailableError) || attempt >= 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
