import { isIP } from 'node:net';
import { TEST_CHAIN_OF } from './domain/chain/paymentMethods';

export type NodeEnv = 'development' | 'production' | 'test';

/**
 * Which X-Forwarded-For entries name the client: none (false), those added by this many proxies
 * in front of the server, or those added by proxies at these addresses/CIDRs. Never all.
 */
export type TrustProxy = false | number | readonly string[];

export interface RateLimitConfig {
  /** Requests per window for every /api operation. */
  max: number;
  windowMs: number;
  /** Stricter budget for the sign-in operations (preLogin, login). */
  authMax: number;
  /** Requests per window for each API key on the gateway API (server/src/gateway). */
  gatewayMax: number;
  /** Requests per window from one client address to the checkout page and its status (/pay). */
  checkoutMax: number;
  /** Invoices per window one client address may make from payment links' pages (/l). */
  linkInvoiceMax: number;
  /** Requests per window from one client address to refunds' claim pages and forms (/refund). */
  refundClaimMax: number;
  /**
   * Failed API key checks (401) from one client address per `gatewayAuthFailureWindowMs` before
   * the gateway refuses that address (429), whatever key it sends, until the window ends.
   */
  gatewayAuthFailureMax: number;
  gatewayAuthFailureWindowMs: number;
}

/** Brute-force brakes on the sign-in steps (preLogin, login), on top of the request budget. */
export interface LoginGuardConfig {
  /**
   * Failed sign-in steps on one account (or unknown name) from one client address within the
   * window before that address gets 429 for that account; also each account's budget of failed
   * checks on the security pages.
   */
  accountMaxFailures: number;
  /** Failed sign-in steps from one client address, all accounts together, before 429. */
  ipMaxFailures: number;
  failureWindowMs: number;
  /** Consecutive failed steps that lock the account (until it expires or `user unlock`). */
  lockThreshold: number;
  lockMinutes: number;
}

/** A Chainlink price feed the rates read (domain/rates/), on a chain with a configured RPC. */
export interface ChainlinkFeedConfig {
  chainId: number;
  /** The feed's aggregator (proxy) contract. */
  address: string;
  /** The feed's heartbeat: a round older than this is stale and never prices an invoice. */
  heartbeatSeconds: number;
}

/** Where invoices' rates come from (domain/rates/), tried in this order: pegs, feeds, the table. */
export interface RatesConfig {
  /** RATE_PEGS: stablecoins' fixed USD prices, by asset (default USDT and USDC at 1). */
  pegs: ReadonlyMap<string, string>;
  /** CHAINLINK_FEEDS: by pair (`BNB/USD`), the feed that prices it. */
  chainlinkFeeds: ReadonlyMap<string, ChainlinkFeedConfig>;
  /** RATE_CACHE_MS: a process reuses a fresh rate this long before reading its source again. */
  cacheMs: number;
}

