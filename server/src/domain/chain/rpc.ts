import {
  BaseError,
  createPublicClient,
  createTransport,
  fallback,
  http,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  type EIP1193RequestFn,
  type PublicClient,
  type Transport,
} from 'viem';
import { ChainConfigError } from './adapter';

// The JSON-RPC providers of one chain, as every reader and sender of that chain uses them: one
// pool per chain and process, one viem client over it.
//
// A chain may have several providers (`https://a|https://b`). viem's `fallback` transport tries
// them in the order its ranking keeps (latency and stability, sampled every RANK_INTERVAL_MS), and
// each provider is wrapped in a guard that knows what real providers do wrong:
// - **It answers for another chain**: its chain id is read before its first use, and a mismatch
//   sets it aside for good (`verify` makes that a start-up error with the URL's host named).
// - **It is down, slow or rate-limited** (HTTP 429, 5xx, a timeout, a refused connection): it is
//   set aside for a backoff that doubles with each failure in a row (1 s up to 60 s, with jitter),
//   and the next provider answers meanwhile.
// - **It lags**: more than MAX_LAG_BLOCKS behind the best head the pool has seen, or behind the
//   block a call asks for. A provider that has not reached a block answers an empty log range or
//   "no such block" as if nothing were there, which would move the watcher past unread blocks; the
//   guard refuses such a call instead (after reading its head again), so another provider reads
//   it, or the call fails and the watcher's cursor stays where it was.
// - **It refuses a log range as too wide, or its result as too large**: the range is halved until
//   it passes, and the width that passed is remembered for that provider (every provider phrases
//   the refusal its own way: RANGE_REFUSAL).
// Nothing here ever turns an error into an empty answer: a call either reads what was asked or
// throws, and the callers (the adapter, the watcher) then leave their cursors where they were.

/** How far behind the best head a provider may be before calls skip it. */
export const MAX_LAG_BLOCKS = 10;
/** How often the ranking samples every provider (its head, its latency). */
export const RANK_INTERVAL_MS = 10_000;
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
/** Requests made together go to a provider as one JSON-RPC batch of at most this many. */
export const RPC_BATCH_SIZE = 20;
/** A lagging provider's head is read again at most this often. */
const HEAD_REFRESH_MS = 1_000;

/**
 * The many ways providers refuse a log query as too wide or too large: geth and BSC ("exceed
 * maximum block range: 5000"), Infura ("query returned more than 10000 results"), Alchemy ("Log
 * response size exceeded", "up to a 2K block range"), QuickNode ("eth_getLogs is limited to a
 * 10,000 range"), Ankr and others ("block range is too wide", "range too large", "too many
 * logs"), and a geth that will not read past its head ("block range extends beyond current head").
 */
const RANGE_REFUSAL =
  /block range|range (is )?too (large|wide|big)|too (large|wide) (a )?range|more than \d[\d,]* (results|logs)|response size|too many (results|logs|blocks)|is limited to|limit(ed)? (of|to) \d|result (set )?(is )?too large|query timeout|exceed(s|ed)? (the )?max/i;

/**
 * What a provider did that /metrics counts: a call that failed on it, a request it could not
 * answer while the pool has another provider to ask (a failover), a log range it refused.
 */
export type ProviderEvent = 'error' | 'failover' | 'range_refused';
type ProviderListener = (event: ProviderEvent, chainId: number, provider: string) => void;
const listeners = new Set<ProviderListener>();

/** Calls `listener` on every provider event of the process; answers how to stop. */
export function onProviderEvent(listener: ProviderListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export class ProviderSetAsideError extends Error {
  constructor(provider: string, why: string) {
    super(`RPC provider ${provider} is set aside: ${why}`);
    this.name = 'ProviderSetAsideError';
  }
}

/** What /metrics and /healthz read about one provider. */
export interface ProviderStatus {
  chainId: number;
  /** The URL's host (and port): never its path or query, which often carry an API key. */
  provider: string;
  head: number | null;
  /** Why calls skip it now, if they do. */
  setAside: string | null;
  /** Calls that failed on it (each one passed on to the next provider, if any). */
  errors: number;
  /** Log ranges it refused as too wide or too large (each halved and asked again). */
  rangeRefusals: number;
  /** The widest log range it has answered since its last refusal; null before any refusal. */
  learnedLogRange: number | null;
}

type RawRequest = (args: { method: string; params?: unknown }) => Promise<unknown>;

interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
  [key: string]: unknown;
}

