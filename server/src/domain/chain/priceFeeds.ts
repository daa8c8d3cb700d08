import { getAddress, parseAbi } from 'viem';
import { ChainUnavailableError } from './adapter';
import { providerPool } from './rpc';

// Chainlink price feeds read on chain: an aggregator's latestRoundData() and decimals() over the
// chain's configured JSON-RPC (eth_call: nothing is signed or sent). Judging the round (its age
// against the feed's heartbeat, its answer) is the rates' business (domain/rates/).

const AGGREGATOR = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

/** The latest round of a feed, as the aggregator answers it. */
export interface FeedRound {
  roundId: bigint;
  /** The price in units of 10^-decimals of the quote currency; may be 0 or negative (broken). */
  answer: bigint;
  decimals: number;
  /** When the round was last updated, in Unix seconds (0: never). */
  updatedAt: number;
  answeredInRound: bigint;
}

/**
 * Reads a feed's latest round on `chainId` through its providers (`rpcUrl`: one URL, or several
 * separated by `|`, rpc.ts); ChainUnavailableError when they fail.
 */
export type FeedReader = (
  chainId: number,
  rpcUrl: string,
  aggregator: string,
) => Promise<FeedRound>;

/** Decimals of a feed never change: read once per aggregator and process. */
const decimalsOf = new Map<string, number>();

export const readChainlinkFeed: FeedReader = async (chainId, rpcUrl, aggregator) => {
  const { client } = providerPool(chainId, rpcUrl);
  const address = getAddress(aggregator);
  try {
    const key = `${chainId}|${rpcUrl}|${address}`;
    let decimals = decimalsOf.get(key);
    if (decimals === undefined) {
      decimals = await client.readContract({ address, abi: AGGREGATOR, functionName: 'decimals' });
      decimalsOf.set(key, decimals);
    }
    const [roundId, answer, , updatedAt, answeredInRound] = await client.readContract({
      address,
      abi: AGGREGATOR,
      functionName: 'latestRoundData',
    });
    return { roundId, answer, decimals, updatedAt: Number(updatedAt), answeredInRound };
  } catch (error) {
    throw new ChainUnavailableError(`latestRoundData() of ${address} failed`, { cause: error });
  }
};
