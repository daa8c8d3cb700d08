import type { ChainlinkFeedConfig, RatesConfig } from '../../config';
import { testAppPerBlock } from '../../../test/withTestApp';
import { ChainUnavailableError } from '../chain/adapter';
import type { FeedRound } from '../chain/priceFeeds';
import { RateBook, RateUnavailableError } from './rates';
import { setTableRate } from './table';

// The rates an invoice locks: each source on its own, the order they are tried in, cross rates
// through USD, and the per-process cache, which never hands out a rate gone stale.

const NOW = new Date('2026-11-01T09:00:00.000Z');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const BNB_FEED: ChainlinkFeedConfig = {
  chainId: 56,
  address: '0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE',
  heartbeatSeconds: 60,
};

/** A feed reader answering `round` (or failing like an unreachable node), counting its reads. */
function feedOf(round: () => Partial<FeedRound> | 'down') {
  const reads: string[] = [];
  const read = async (chainId: number, rpcUrl: string, aggregator: string): Promise<FeedRound> => {
    reads.push(`${chainId} ${rpcUrl} ${aggregator}`);
    const answer = round();
    if (answer === 'down') throw new ChainUnavailableError('connection refused');
    return {
      roundId: 7n,
      answer: 60_012_345_678n,
      decimals: 8,
      updatedAt: seconds(ago(30_000)),
      answeredInRound: 7n,
      ...answer,
    };
  };
  return { read, reads };
}

