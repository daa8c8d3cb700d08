import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { ChainUnavailableError } from '../chain/adapter';
import { readChainlinkFeed, type FeedReader } from '../chain/priceFeeds';
import { divide, formatDecimal, fromUnits, multiply, parseDecimal, type Decimal } from '../decimal';
import { UnavailableError } from '../errors';
import { USD } from './currencies';
import { tableRates } from './table';

// The rate a new invoice locks: the price of one unit of a method's coin or token in the
// invoice's currency. Every source prices assets in USD; a pair of two other currencies is the
// cross rate of their USD prices (BNB in EUR = BNB/USD ÷ EUR/USD). For each USD price the sources
// are tried in order, and the first fresh one wins:
//   1. peg       a stablecoin's configured price (RATE_PEGS, USDT and USDC at 1);
//   2. chainlink a Chainlink feed read on chain (CHAINLINK_FEEDS), its round no older than the
//                feed's heartbeat;
//   3. table     the operator's rate table, no older than the staleness limit set with it.
// No fresh price from any of them: RateUnavailableError naming the pair, and no invoice. A rate
// read is kept in the process for RATE_CACHE_MS, and only while it is still fresh itself.

/** Decimal places of a locked rate (rounded half up to them, once). */
const RATE_PLACES = 18;
const ONE = fromUnits(1n, 0);

export interface LockedRate {
  /** One unit of the asset in the currency, decimal text. */
  rate: string;
  /** Its legs' sources, `chainlink:BNB/USD+table:EUR/USD`. */
  source: string;
  /** When it was published: the oldest leg's time. */
  at: Date;
}

/** No source has a fresh rate for `pair` (the gateway's 503 `rate_unavailable`). */
export class RateUnavailableError extends UnavailableError {
  constructor(
    readonly pair: string,
    reasons: readonly string[],
  ) {
    super(
      `No fresh rate for ${pair}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}: an` +
        ' invoice is never priced with a stale rate. Retry in a minute.',
    );
  }
}

/**
 * A USD price from one source, as a fraction (a table's `USD/INR` is priced 1 / rate), with how
 * long it may be used after it was published.
 */
interface Reading {
  price: { num: Decimal; den: Decimal };
  at: Date;
  source: string;
  maxAgeMs: number;
}

/** A reading, or why the source has none fresh (null: it has nothing for this asset). */
type SourceAnswer = Reading | { why: string } | null;

type Source = (asset: string, now: Date) => Promise<SourceAnswer>;

export interface RateDeps {
  db: Db;
  /** The sources (`rates`) and the RPC of each chain a feed may be on. */
  config: Pick<Config, 'rates' | 'chainRpcUrl' | 'chainRpcUrls'>;
  /** How a feed is read (a test's stand-in; by default on chain). */
  readFeed?: FeedReader;
}

const hours = (ms: number) => {
  const h = ms / 3_600_000;
  return h >= 1 ? `${Number.isInteger(h) ? h : h.toFixed(1)} h` : `${Math.round(ms / 60_000)} min`;
};

/** The rates of one process: its sources, in order, and the cache in front of them. */
export class RateBook {
  private readonly cache = new Map<string, { reading: Reading; cachedAt: number }>();
  private readonly sources: { name: string; read: Source }[];

  constructor(private readonly deps: RateDeps) {
    this.sources = [
      { name: 'peg', read: (asset, now) => Promise.resolve(this.peg(asset, now)) },
      { name: 'chainlink', read: (asset, now) => this.chainlink(asset, now) },
      { name: 'table', read: (asset, now) => this.table(asset, now) },
    ];
  }

  /** The rate of one `asset` in `currency` now: what a new invoice locks. */
  async rateOf(asset: string, currency: string, now: Date): Promise<LockedRate> {
    if (asset === currency) return { rate: '1', source: `same:${asset}/${currency}`, at: now };
    const base = await this.usdPrice(asset, now);
    const quote = currency === USD ? null : await this.usdPrice(currency, now);
    // One rounding, at the end: base / quote = (base.num × quote.den) / (base.den × quote.num).
    const rate = divide(
      quote ? multiply(base.price.num, quote.price.den) : base.price.num,
      quote ? multiply(base.price.den, quote.price.num) : base.price.den,
      RATE_PLACES,
      'half-up',
    );
    if (rate.units <= 0n) {
      throw new RateUnavailableError(`${asset}/${currency}`, ['the rate rounds to 0']);
    }
    const legs = quote ? [base, quote] : [base];
    return {
      rate: formatDecimal(rate),
      source: legs.map((leg) => leg.source).join('+'),
      at: new Date(Math.min(...legs.map((leg) => leg.at.getTime()))),
    };
  }