const hex = (n: number) => `0x${n.toString(16)}`;
const blockOf = (tag: unknown): number | null =>
  typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag) ? Number.parseInt(tag, 16) : null;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}

/** The texts of an error (and of its causes) that may quote the URL it called. */
const QUOTING = ['message', 'shortMessage', 'details', 'url'] as const;

/**
 * `error` (and its causes) with `url` replaced by `label` wherever it is quoted: a provider's URL
 * carries its API key (Infura's /v3/<key>, Alchemy's /v2/<key>, a ?key=), and viem's errors quote
 * it whole, so every log line of a failed call would hold it.
 */
function withoutUrl(error: unknown, url: string, label: string): unknown {
  const forms = new Set([url]);
  try {
    forms.add(new URL(url).href);
  } catch {
    // Not a URL: quoted as given, if at all.
  }
  const scrub = (text: string) => [...forms].reduce((t, form) => t.split(form).join(label), text);
  for (
    let e: unknown = error, depth = 0;
    e instanceof Error && depth < 8;
    e = e.cause, depth += 1
  ) {
    const fields = e as unknown as Record<string, unknown>;
    for (const key of QUOTING) {
      const value = fields[key];
      if (typeof value === 'string') fields[key] = scrub(value);
    }
    const meta = fields.metaMessages;
    if (Array.isArray(meta)) {
      fields.metaMessages = meta.map((m: unknown) => (typeof m === 'string' ? scrub(m) : m));
    }
  }
  return error;
}

/** The question's own fault, whatever the HTTP status: the provider is fine. */
const QUESTION_FAULT = /revert|nonce|insufficient funds|underpriced|intrinsic gas|gas limit/i;

/** A rate limit in a JSON-RPC error's own words (some providers answer one with HTTP 200). */
const RATE_LIMITED = /rate limit|request limit|rate exceeded|capacity|too many requests/i;

/**
 * The provider failing rather than the question: HTTP 429 or 5xx, a rate limit in any words, a
 * timeout, a refused or broken connection, an answer that is not JSON-RPC.
 */
function isOutage(error: unknown): boolean {
  if (error instanceof ProviderSetAsideError) return false;
  if (!(error instanceof BaseError)) return error instanceof Error;
  const found = error.walk(
    (e) =>
      e instanceof HttpRequestError || e instanceof RpcRequestError || e instanceof TimeoutError,
  );
  if (found instanceof TimeoutError) return true;
  if (found instanceof HttpRequestError) return found.status === undefined || found.status >= 429;
  if (found instanceof RpcRequestError) {
    // Some providers answer a question's own fault (a revert, a nonce) with HTTP 500.
    if (QUESTION_FAULT.test(found.details)) return false;
    if (found.status !== undefined && found.status >= 429) return true;
    return found.code === 429 || RATE_LIMITED.test(found.details);
  }
  return false;
}

/** Lookups whose "not found" (null) another provider may contradict. */
const LOOKUPS = new Set([
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_getBlockByHash',
]);

/** A node that already has a transaction sent to it again (a rebroadcast). */
const ALREADY_KNOWN = /already known|known transaction|already imported/i;

/** What one provider made of a signed transaction. */
export type SendOutcome =
  | { kind: 'accepted'; hash: string }
  | { kind: 'known' }
  /** It answered, refusing the transaction (a JSON-RPC error: nonce, funds, gas...). */
  | { kind: 'refused'; why: string }
  /** It did not answer, or not in a way that says it refused: it may have the transaction. */
  | { kind: 'unavailable'; why: string };