export interface Config {
  port: number;
  /** Server processes sharing PORT (server/src/cluster.ts); `auto`: one per core. */
  processes: number | 'auto';
  host: string;
  /** As given (relative to the working directory unless absolute). */
  dataDir: string;
  /** postgres://… switches the database from SQLite in DATA_DIR to PostgreSQL. */
  databaseUrl: string | undefined;
  /**
   * Directory of the uploaded images, as given; unset means DATA_DIR/uploads. Processes that
   * share a database must share it too (a network file system).
   */
  storageDir: string | undefined;
  nodeEnv: NodeEnv;
  isProduction: boolean;
  logLevel: string;
  /** Validate every response against openapi.yaml (500 on a mismatch). */
  responseValidation: boolean;
  /** Keep hot reads in memory per process (db/ownerChanges.ts); off: every read asks the database. */
  keptReads: boolean;
  sessionIdleMinutes: number;
  /** Absolute lifetime of a session from sign-in, however active it stays. */
  sessionMaxHours: number;
  rateLimit: RateLimitConfig;
  /** Reading the client address behind reverse proxies (rate limits, brakes, whitelists). */
  trustProxy: TrustProxy;
  loginGuard: LoginGuardConfig;
  /** Password reset requests per client IP per hour (domain/account/recovery.ts has the windows). */
  recoveryIpMax: number;
  /** Password reset requests per name per 15 minutes. */
  recoveryNameMax: number;
  /** Failed password resets (wrong code or pin) per account or unknown name per 15 minutes. */
  recoveryFailedResetMax: number;
  smtpUrl: string | undefined;
  /** Sender of the e-mails (sign-in codes). */
  mailFrom: string;
  chainRpcUrl: string | undefined;
  /** The local chain mines an empty block this often (ms); 0 mines only on demand. */
  localBlockMs: number;
  /**
   * Each server process reads every chain's head this often (ms) and runs the chain's watcher at
   * once on a new block (jobs/heads.ts); 0 leaves the watcher to its own interval.
   */
  headPollMs: number;
  /**
   * Deposit and invoice addresses derived ahead of need, per branch (domain/chain/addressPool.ts);
   * 0 derives each one when it is handed out.
   */
  addressPoolSize: number;
  /** A checkout page open without JavaScript reloads itself this often (s) while it can change. */
  checkoutRefreshSeconds: number;
  /**
   * How long past its expiry an invoice waits for a chain its watcher has not read that far
   * (domain/invoices/expiry.ts); then it expires on the server's clock.
   */
  invoiceExpiryMaxWaitMinutes: number;
  /**
   * CHAIN_LAG_DEGRADED_SECONDS: a chain whose watcher has read nothing newer than this (by the
   * last read block's time) is named degraded by /healthz.
   */
  chainLagDegradedSeconds: number;
  /**
   * JSON-RPC endpoints of further EVM chains, by chain id (CHAIN_RPC_URLS=`1=https://…,137=…`;
   * BALANCE_RPC_URLS is its older name): the gateway's watcher reads that chain's deposits there,
   * the Operational Wallet its balances. A chain without one runs on the local chain. BNB Smart
   * Chain uses CHAIN_RPC_URL.
   */
  chainRpcUrls: ReadonlyMap<number, string>;
  /**
   * CHAIN_TOKEN_CONTRACTS=`97=0x…,11155111=0x…`: where a chain served over CHAIN_RPC_URLS holds
   * its USDT, when not at the payment method's listed (mainnet) contract. A test network pointed
   * at a public testnet needs one: no mainnet contract exists there.
   */
  chainTokenContracts: ReadonlyMap<number, string>;
  usdtContract: string | undefined;
  walletXpub: string | undefined;
  /** When absent, the runtime generates DATA_DIR/secret.key on first start. */
  secretKey: string | undefined;
  /** Bearer token GET /metrics requires; unset, /metrics is open (keep it off the public network). */
  metricsToken: string | undefined;
  webhooks: WebhookConfig;
  /** The background jobs' worker in each server process (server/src/jobs/worker.ts). */
  jobs: JobsConfig;
  /** API_LOG_RETENTION_DAYS: API Logs rows older than this are deleted. */
  apiLogRetentionDays: number;
  signer: SignerConfig;
  rates: RatesConfig;
  /**
   * SEED_DEMO: the start seeds the demo merchant (its sign-in, ledger, plan and Demo Store).
   * On by default in development and tests, off in production, where turning it on is refused.
   */
  seedDemo: boolean;
}