describe('invoice rates', () => {
  const t = testAppPerBlock();

  beforeEach(async () => {
    await t.db.deleteFrom('rate_table').execute();
  });

  function book(
    rates: Partial<RatesConfig> = {},
    feed = feedOf(() => ({})),
    chainRpcUrl: string | null = 'http://bsc.rpc.test',
  ) {
    return new RateBook({
      db: t.db,
      config: {
        rates: {
          pegs: new Map([
            ['USDT', '1'],
            ['USDC', '1'],
          ]),
          chainlinkFeeds: new Map([['BNB/USD', BNB_FEED]]),
          cacheMs: 5_000,
          ...rates,
        },
        chainRpcUrl: chainRpcUrl ?? undefined,
        chainRpcUrls: new Map(),
      },
      readFeed: feed.read,
    });
  }

  const setRate = (pair: string, rate: string, setAt: Date = NOW, maxAgeHours = 24) =>
    setTableRate(t.db, { pair, rate, maxAgeHours, now: setAt });

  it('prices a stablecoin at its peg, and an asset in itself at 1', async () => {
    expect(await book().rateOf('USDT', 'USD', NOW)).toEqual({
      rate: '1',
      source: 'peg:USDT/USD',
      at: NOW,
    });
    expect(await book().rateOf('USDT', 'USDT', NOW)).toEqual({
      rate: '1',
      source: 'same:USDT/USDT',
      at: NOW,
    });
    const pegged = book({ pegs: new Map([['USDT', '0.9995']]) });
    expect((await pegged.rateOf('USDT', 'USD', NOW)).rate).toBe('0.9995');
  });

  it("reads a Chainlink feed through the chain's RPC, its round no older than the heartbeat", async () => {
    const feed = feedOf(() => ({}));
    expect(await book({}, feed).rateOf('BNB', 'USD', NOW)).toEqual({
      rate: '600.12345678',
      source: 'chainlink:BNB/USD',
      at: new Date(seconds(ago(30_000)) * 1000),
    });
    expect(feed.reads).toEqual([`56 http://bsc.rpc.test ${BNB_FEED.address}`]);

    const stale = book(
      {},
      feedOf(() => ({ updatedAt: seconds(ago(61_000)) })),
    );
    await expect(stale.rateOf('BNB', 'USD', NOW)).rejects.toThrow(
      new RateUnavailableError('BNB/USD', [
        'chainlink: updated 1 min ago, past its 1 min heartbeat',
        'table: no BNB/USD is set',
      ]),
    );
    for (const broken of [{ answer: 0n }, { answer: -5n }, { updatedAt: 0 }]) {
      await expect(
        book(
          {},
          feedOf(() => broken),
        ).rateOf('BNB', 'USD', NOW),
      ).rejects.toThrow(RateUnavailableError);
    }
    const noRpc = book(
      {},
      feedOf(() => ({})),
      null,
    );
    await expect(noRpc.rateOf('BNB', 'USD', NOW)).rejects.toThrow(
      'chainlink: no RPC is configured for chain 56',
    );
  });

  it('takes the table as set, or its inverse, while it is fresh; a stale one names its pair', async () => {
    await setRate('EUR/USD', '1.08');
    await setRate('USD/INR', '84');
    expect(await book().rateOf('USDT', 'EUR', NOW)).toEqual({
      rate: '0.925925925925925926',
      source: 'peg:USDT/USD+table:EUR/USD',
      at: NOW,
    });
    // The inverse is kept as a fraction: one rounding, so 1 / (1/84) is 84 exactly.
    expect((await book().rateOf('USDT', 'INR', NOW)).rate).toBe('84');
    expect((await book().rateOf('EUR', 'INR', NOW)).rate).toBe('90.72');

    await setRate('GBP/USD', '1.27', ago(25 * 3_600_000));
    const error = await book()
      .rateOf('USDT', 'GBP', NOW)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RateUnavailableError);
    expect(error).toMatchObject({
      pair: 'GBP/USD',
      message:
        'No fresh rate for GBP/USD (table: GBP/USD was set 25 h ago, stale after 24 h): an' +
        ' invoice is never priced with a stale rate. Retry in a minute.',
    });
    await expect(book().rateOf('USDT', 'CHF', NOW)).rejects.toMatchObject({
      pair: 'CHF/USD',
      message: expect.stringContaining('(table: no CHF/USD is set)'),
    });
  });

  it('tries the peg first, then the feed, then the table, and uses the first fresh one', async () => {
    const usdtFeed = { ...BNB_FEED, address: '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D' };
    const feeds = new Map([
      ['BNB/USD', BNB_FEED],
      ['USDT/USD', usdtFeed],
    ]);
    await setRate('USDT/USD', '0.998');
    await setRate('BNB/USD', '590');
    const feed = feedOf(() => ({ answer: 99_990_000n }));
    expect((await book({ chainlinkFeeds: feeds }, feed).rateOf('USDT', 'USD', NOW)).source).toBe(
      'peg:USDT/USD',
    );
    expect(feed.reads).toEqual([]);
    const unpegged = { chainlinkFeeds: feeds, pegs: new Map<string, string>() };
    expect(await book(unpegged, feed).rateOf('USDT', 'USD', NOW)).toMatchObject({
      rate: '0.9999',
      source: 'chainlink:USDT/USD',
    });
    expect(
      await book(
        unpegged,
        feedOf(() => 'down'),
      ).rateOf('USDT', 'USD', NOW),
    ).toMatchObject({
      rate: '0.998',
      source: 'table:USDT/USD',
    });
    const staleFeed = feedOf(() => ({ updatedAt: seconds(ago(3_600_000)) }));
    expect(await book({}, staleFeed).rateOf('BNB', 'USD', NOW)).toMatchObject({
      rate: '590',
      source: 'table:BNB/USD',
    });
  });

  it('crosses two USD prices from different sources, dated by the older', async () => {
    await setRate('EUR/USD', '1.08', ago(600_000));
    expect(await book().rateOf('BNB', 'EUR', NOW)).toEqual({
      rate: '555.669867388888888889',
      source: 'chainlink:BNB/USD+table:EUR/USD',
      at: ago(600_000),
    });
  });

  it('keeps a rate a few seconds, and never one that went stale meanwhile', async () => {
    let updatedAt = seconds(ago(30_000));
    const feed = feedOf(() => ({ updatedAt }));
    const rates = book({ cacheMs: 5_000 }, feed);
    await rates.rateOf('BNB', 'USD', NOW);
    await rates.rateOf('BNB', 'USD', new Date(NOW.getTime() + 4_999));
    expect(feed.reads).toHaveLength(1);
    await rates.rateOf('BNB', 'USD', new Date(NOW.getTime() + 5_000));
    expect(feed.reads).toHaveLength(2);

    // Kept for a minute, its round 50 s old: 15 s later the round is past its 60 s heartbeat,
    // so the kept rate is not used; the feed, asked again, has nothing newer: no rate.
    updatedAt = seconds(ago(50_000));
    const patient = book({ cacheMs: 60_000 }, feed);
    expect((await patient.rateOf('BNB', 'USD', NOW)).rate).toBe('600.12345678');
    await expect(patient.rateOf('BNB', 'USD', new Date(NOW.getTime() + 15_000))).rejects.toThrow(
      'chainlink: updated 1 min ago, past its 1 min heartbeat',
    );
    expect(feed.reads).toHaveLength(4);
  });
});