  /** The first fresh USD price of `asset`, from the cache while it lasts. */
  private async usdPrice(asset: string, now: Date): Promise<Reading> {
    const kept = this.cache.get(asset);
    if (kept && this.usable(kept, now)) return kept.reading;
    this.cache.delete(asset);
    const reasons: string[] = [];
    for (const source of this.sources) {
      const answer = await source.read(asset, now);
      if (answer === null) continue;
      if ('why' in answer) {
        reasons.push(`${source.name}: ${answer.why}`);
        continue;
      }
      this.cache.set(asset, { reading: answer, cachedAt: now.getTime() });
      return answer;
    }
    if (reasons.length === 0) reasons.push('no source prices it');
    throw new RateUnavailableError(`${asset}/${USD}`, reasons);
  }

  /** Kept less than RATE_CACHE_MS, and the price itself still within its source's limit. */
  private usable(kept: { reading: Reading; cachedAt: number }, now: Date): boolean {
    const t = now.getTime();
    return (
      t - kept.cachedAt < this.deps.config.rates.cacheMs &&
      t - kept.reading.at.getTime() <= kept.reading.maxAgeMs
    );
  }

  private peg(asset: string, now: Date): SourceAnswer {
    const price = this.deps.config.rates.pegs.get(asset);
    if (price === undefined) return null;
    return {
      price: { num: parseDecimal(price), den: ONE },
      at: now,
      source: `peg:${asset}/${USD}`,
      maxAgeMs: Infinity,
    };
  }

  private async chainlink(asset: string, now: Date): Promise<SourceAnswer> {
    const pair = `${asset}/${USD}`;
    const feed = this.deps.config.rates.chainlinkFeeds.get(pair);
    if (!feed) return null;
    const rpcUrl =
      feed.chainId === 56
        ? this.deps.config.chainRpcUrl
        : this.deps.config.chainRpcUrls.get(feed.chainId);
    if (!rpcUrl) return { why: `no RPC is configured for chain ${feed.chainId}` };
    let round;
    try {
      round = await (this.deps.readFeed ?? readChainlinkFeed)(feed.chainId, rpcUrl, feed.address);
    } catch (error) {
      if (error instanceof ChainUnavailableError) return { why: 'the node did not answer' };
      throw error;
    }
    if (round.answer <= 0n) return { why: `the feed answers ${round.answer}` };
    if (round.updatedAt <= 0 || round.answeredInRound < round.roundId) {
      return { why: 'the round is incomplete' };
    }
    const maxAgeMs = feed.heartbeatSeconds * 1000;
    const at = new Date(round.updatedAt * 1000);
    const age = now.getTime() - at.getTime();
    if (age > maxAgeMs) {
      return { why: `updated ${hours(age)} ago, past its ${hours(maxAgeMs)} heartbeat` };
    }
    return {
      price: { num: fromUnits(round.answer, round.decimals), den: ONE },
      at,
      source: `chainlink:${pair}`,
      maxAgeMs,
    };
  }

  /** `ASSET/USD` of the table, or the inverse of its `USD/ASSET`. */
  private async table(asset: string, now: Date): Promise<SourceAnswer> {
    const direct = `${asset}/${USD}`;
    const inverse = `${USD}/${asset}`;
    const rows = await tableRates(this.deps.db, [direct, inverse]);
    const row = rows.find((r) => r.pair === direct) ?? rows.find((r) => r.pair === inverse);
    if (!row) return { why: `no ${direct} is set` };
    const at = new Date(row.setAt);
    const maxAgeMs = row.maxAgeSeconds * 1000;
    const age = now.getTime() - at.getTime();
    if (age > maxAgeMs) {
      return { why: `${row.pair} was set ${hours(age)} ago, stale after ${hours(maxAgeMs)}` };
    }
    const rate = parseDecimal(row.rate);
    const price = row.pair === direct ? { num: rate, den: ONE } : { num: ONE, den: rate };
    return { price, at, source: `table:${row.pair}`, maxAgeMs };
  }
}