/** A JSON-RPC error the node answered (not a transport failure): the question's fault. */
function isJsonRpcRefusal(error: BaseError): boolean {
  return error.walk((e) => e instanceof RpcRequestError) !== null;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? text;
}

/** A node that will not read past its head: it lags, the range is not too wide. */
const BEYOND_HEAD =
  /beyond (the )?(current )?head|not (yet )?(reached|available)|header not found/i;

function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError) || isOutage(error)) return false;
  if (error.walk((e) => BEYOND_HEAD.test(`${(e as BaseError).details ?? ''}`)) !== null) {
    return false;
  }
  return (
    error.walk((e) => {
      const text = `${(e as BaseError).details ?? ''} ${(e as Error).message}`;
      return RANGE_REFUSAL.test(text);
    }) !== null
  );
}

class Provider {
  readonly label: string;
  private readonly raw: RawRequest;
  head: number | null = null;
  private headReadAt = 0;
  private failures = 0;
  private coolUntil = 0;
  private wrongChain: string | null = null;
  private chainChecked: Promise<void> | null = null;
  errors = 0;
  rangeRefusals = 0;
  learnedLogRange: number | null = null;

  constructor(
    url: string,
    index: number,
    private readonly pool: ProviderPool,
    timeoutMs: number,
  ) {
    this.label = `${index + 1}:${hostOf(url)}`;
    const transport = http(url, {
      timeout: timeoutMs,
      retryCount: 0,
      batch: { batchSize: RPC_BATCH_SIZE },
    })({
      retryCount: 0,
    });
    const request = transport.request as unknown as RawRequest;
    const label = `[RPC ${this.label}]`;
    this.raw = (args) =>
      request(args).catch((error: unknown) => {
        throw withoutUrl(error, url, label);
      });
  }

  /** Whether it serves the right chain: its head then counts for the others, failing or not. */
  ofThisChain(): boolean {
    return this.wrongChain === null;
  }

  /** Whether it is set aside at `now` for failing (backing off). */
  coolingAt(now: number): boolean {
    return now < this.coolUntil;
  }

  /** Why calls skip it now; null when they do not. */
  setAside(now: number): string | null {
    if (this.wrongChain) return this.wrongChain;
    if (now < this.coolUntil) {
      return `failing, tried again in ${Math.ceil(this.coolUntil - now)} ms`;
    }
    // Behind a provider that can be asked now: one failing with a higher head it gave earlier (a
    // head a reorg took back, say) leaves the chain to this one rather than to no one.
    const best = this.pool.bestHead(this, now);
    if (this.head !== null && best !== null && best - this.head > MAX_LAG_BLOCKS) {
      return `${best - this.head} blocks behind`;
    }
    return null;
  }

  /** Its chain id, read once (again after a failed read) before anything else is asked. */
  verifyChain(): Promise<void> {
    this.chainChecked ??= (async () => {
      const answer = blockOf(await this.raw({ method: 'eth_chainId' }));
      // An answer that is no chain id says nothing of the chain: asked again next time.
      if (answer === null) throw new Error(`${this.label} answered eth_chainId with no chain id`);
      if (answer !== this.pool.chainId) {
        this.wrongChain = `it serves chain ${String(answer)}, not ${this.pool.chainId}`;
      }
    })().catch((error: unknown) => {
      this.chainChecked = null;
      throw error;
    });
    return this.chainChecked;
  }

  wrongChainReason(): string | null {
    return this.wrongChain;
  }

  /** Its head, read now (never a cached one): what the ranking samples. */
  async readHead(): Promise<number> {
    const head = blockOf(await this.raw({ method: 'eth_blockNumber' }));
    if (head === null) throw new Error(`${this.label} answered eth_blockNumber with no number`);
    this.headReadAt = Date.now();
    this.head = head;
    return head;
  }

  /**
   * Whether it lags behind `block`: it has not reached it (its head read again if it had not last
   * time) while another provider has. A block past every head is no one's to read: the question
   * goes through, and the answer says so ("no such block").
   */
  private async behind(block: number): Promise<boolean> {
    if (this.head !== null && this.head >= block) return false;
    if (this.head === null || Date.now() - this.headReadAt >= HEAD_REFRESH_MS) {
      if ((await this.readHead()) >= block) return false;
    }
    const best = this.pool.bestHead(this);
    return best !== null && best >= block;
  }

