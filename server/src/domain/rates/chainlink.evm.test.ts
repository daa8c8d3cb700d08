import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { testAppPerBlock } from '../../../test/withTestApp';
import { readChainlinkFeed } from '../chain/priceFeeds';
import { RateBook, RateUnavailableError } from './rates';

// The Chainlink source against a real EVM chain: a Hardhat node with an aggregator stand-in
// (MockAggregator.sol, compiled with the npm solc), read with latestRoundData() through the
// RPC of the feed's chain. A round older than the feed's heartbeat prices nothing.

jest.setTimeout(180_000);

let node: LocalNode;
let aggregator: `0x${string}`;
beforeAll(async () => {
  // Ethereum's stand-in: the ETH/USD feed is read on chain 1.
  node = await startLocalNode(1);
  aggregator = await node.deployAggregator(8);
});
afterAll(async () => {
  await node?.stop();
});

describe('the Chainlink rate source on a Hardhat chain', () => {
  const t = testAppPerBlock();

  const book = () =>
    new RateBook({
      db: t.db,
      config: {
        rates: {
          pegs: new Map(),
          chainlinkFeeds: new Map([
            ['ETH/USD', { chainId: node.chainId, address: aggregator, heartbeatSeconds: 3600 }],
          ]),
          cacheMs: 0,
        },
        chainRpcUrl: undefined,
        chainRpcUrls: new Map([[node.chainId, node.url]]),
      },
    });

  it('reads the round an aggregator answers, and refuses one past the heartbeat', async () => {
    const now = new Date();
    const updatedAt = Math.floor(now.getTime() / 1000) - 600;
    await node.setRound(aggregator, 312_345_678_901n, updatedAt);
    expect(await readChainlinkFeed(node.chainId, node.url, aggregator)).toEqual({
      roundId: 1n,
      answer: 312_345_678_901n,
      decimals: 8,
      updatedAt,
      answeredInRound: 1n,
    });
    expect(await book().rateOf('ETH', 'USD', now)).toEqual({
      rate: '3123.45678901',
      source: 'chainlink:ETH/USD',
      at: new Date(updatedAt * 1000),
    });

    await node.setRound(aggregator, 312_345_678_901n, updatedAt - 2 * 3600);
    const refused = await book()
      .rateOf('ETH', 'USD', now)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RateUnavailableError);
    expect(refused).toMatchObject({
      pair: 'ETH/USD',
      message: expect.stringContaining(
        '(chainlink: updated 2.2 h ago, past its 1 h heartbeat; table: no ETH/USD is set)',
      ),
    });
  });
});