/** The signer process (server/src/signer) and the money it moves. */
export interface SignerConfig {
  /** SIGNER_SOCKET: its unix socket, or `tls://host:port` (another host); unset, DATA_DIR/signer.sock. */
  socket: string | undefined;
  /** SIGNER_TLS_CA / _CERT / _KEY: PEM files of the private CA and this process's own pair (tls:// only). */
  tls: { ca: string; cert: string; key: string } | undefined;
  /** SIGNER_SEED_FILE: the mnemonic, for the signer only (production); the web refuses to read it. */
  seedFile: string | undefined;
  /** SETTINGS_HOLD_HOURS: a changed payout address or IP whitelist waits this long. */
  holdHours: number;
  /** GATEWAY_FEE_ADDRESS: where sweeps send the gateway's fee (EVM); unset, no fee leg. */
  feeAddress: string | undefined;
  /** SWEEP_MIN: the smallest balance swept, in the asset's units; unset, the method's minimum. */
  sweepMin: string | undefined;
  /** GAS_TOPUP_CAP: the most native coin one deposit's gas top-ups may total. */
  gasTopUpCap: string;
  /** TX_REPLACE_AFTER_MS: a transaction not mined this long is replaced at its nonce. */
  replaceAfterMs: number;
  /**
   * SIGNER_REQUEST_KEY: the key (32 bytes, hex or base64) both processes MAC money-out requests
   * with, for hosts that keep it elsewhere than a file; unset, the key file is used.
   */
  requestKey: Buffer | undefined;
  /**
   * SIGNER_REQUEST_KEY_FILE: the key's file (owner-only), as given; unset,
   * DATA_DIR/signer-request.key. The signer creates it when missing; so does the web process
   * outside production.
   */
  requestKeyFile: string | undefined;
  /** OPERATOR_EMAIL: where the signer sends its alerts (a refused request); unset, it only logs. */
  operatorEmail: string | undefined;
  /**
   * SIGNER_STORE_DIR: the signer's own store (signer/server/store.ts), as given; unset,
   * DATA_DIR/signer. On the signer's host; the web process never opens it.
   */
  storeDir: string | undefined;
  /**
   * SIGNER_HOLD_HOURS: the signer's own hold, from its own clock, on a changed payout address or
   * IP whitelist (SETTINGS_HOLD_HOURS is what the portal shows until the signer's time is known).
   */
  signerHoldHours: number;
  /**
   * SIGNER_APPROVAL_HOURS: how long money out held beyond a daily cap waits for the operator's
   * decision; unanswered, the signer refuses it.
   */
  signerApprovalHours: number;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: webhooks may go to loopback/private addresses (development, tests). */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCHEDULE: waits before each retry, in ms; unset, the default schedule. */
  retryScheduleMs: number[] | undefined;
  /** WEBHOOK_BODY_RETENTION_DAYS: events' bodies and answers' excerpts go after this long. */
  bodyRetentionDays: number;
  /** WEBHOOK_TEST_EVENTS_PER_MINUTE: Send test event's budget per app (portal and gateway). */
  testEventsPerMinute: number;
}

/**
 * The webhook deliveries' slots. A delivery waits up to 10 s for its receiver, so a receiver
 * that never answers holds a slot that long per attempt; the deliveries have slots of their own
 * (the chain watchers, crediting and money out never wait for them), and one app holds at most
 * a few of them however many of its deliveries are due, so the other apps' deliveries go on.
 */
export interface JobsConfig {
  /** WEBHOOK_CONCURRENCY: deliveries one server process makes at once. */
  webhookSlots: number;
  /** WEBHOOK_APP_CONCURRENCY: one app's deliveries in flight at once, all processes together. */
  webhookSlotsPerApp: number;
}

/** Config after the runtime has resolved what needs the filesystem. */
export interface ResolvedConfig extends Config {
  dataDir: string;
  /** Absolute, the default applied. */
  storageDir: string;
  secretKey: string;
  /** The key money-out requests are MACed with (signer/client/requestKey.ts). */
  signerRequestKey: Buffer;
}

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {}

function str(env: Env, key: string): string | undefined {
  const v = env[key]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function int(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = str(env, key);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${key} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${key} must be between ${min} and ${max}`);
  return n;
}

function processCount(env: Env): Config['processes'] {
  const raw = str(env, 'PROCESSES');
  return raw === undefined || raw === 'auto' ? 'auto' : int(env, 'PROCESSES', 1, 1, 256);
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = str(env, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got '${raw}'`);
}

/** One chain's providers: one http(s) URL, or several separated by `|` (domain/chain/rpc.ts). */
function isProviderList(setting: string): boolean {
  const urls = setting.split('|');
  return urls.every((url) => /^https?:\/\/[^|\s]+$/i.test(url) && URL.canParse(url));
}

/**
 * `id=urls` pairs separated by commas; every id a chain id, its urls http(s), several separated
 * by `|` (the chain's providers, in the order tried first).
 */