  async request(method: string, params: unknown): Promise<unknown> {
    try {
      const aside = this.setAside(Date.now());
      if (aside) throw new ProviderSetAsideError(this.label, aside);
      return await this.counted(async () => {
        await this.verifyChain();
        if (this.wrongChain) throw new ProviderSetAsideError(this.label, this.wrongChain);
        return this.ask(method, params);
      });
    } catch (error) {
      if (this.pool.size > 1) this.emit('failover');
      throw error;
    }
  }

  private emit(event: ProviderEvent): void {
    for (const listener of listeners) listener(event, this.pool.chainId, this.label);
  }

  /** A ranking sample: its chain, then its head read now; set aside, it fails. */
  async sample(): Promise<void> {
    await this.counted(async () => {
      await this.verifyChain();
      await this.readHead();
    });
    const aside = this.setAside(Date.now());
    if (aside) throw new ProviderSetAsideError(this.label, aside);
  }

  /** `work`'s failure counted, and an outage setting the provider aside for a backoff. */
  private async counted<T>(work: () => Promise<T>): Promise<T> {
    try {
      const answer = await work();
      this.failures = 0;
      return answer;
    } catch (error) {
      if (!(error instanceof ProviderSetAsideError)) {
        this.errors += 1;
        this.emit('error');
      }
      // One failure in a row per backoff: the calls of one batch, or made together, fail
      // together, and count once. A lone provider is never set aside: there is no one else to ask.
      if (isOutage(error) && this.pool.size > 1 && Date.now() >= this.coolUntil) {
        const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.failures);
        this.failures += 1;
        // Jitter: half to all of the backoff, so processes sharing a provider do not return at once.
        this.coolUntil = Date.now() + backoff * (0.5 + Math.random() / 2);
      }
      throw error;
    }
  }

  private async ask(method: string, params: unknown): Promise<unknown> {
    const list = Array.isArray(params) ? (params as unknown[]) : [];
    if (method === 'eth_blockNumber') {
      const head = await this.readHead();
      return hex(head);
    }
    if (method === 'eth_getBlockByNumber') {
      const block = blockOf(list[0]);
      if (block !== null && (await this.behind(block))) {
        throw new ProviderSetAsideError(this.label, `it has not reached block ${block}`);
      }
    }
    if (method === 'eth_getLogs') {
      const filter = (list[0] ?? {}) as LogFilter;
      const from = blockOf(filter.fromBlock);
      const to = blockOf(filter.toBlock);
      if (filter.blockHash === undefined && from !== null && to !== null && from <= to) {
        if (await this.behind(to)) {
          throw new ProviderSetAsideError(this.label, `it has not reached block ${to}`);
        }
        return this.logs(filter, from, to);
      }
    }
    const answer = await this.raw({ method, params });
    // "Not found" from one provider may only mean it has not seen it yet (or pruned it): the
    // watcher would take it for a reorg. The others are asked before it is believed.
    if (answer === null && LOOKUPS.has(method))
      return this.pool.lookElsewhere(this, method, params);
    return answer;
  }

  /** `method` asked of it directly (no one else asked on "not found"), its failure counted. */
  lookup(method: string, params: unknown): Promise<unknown> {
    const aside = this.setAside(Date.now());
    if (aside) return Promise.reject(new ProviderSetAsideError(this.label, aside));
    return this.counted(async () => {
      await this.verifyChain();
      if (this.wrongChain) throw new ProviderSetAsideError(this.label, this.wrongChain);
      return this.raw({ method, params });
    });
  }

  /**
   * A signed transaction sent to it: accepted, known already, refused (it answered a JSON-RPC
   * error), or unavailable (no answer that says it refused). Set aside for failing, it is asked
   * all the same: sending the same bytes twice is harmless, and one that failed a read may take
   * it. One of another chain is not asked.
   */
  async send(raw: string): Promise<SendOutcome> {
    try {
      await this.verifyChain();
      if (this.wrongChain) return { kind: 'unavailable', why: this.wrongChain };
      const hash = await this.counted(() =>
        this.raw({ method: 'eth_sendRawTransaction', params: [raw] }),
      );
      return { kind: 'accepted', hash: String(hash) };
    } catch (error) {
      const text = error instanceof BaseError ? `${error.details} ${error.message}` : String(error);
      if (ALREADY_KNOWN.test(text)) return { kind: 'known' };
      if (isOutage(error) || !(error instanceof BaseError) || !isJsonRpcRefusal(error)) {
        return { kind: 'unavailable', why: firstLine(text) };
      }
      return { kind: 'refused', why: firstLine(text) };
    }
  }

  /** from..to in ranges it accepts, halving a refused one; the width that passed is kept. */
  private async logs(filter: LogFilter, from: number, to: number): Promise<unknown[]> {
    const out: unknown[] = [];
    for (let start = from; start <= to;) {
      const span = Math.min(this.learnedLogRange ?? Number.MAX_SAFE_INTEGER, to - start + 1);
      const end = start + span - 1;
      try {
        const logs = await this.raw({
          method: 'eth_getLogs',
          params: [{ ...filter, fromBlock: hex(start), toBlock: hex(end) }],
        });
        if (!Array.isArray(logs))
          throw new Error(`${this.label} answered eth_getLogs with no list`);
        out.push(...(logs as unknown[]));
        start = end + 1;
      } catch (error) {
        if (span === 1 || !isRangeRefusal(error)) throw error;
        this.rangeRefusals += 1;
        this.emit('range_refused');
        this.learnedLogRange = Math.max(1, Math.floor(span / 2));
      }
    }
    return out;
  }

  /** The transport viem's fallback takes: requests go through the guard above. */
  transport(): Transport {
    return () =>
      createTransport(
        {
          key: this.label,
          name: `RPC ${this.label}`,
          type: 'guardedHttp',
          retryCount: 0,
          request: (async ({ method, params }: { method: string; params?: unknown }) =>
            this.request(method, params)) as EIP1193RequestFn,
        },
        { provider: this },
      );
  }
}

