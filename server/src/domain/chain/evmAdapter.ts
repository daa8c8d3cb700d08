import { createPublicClient, getAddress, http, parseAbi, parseAbiItem, type Address } from 'viem';
import { ChainUnavailableError, type ChainAdapter, type TokenTransfer } from './adapter';

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const ERC20 = parseAbi(['function decimals() view returns (uint8)']);

/** Confirmations before a BNB Smart Chain deposit is credited (a common exchange setting). */
export const BSC_CONFIRMATIONS = 15;
/** Public BSC RPCs refuse eth_getLogs over wider block ranges. */
export const MAX_LOG_RANGE = 5_000;

export interface EvmAdapterOptions {
  rpcUrl: string;
  tokenAddress: string;
  confirmations?: number;
  maxBlockRange?: number;
  timeoutMs?: number;
}

/** Reads the token's Transfer logs to a deposit address over JSON-RPC (eth_getLogs). */
export class EvmChainAdapter implements ChainAdapter {
  readonly kind = 'evm';
  readonly confirmations: number;
  private readonly token: Address;
  private readonly maxBlockRange: number;
  private readonly client;
  private decimals: number | undefined;

  constructor(options: EvmAdapterOptions) {
    this.token = getAddress(options.tokenAddress);
    this.confirmations = options.confirmations ?? BSC_CONFIRMATIONS;
    this.maxBlockRange = options.maxBlockRange ?? MAX_LOG_RANGE;
    // cacheTime 0: a balance-sync must see the newest block, not one cached a few seconds ago.
    this.client = createPublicClient({
      cacheTime: 0,
      transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: 1 }),
    });
  }

  async latestBlock(): Promise<number> {
    return Number(await rpc('eth_blockNumber', () => this.client.getBlockNumber({ cacheTime: 0 })));
  }

  async tokenDecimals(): Promise<number> {
    this.decimals ??= await rpc('decimals()', () =>
      this.client.readContract({ address: this.token, abi: ERC20, functionName: 'decimals' }),
    );
    return this.decimals;
  }

  async transfersToAny(
    addresses: readonly string[],
    fromBlock: number,
    toBlock: number,
  ): Promise<TokenTransfer[]> {
    if (addresses.length === 0) return [];
    // eth_getLogs takes a list of values for an indexed topic: one call for every address.
    const to = addresses.map((a) => getAddress(a));
    const out: TokenTransfer[] = [];
    const blockTimes = new Map<bigint, string>();
    const blockTime = async (blockNumber: bigint): Promise<string> => {
      let time = blockTimes.get(blockNumber);
      if (time === undefined) {
        const block = await rpc('eth_getBlockByNumber', () =>
          this.client.getBlock({ blockNumber, includeTransactions: false }),
        );
        time = new Date(Number(block.timestamp) * 1000).toISOString();
        blockTimes.set(blockNumber, time);
      }
      return time;
    };
    for (let start = fromBlock; start <= toBlock; start += this.maxBlockRange) {
      const end = Math.min(toBlock, start + this.maxBlockRange - 1);
      const logs = await rpc('eth_getLogs', () =>
        this.client.getLogs({
          address: this.token,
          event: TRANSFER,
          args: { to },
          fromBlock: BigInt(start),
          toBlock: BigInt(end),
          strict: true,
        }),
      );
      for (const log of logs) {
        if (log.removed || log.blockNumber === null || log.transactionHash === null) continue;
        out.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex ?? 0,
          from: getAddress(log.args.from),
          to: getAddress(log.args.to),
          amount: log.args.value,
          blockNumber: Number(log.blockNumber),
          timestamp: await blockTime(log.blockNumber),
        });
      }
    }
    return out;
  }
}

/** Any failure of a JSON-RPC call becomes a ChainUnavailableError (the cause kept for logs). */
async function rpc<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ChainUnavailableError(`JSON-RPC ${what} failed`, { cause: error });
  }
}