function rpcUrls(env: Env, key: string): ReadonlyMap<number, string> {
  const urls = new Map<number, string>();
  for (const pair of (str(env, key) ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const match = /^\s*(\d+)\s*=\s*(\S+)\s*$/.exec(pair);
    const url = match?.[2] ?? '';
    if (!match || !isProviderList(url)) {
      throw new ConfigError(
        `${key} takes chainId=http(s)-url pairs separated by commas (several URLs of one chain separated by |), got '${pair}'`,
      );
    }
    const chainId = Number(match[1]);
    if (urls.has(chainId)) throw new ConfigError(`${key} names chain ${chainId} twice`);
    if (chainId === 56) {
      throw new ConfigError(`${key}: BNB Smart Chain (56) is read over CHAIN_RPC_URL`);
    }
    if (chainId <= 0) throw new ConfigError(`${key}: Tron (${chainId}) is not an EVM chain`);
    urls.set(chainId, url);
  }
  return urls;
}

/** CHAIN_RPC_URLS, and BALANCE_RPC_URLS (its older name); a chain named in both is an error. */
function chainRpcUrls(env: Env): ReadonlyMap<number, string> {
  const urls = new Map(rpcUrls(env, 'CHAIN_RPC_URLS'));
  for (const [chainId, url] of rpcUrls(env, 'BALANCE_RPC_URLS')) {
    if (urls.has(chainId)) {
      throw new ConfigError(`CHAIN_RPC_URLS and BALANCE_RPC_URLS both name chain ${chainId}`);
    }
    urls.set(chainId, url);
  }
  return urls;
}

/**
 * CHAIN_TOKEN_CONTRACTS: `chainId=contract` pairs, each for a chain CHAIN_RPC_URLS serves (on
 * the local chain a token is where its method lists it); every test network CHAIN_RPC_URLS
 * points at a public testnet must have one.
 */
function chainTokenContracts(
  env: Env,
  served: ReadonlyMap<number, string>,
): ReadonlyMap<number, string> {
  const key = 'CHAIN_TOKEN_CONTRACTS';
  const contracts = new Map<number, string>();
  for (const pair of (str(env, key) ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const match = /^\s*(\d+)\s*=\s*(0x[0-9a-fA-F]{40})\s*$/.exec(pair);
    if (!match) {
      throw new ConfigError(
        `${key} takes chainId=contract-address pairs separated by commas, got '${pair}'`,
      );
    }
    const chainId = Number(match[1]);
    if (contracts.has(chainId)) throw new ConfigError(`${key} names chain ${chainId} twice`);
    if (chainId === 56) throw new ConfigError(`${key}: BNB Smart Chain's USDT is USDT_CONTRACT`);
    if (!served.has(chainId)) {
      throw new ConfigError(
        `${key} names chain ${chainId}, which CHAIN_RPC_URLS does not serve (on the local chain a token is where its payment method lists it)`,
      );
    }
    contracts.set(chainId, match[2] ?? '');
  }
  for (const chainId of TEST_CHAIN_OF.values()) {
    if (served.has(chainId) && !contracts.has(chainId)) {
      throw new ConfigError(
        `CHAIN_RPC_URLS points test network ${chainId} at a public testnet: ${key} must say where its USDT is there (${chainId}=0x…)`,
      );
    }
  }
  return contracts;
}

/** An IPv4/IPv6 address, or a CIDR other than /0. */
function isProxyAddress(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return (
    /^\d+$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128)
  );
}

/**
 * TRUST_PROXY: off, a hop count or a list of proxies. "Trust everything" (true, *) is refused:
 * it would let any client name its own address in X-Forwarded-For.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 1, 10);
  if (['true', 'yes', 'on', '*', 'all'].includes(raw.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY=${raw} would let any client pick its address in X-Forwarded-For: give the` +
        ' number of proxies in front of the server (e.g. 1) or their addresses/CIDRs.',
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY takes the number of proxies in front of the server (e.g. 1) or their` +
        ` addresses/CIDRs, comma-separated; never every address. Got '${wrong}'.`,
    );
  }
  return entries;
}

function nodeEnv(env: Env): NodeEnv {
  const raw = str(env, 'NODE_ENV') ?? 'development';
  if (raw === 'development' || raw === 'production' || raw === 'test') return raw;
  throw new ConfigError(`NODE_ENV must be development, production or test, got '${raw}'`);
}

function databaseUrl(env: Env): string | undefined {
  const url = str(env, 'DATABASE_URL');
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(
      'DATABASE_URL must be a postgres:// URL (unset, the database is SQLite in DATA_DIR)',
    );
  }
  return url;
}

function metricsToken(env: Env): string | undefined {
  const token = str(env, 'METRICS_TOKEN');
  // A bearer token is one word; a short one could be guessed, since /metrics is not rate-limited.
  if (token !== undefined && !/^\S{16,}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  return token;
}

/** `5s,5m,30m,2h`: a wait per retry (ms, s, m or h). */
function durations(env: Env, key: string): number[] | undefined {
  const raw = str(env, key);
  if (raw === undefined) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = raw.split(',');
  if (parts.length > 20) throw new ConfigError(`${key} takes at most 20 waits`);
  return parts.map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match) {
      throw new ConfigError(
        `${key} takes waits such as 5s,5m,2h separated by commas, got '${part}'`,
      );
    }
    return Number(match[1]) * (unit[match[2] ?? 'ms'] ?? 1);
  });
}