export interface PoolOptions {
  timeoutMs?: number;
  /** How often the ranking samples the providers (RANK_INTERVAL_MS unless said). */
  rankIntervalMs?: number;
}

/** One chain's providers: see above. */
export class ProviderPool {
  private readonly providers: Provider[];
  private closed = false;
  readonly client: PublicClient;

  constructor(
    readonly chainId: number,
    urls: readonly string[],
    options: PoolOptions = {},
  ) {
    if (urls.length === 0) throw new ChainConfigError(`Chain ${chainId} has no RPC URL`);
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.providers = urls.map((url, i) => new Provider(url, i, this, timeoutMs));
    const guarded = this.providers.map((p) => p.transport());
    const transport =
      guarded.length === 1 && guarded[0]
        ? guarded[0]
        : fallback(guarded, {
            // The ranking may reorder the providers while a request is in flight, and the
            // fallback takes the newest order for its next attempt: a provider that just failed,
            // now ranked last, could be asked again and end the request. One retry of the whole
            // request starts over in the new order.
            retryCount: 1,
            retryDelay: 100,
            rank: {
              interval: options.rankIntervalMs ?? RANK_INTERVAL_MS,
              sampleCount: 6,
              timeout: timeoutMs,
              ping: ({ transport: sampled }) => this.sample(sampled),
            },
          });
    // cacheTime 0: a read must see the newest block, never one cached a few seconds ago.
    this.client = createPublicClient({ cacheTime: 0, transport });
  }

  get size(): number {
    return this.providers.length;
  }

  /** A ranking sample: the provider's head read now; set aside, it counts as a failure. */
  private sample(sampled: ReturnType<Transport>): Promise<unknown> {
    // A closed pool stops the ranking's loop: it waits on an answer that never comes.
    if (this.closed) return new Promise<never>(() => undefined);
    const provider = (sampled.value as { provider?: Provider } | undefined)?.provider;
    if (!provider) return Promise.reject(new Error('Not one of the pool’s providers'));
    return provider.sample();
  }