function webhookConfig(env: Env, isProduction: boolean): WebhookConfig {
  const allowPrivate = bool(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  // Private targets are for a developer's machine and the tests, never a deployment.
  if (allowPrivate && isProduction) {
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE is for development and tests, not production');
  }
  return {
    allowPrivate,
    retryScheduleMs: durations(env, 'WEBHOOK_RETRY_SCHEDULE'),
    bodyRetentionDays: int(env, 'WEBHOOK_BODY_RETENTION_DAYS', 60, 1, 36_500),
    testEventsPerMinute: int(env, 'WEBHOOK_TEST_EVENTS_PER_MINUTE', 5, 1, 1_000_000),
  };
}

const DECIMAL = /^\d{1,30}(\.\d{1,18})?$/;

function decimal(env: Env, key: string): string | undefined {
  const raw = str(env, key);
  if (raw !== undefined && !DECIMAL.test(raw)) {
    throw new ConfigError(`${key} must be a decimal amount such as 0.01, got '${raw}'`);
  }
  return raw;
}

/**
 * The signer on another host: TCP with mutual TLS, both sides holding a certificate of the
 * deployment's private CA. Its database must be the web process's: PostgreSQL.
 */
function signerTls(env: Env, socket: string | undefined): SignerConfig['tls'] {
  if (!socket?.startsWith('tls://')) return undefined;
  if (!/^tls:\/\/[^:/\s]+:\d{1,5}$/.test(socket)) {
    throw new ConfigError(`SIGNER_SOCKET must be a path or tls://host:port, got '${socket}'`);
  }
  if (databaseUrl(env) === undefined) {
    throw new ConfigError(
      'SIGNER_SOCKET=tls://… puts the signer on another host: it needs DATABASE_URL (PostgreSQL), as a SQLite file cannot be shared across hosts',
    );
  }
  const file = (key: string) => {
    const value = str(env, key);
    if (value === undefined)
      throw new ConfigError(`SIGNER_SOCKET=tls://… needs ${key} (a PEM file)`);
    return value;
  };
  return { ca: file('SIGNER_TLS_CA'), cert: file('SIGNER_TLS_CERT'), key: file('SIGNER_TLS_KEY') };
}

/** 32 bytes written as 64 hex digits or in base64; null for anything else. */
export function decodeRequestKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed, 'base64');
    if (key.length === 32) return key;
  }
  return null;
}

function requestKey(env: Env): Buffer | undefined {
  const raw = str(env, 'SIGNER_REQUEST_KEY');
  if (raw === undefined) return undefined;
  const key = decodeRequestKey(raw);
  if (!key) {
    throw new ConfigError('SIGNER_REQUEST_KEY must be 32 bytes, as 64 hex digits or in base64');
  }
  return key;
}

function email(env: Env, key: string): string | undefined {
  const raw = str(env, key);
  if (raw !== undefined && !/^[^\s@]+@[^\s@]+$/.test(raw)) {
    throw new ConfigError(`${key} must be an e-mail address, got '${raw}'`);
  }
  return raw;
}

function signerConfig(env: Env): SignerConfig {
  const feeAddress = str(env, 'GATEWAY_FEE_ADDRESS');
  if (feeAddress !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(feeAddress)) {
    throw new ConfigError(`GATEWAY_FEE_ADDRESS must be an EVM address, got '${feeAddress}'`);
  }
  const socket = str(env, 'SIGNER_SOCKET');
  return {
    socket,
    tls: signerTls(env, socket),
    seedFile: str(env, 'SIGNER_SEED_FILE'),
    holdHours: int(env, 'SETTINGS_HOLD_HOURS', 24, 0, 24 * 90),
    feeAddress,
    sweepMin: decimal(env, 'SWEEP_MIN'),
    gasTopUpCap: decimal(env, 'GAS_TOPUP_CAP') ?? '0.01',
    replaceAfterMs: int(env, 'TX_REPLACE_AFTER_MS', 120_000, 100, 24 * 3_600_000),
    requestKey: requestKey(env),
    requestKeyFile: str(env, 'SIGNER_REQUEST_KEY_FILE'),
    operatorEmail: email(env, 'OPERATOR_EMAIL'),
    storeDir: str(env, 'SIGNER_STORE_DIR'),
    signerHoldHours: int(env, 'SIGNER_HOLD_HOURS', 24, 0, 24 * 90),
    signerApprovalHours: int(env, 'SIGNER_APPROVAL_HOURS', 72, 1, 24 * 30),
  };
}

const ASSET = '[A-Z][A-Z0-9]{1,9}';

/** RATE_PEGS: `USDT=1,USDC=1` (the default); `none` turns pegs off. */
function ratePegs(env: Env): ReadonlyMap<string, string> {
  const raw = str(env, 'RATE_PEGS') ?? 'USDT=1,USDC=1';
  const pegs = new Map<string, string>();
  if (raw.toLowerCase() === 'none') return pegs;
  for (const entry of raw.split(',')) {
    const match = new RegExp(`^\\s*(${ASSET})\\s*=\\s*(\\d{1,12}(\\.\\d{1,18})?)\\s*$`).exec(entry);
    if (!match?.[1] || !match[2] || !/[1-9]/.test(match[2])) {
      throw new ConfigError(
        `RATE_PEGS takes ASSET=usd-price pairs separated by commas (USDT=1,USDC=1) or none, got '${entry}'`,
      );
    }
    if (pegs.has(match[1])) throw new ConfigError(`RATE_PEGS names ${match[1]} twice`);
    pegs.set(match[1], match[2]);
  }
  return pegs;
}

/** CHAINLINK_FEEDS: `BNB/USD=56:0x…:60,EUR/USD=1:0x…:86400` (pair=chain:aggregator:heartbeat s). */
function chainlinkFeeds(env: Env): ReadonlyMap<string, ChainlinkFeedConfig> {
  const feeds = new Map<string, ChainlinkFeedConfig>();
  for (const entry of (str(env, 'CHAINLINK_FEEDS') ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const match = new RegExp(
      `^\\s*(${ASSET})/USD\\s*=\\s*(\\d{1,10}):(0x[0-9a-fA-F]{40}):(\\d{1,6})\\s*$`,
    ).exec(entry);
    const heartbeat = Number(match?.[4] ?? 0);
    if (!match?.[1] || heartbeat < 1) {
      throw new ConfigError(
        `CHAINLINK_FEEDS takes ASSET/USD=chainId:aggregator:heartbeat-seconds entries separated by commas (BNB/USD=56:0x…:60), got '${entry}'`,
      );
    }
    const pair = `${match[1]}/USD`;
    if (feeds.has(pair)) throw new ConfigError(`CHAINLINK_FEEDS names ${pair} twice`);
    feeds.set(pair, {
      chainId: Number(match[2]),
      address: match[3] ?? '',
      heartbeatSeconds: heartbeat,
    });
  }
  return feeds;
}

/**
 * SEED_DEMO: the demo account signs in with a published password and holds money that never
 * arrived, so a production database never gets it, whatever the variable says.
 */
function seedDemo(env: Env, isProduction: boolean): boolean {
  const on = bool(env, 'SEED_DEMO', !isProduction);
  if (on && isProduction) {
    throw new ConfigError(
      'SEED_DEMO seeds the demo account (demo / Demo@12345, a made-up ledger, a plan and the' +
        ' Demo Store): it is for development and tests, not NODE_ENV=production',
    );
  }
  return on;
}

/** Pure: reads only the given env, touches no files. */
export function loadConfig(env: Env): Config {
  const mode = nodeEnv(env);
  const isProduction = mode === 'production';
  const rpcs = chainRpcUrls(env);
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    processes: processCount(env),
    host: str(env, 'HOST') ?? '0.0.0.0',
    dataDir: str(env, 'DATA_DIR') ?? './data',
    databaseUrl: databaseUrl(env),
    storageDir: str(env, 'STORAGE_DIR'),
    nodeEnv: mode,
    isProduction,
    logLevel: str(env, 'LOG_LEVEL') ?? (mode === 'test' ? 'warn' : 'info'),
    responseValidation: bool(env, 'RESPONSE_VALIDATION', !isProduction),
    keptReads: bool(env, 'KEPT_READS', true),
    sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 30, 1, 60 * 24 * 30),
    sessionMaxHours: int(env, 'SESSION_MAX_HOURS', 12, 1, 24 * 30),
    rateLimit: {
      max: int(env, 'RATE_LIMIT_MAX', 300, 1, 1_000_000),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1, 24 * 3_600_000),
      authMax: int(env, 'AUTH_RATE_LIMIT_MAX', 10, 1, 1_000_000),
      gatewayMax: int(env, 'GATEWAY_RATE_LIMIT_MAX', 600, 1, 1_000_000),
      checkoutMax: int(env, 'CHECKOUT_RATE_LIMIT_MAX', 120, 1, 1_000_000),
      linkInvoiceMax: int(env, 'LINK_INVOICE_RATE_LIMIT_MAX', 10, 1, 1_000_000),
      refundClaimMax: int(env, 'REFUND_CLAIM_RATE_LIMIT_MAX', 60, 1, 1_000_000),
      gatewayAuthFailureMax: int(env, 'GATEWAY_AUTH_FAILURE_MAX', 30, 1, 1_000_000),
      gatewayAuthFailureWindowMs: int(
        env,
        'GATEWAY_AUTH_FAILURE_WINDOW_MS',
        60_000,
        1_000,
        24 * 3_600_000,
      ),
    },
    trustProxy: trustProxy(env),
    loginGuard: {
      accountMaxFailures: int(env, 'LOGIN_ACCOUNT_MAX_FAILURES', 5, 1, 1_000_000),
      ipMaxFailures: int(env, 'LOGIN_IP_MAX_FAILURES', 100, 1, 1_000_000),
      failureWindowMs: int(env, 'LOGIN_FAILURE_WINDOW_MS', 15 * 60_000, 1_000, 24 * 3_600_000),
      lockThreshold: int(env, 'LOGIN_LOCK_THRESHOLD', 10, 1, 1_000_000),
      lockMinutes: int(env, 'LOGIN_LOCK_MINUTES', 30, 1, 60 * 24 * 30),
    },
    recoveryIpMax: int(env, 'RECOVERY_IP_MAX', 20, 1, 1_000_000),
    recoveryNameMax: int(env, 'RECOVERY_NAME_MAX', 3, 1, 1_000_000),
    recoveryFailedResetMax: int(env, 'RECOVERY_FAILED_RESET_MAX', 5, 1, 1_000_000),
    smtpUrl: str(env, 'SMTP_URL'),
    mailFrom: str(env, 'MAIL_FROM') ?? 'CryptoSafeLock <no-reply@cryptosafelock.local>',
    chainRpcUrl: str(env, 'CHAIN_RPC_URL'),
    localBlockMs: int(env, 'LOCAL_BLOCK_MS', 3_000, 0, 3_600_000),
    headPollMs: int(env, 'CHAIN_HEAD_POLL_MS', 200, 0, 60_000),
    addressPoolSize: int(env, 'ADDRESS_POOL_SIZE', 1_000, 0, 1_000_000),
    checkoutRefreshSeconds: int(env, 'CHECKOUT_REFRESH_SECONDS', 15, 1, 3_600),
    invoiceExpiryMaxWaitMinutes: int(env, 'INVOICE_EXPIRY_MAX_WAIT_MINUTES', 1_440, 1, 43_200),
    chainLagDegradedSeconds: int(env, 'CHAIN_LAG_DEGRADED_SECONDS', 300, 10, 86_400),
    chainRpcUrls: rpcs,
    chainTokenContracts: chainTokenContracts(env, rpcs),
    usdtContract: str(env, 'USDT_CONTRACT'),
    walletXpub: str(env, 'WALLET_XPUB'),
    secretKey: str(env, 'SECRET_KEY'),
    metricsToken: metricsToken(env),
    webhooks: webhookConfig(env, isProduction),
    jobs: {
      webhookSlots: int(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1_000),
      webhookSlotsPerApp: int(env, 'WEBHOOK_APP_CONCURRENCY', 2, 1, 1_000),
    },
    apiLogRetentionDays: int(env, 'API_LOG_RETENTION_DAYS', 30, 1, 36_500),
    signer: signerConfig(env),
    rates: {
      pegs: ratePegs(env),
      chainlinkFeeds: chainlinkFeeds(env),
      cacheMs: int(env, 'RATE_CACHE_MS', 5_000, 0, 60_000),
    },
    seedDemo: seedDemo(env, isProduction),
  };
}