  /**
   * The highest head the other providers of this chain answered last (failing or not: a head
   * one gave before a 429 is still a block that exists): what `provider` is behind when it has
   * not reached it. Its own earlier heads do not count: a chain's head steps back in a reorg.
   * With `usableAt`, only those of providers not backing off then.
   */
  bestHead(provider: Provider, usableAt?: number): number | null {
    let best: number | null = null;
    for (const other of this.providers) {
      if (other === provider || other.head === null || !other.ofThisChain()) continue;
      if (usableAt !== undefined && other.coolingAt(usableAt)) continue;
      if (best === null || other.head > best) best = other.head;
    }
    return best;
  }

  /**
   * `method` asked of the other providers after `asked` answered "not found": the first answer
   * found, or null when every one of them says "not found" too. One that cannot be asked (set
   * aside, failing) leaves the absence unconfirmed: the call fails, and is made again later.
   */
  async lookElsewhere(asked: Provider, method: string, params: unknown): Promise<unknown> {
    for (const other of this.providers) {
      if (other === asked || !other.ofThisChain()) continue;
      const answer = await other.lookup(method, params);
      if (answer !== null) return answer;
    }
    return null;
  }

  /**
   * A signed transaction sent to every provider at once. Whatever one of them accepted (or
   * already had) is sent; it is refused only when every provider answered refusing it. When one
   * did not answer, no one can say it was not sent: `unsure`, and the caller must not free its
   * nonce.
   */
  async broadcast(
    raw: string,
  ): Promise<
    | { sent: true }
    | { sent: false; refused: true; why: string }
    | { sent: false; refused: false; why: string }
  > {
    const outcomes = await Promise.all(this.providers.map((p) => p.send(raw)));
    if (outcomes.some((o) => o.kind === 'accepted' || o.kind === 'known')) return { sent: true };
    const unavailable = outcomes.find((o) => o.kind === 'unavailable');
    if (unavailable) return { sent: false, refused: false, why: unavailable.why };
    const refusal = outcomes.find((o) => o.kind === 'refused');
    return { sent: false, refused: true, why: refusal?.why ?? 'refused' };
  }

  /**
   * Every provider's chain id, read now: one serving another chain is a configuration error
   * naming it. One that cannot be reached is checked before its first use instead.
   */
  async verify(): Promise<void> {
    await Promise.allSettled(this.providers.map((p) => p.verifyChain()));
    const wrong = this.providers.filter((p) => p.wrongChainReason() !== null);
    if (wrong.length > 0) {
      throw new ChainConfigError(
        wrong.map((p) => `RPC provider ${p.label} is refused: ${p.wrongChainReason()}`).join('; '),
      );
    }
  }

  status(): ProviderStatus[] {
    const now = Date.now();
    return this.providers.map((p) => ({
      chainId: this.chainId,
      provider: p.label,
      head: p.head,
      setAside: p.setAside(now),
      errors: p.errors,
      rangeRefusals: p.rangeRefusals,
      learnedLogRange: p.learnedLogRange,
    }));
  }

  close(): void {
    this.closed = true;
  }
}

/** The URLs of one chain's setting: one, or several separated by `|`. */
export function providerUrls(setting: string): string[] {
  return setting
    .split('|')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

const pools = new Map<string, ProviderPool>();

/** The process's pool for `chainId` over `setting`'s URLs (one per chain and setting). */
export function providerPool(
  chainId: number,
  setting: string,
  options?: PoolOptions,
): ProviderPool {
  const key = `${chainId}|${providerUrls(setting).join('|')}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new ProviderPool(chainId, providerUrls(setting), options);
    pools.set(key, pool);
  }
  return pool;
}

/** Stops every pool's ranking and forgets them (a process closing, a test file ending). */
export function closeProviderPools(): void {
  for (const pool of pools.values()) pool.close();
  pools.clear();
}
