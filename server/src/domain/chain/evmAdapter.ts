import { decodeEventLog, getAddress, parseAbi, parseAbiItem, type Address, type Hash } from 'viem';
import {
  ChainUnavailableError,
  NATIVE_LOG_INDEX,
  type BlockStamp,
  type ChainAdapter,
  type ChainTransfer,
  type Recipients,
  type TokenTransfer,
  type TransferRef,
  type WatchedRecipients,
} from './adapter';
import { providerPool, RPC_BATCH_SIZE } from './rpc';
import { specUsdt, type SpecChainId } from './specChains';

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const ERC20 = parseAbi(['function decimals() view returns (uint8)']);

/** Confirmations before a BNB Smart Chain deposit is credited (a common exchange setting). */
export const BSC_CONFIRMATIONS = 15;
/** Public BSC RPCs refuse eth_getLogs over wider block ranges. */
export const MAX_LOG_RANGE = 5_000;
/**
 * Recipients per eth_getLogs call: providers cap the topic values of one filter (and the size of
 * a request), so many deposit addresses take several calls of this size per block range.
 */
export const MAX_LOG_ADDRESSES = 500;
/** Block bodies read at once (one JSON-RPC batch) when looking for native transfers. */
/**
 * Chains whose nodes answer the `finalized` block tag with a block that no reorg can take away
 * (Ethereum's beacon-chain finality). BNB Smart Chain's and Polygon's tags are newer and lean on
 * their validators' fast finality; the gateway does not rely on them (domain/payments/withdrawalSending.ts).
 */
const FINALIZED_TAG_CHAINS: ReadonlySet<number> = new Set([1]);

const BLOCK_BATCH = RPC_BATCH_SIZE;
const BLOCK_TIMES_KEPT = 4_096;

export interface EvmAdapterOptions {
  /** The chain's providers: one URL, or several separated by `|` (rpc.ts). */
  rpcUrl: string;
  /** The chain's USDT (the users' wallet deposits read it; the gateway names its tokens). */
  tokenAddress: string;
  /** The spec's chain id this RPC serves (56 unless said). */
  chainId?: SpecChainId;
  confirmations?: number;
  maxBlockRange?: number;
  maxAddressesPerCall?: number;
  timeoutMs?: number;
}

/** Reads transfers to deposit addresses over JSON-RPC: Transfer logs, block bodies, receipts. */
export class EvmChainAdapter implements ChainAdapter {
  readonly kind = 'evm';
  readonly chainId: SpecChainId;
  /** Where it reads: the signer's sender for this chain talks to the same providers. */
  readonly rpcUrl: string;
  readonly confirmations: number;
  private readonly token: Address;
  private readonly maxBlockRange: number;
  private readonly maxAddresses: number;
  private readonly client;
  private decimals: number | undefined;
  /** Block times by hash: a hash names one block forever, whatever reorgs do to numbers. */
  private readonly blockTimes = new Map<string, string>();

  constructor(options: EvmAdapterOptions) {
    this.rpcUrl = options.rpcUrl;
    this.token = getAddress(options.tokenAddress);
    this.chainId = options.chainId ?? 56;
    this.confirmations = options.confirmations ?? BSC_CONFIRMATIONS;
    this.maxBlockRange = options.maxBlockRange ?? MAX_LOG_RANGE;
    this.maxAddresses = options.maxAddressesPerCall ?? MAX_LOG_ADDRESSES;
    // The chain's providers, with failover, ranges halved when refused and lagging ones skipped.
    this.client = providerPool(this.chainId, options.rpcUrl, {
      timeoutMs: options.timeoutMs,
    }).client;
  }

  async latestBlock(): Promise<number> {
    return Number(await rpc('eth_blockNumber', () => this.client.getBlockNumber({ cacheTime: 0 })));
  }

  /** The chain's `finalized` block; null where the gateway does not take that tag (see above). */
  async finalizedBlock(): Promise<number | null> {
    if (!FINALIZED_TAG_CHAINS.has(this.chainId)) return null;
    const block = await rpc('eth_getBlockByNumber(finalized)', () =>
      this.client.getBlock({ blockTag: 'finalized' }),
    );
    return Number(block.number);
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
    return this.tokenTransfers(this.token, addresses, fromBlock, toBlock);
  }

  tokenContract(methodContract: string): string {
    const usdt = specUsdt(this.chainId)?.contract;
    const named = getAddress(methodContract);
    return usdt !== undefined && named === getAddress(usdt) ? this.token : named;
  }

  async blockHash(blockNumber: number): Promise<string | null> {
    try {
      const block = await this.client.getBlock({ blockNumber: BigInt(blockNumber) });
      return block.hash;
    } catch (error) {
      if (isMissingBlock(error)) return null;
      throw new ChainUnavailableError('JSON-RPC eth_getBlockByNumber failed', { cause: error });
    }
  }

  async blockStamp(blockNumber: number): Promise<BlockStamp | null> {
    try {
      const block = await this.client.getBlock({ blockNumber: BigInt(blockNumber) });
      const time = new Date(Number(block.timestamp) * 1000).toISOString();
      this.remember(block.hash, time);
      return { hash: block.hash, time };
    } catch (error) {
      if (isMissingBlock(error)) return null;
      throw new ChainUnavailableError('JSON-RPC eth_getBlockByNumber failed', { cause: error });
    }
  }

  async tokenTransfers(
    token: string,
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]> {
    if (typeof recipients !== 'function' && recipients.length === 0) return [];
    const contract = getAddress(token);
    // Named recipients go in the filter, at most maxAddresses per call (eth_getLogs takes a list
    // of values for an indexed topic); otherwise one call per range takes every Transfer log of
    // the token, and the pool halves a range its provider refuses as too large (rpc.ts).
    const filters =
      typeof recipients === 'function'
        ? [undefined]
        : chunks(
            recipients.map((a) => getAddress(a)),
            this.maxAddresses,
          );
    const out: ChainTransfer[] = [];
    for (let start = fromBlock; start <= toBlock; start += this.maxBlockRange) {
      const end = Math.min(toBlock, start + this.maxBlockRange - 1);
      const read: (Omit<ChainTransfer, 'timestamp'> & { blockHash: Hash })[] = [];
      for (const to of filters) {
        const logs = await rpc('eth_getLogs', () =>
          this.client.getLogs({
            address: contract,
            event: TRANSFER,
            args: to ? { to } : undefined,
            fromBlock: BigInt(start),
            toBlock: BigInt(end),
            strict: true,
          }),
        );
        for (const log of logs) {
          if (log.removed || log.blockNumber === null || log.transactionHash === null) continue;
          if (log.blockHash === null || log.logIndex === null) continue;
          read.push({
            txHash: log.transactionHash,
            logIndex: log.logIndex,
            from: getAddress(log.args.from),
            to: getAddress(log.args.to),
            amount: log.args.value,
            blockNumber: Number(log.blockNumber),
            token: contract,
            blockHash: log.blockHash,
          });
        }
      }
      const kept = typeof recipients === 'function' ? await keepWatched(read, recipients) : read;
      // Block times are read for the transfers kept only.
      for (const { blockHash, ...transfer } of kept) {
        out.push({ ...transfer, timestamp: await this.blockTime(blockHash) });
      }
    }
    // Address chunks each come in chain order; together they must be put back in it.
    return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  async nativeTransfers(
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]> {
    if (typeof recipients !== 'function' && recipients.length === 0) return [];
    const watched: WatchedRecipients =
      typeof recipients === 'function' ? recipients : named(recipients);
    const out: ChainTransfer[] = [];
    for (let start = fromBlock; start <= toBlock; start += BLOCK_BATCH) {
      const numbers: bigint[] = [];
      for (let n = start; n <= Math.min(toBlock, start + BLOCK_BATCH - 1); n += 1) {
        numbers.push(BigInt(n));
      }
      const blocks = await rpc('eth_getBlockByNumber', () =>
        Promise.all(
          numbers.map((blockNumber) =>
            this.client.getBlock({ blockNumber, includeTransactions: true }),
          ),
        ),
      );
      const candidates: { hash: Hash; to: string }[] = [];
      for (const block of blocks) {
        if (block.hash === null || block.number === null) continue;
        this.remember(block.hash, new Date(Number(block.timestamp) * 1000).toISOString());
        for (const tx of block.transactions) {
          if (tx.to === null || tx.value === 0n) continue;
          candidates.push({ hash: tx.hash, to: getAddress(tx.to) });
        }
      }
      for (const candidate of await keepWatched(candidates, watched)) {
        // A reverted transaction moves no value: only a successful receipt counts.
        const found = await this.transferNow({
          txHash: candidate.hash,
          logIndex: NATIVE_LOG_INDEX,
          token: null,
        });
        if (found) out.push(found);
      }
    }
    return out;
  }

  async transferNow(ref: TransferRef): Promise<ChainTransfer | null> {
    const hash = ref.txHash as Hash;
    let receipt;
    try {
      receipt = await this.client.getTransactionReceipt({ hash });
    } catch (error) {
      if (isMissing(error)) return null; // not in the canonical chain (any more)
      throw new ChainUnavailableError('JSON-RPC eth_getTransactionReceipt failed', {
        cause: error,
      });
    }
    if (receipt.status !== 'success') return null;
    const at = {
      txHash: receipt.transactionHash,
      blockNumber: Number(receipt.blockNumber),
      timestamp: await this.blockTime(receipt.blockHash),
    };
    if (ref.token === null) {
      const tx = await rpc('eth_getTransactionByHash', () => this.client.getTransaction({ hash }));
      if (tx.to === null || tx.value === 0n) return null;
      const native = { logIndex: NATIVE_LOG_INDEX, token: null };
      return {
        ...at,
        ...native,
        from: getAddress(tx.from),
        to: getAddress(tx.to),
        amount: tx.value,
      };
    }
    const token = getAddress(ref.token);
    const log = receipt.logs.find((l) => l.logIndex === ref.logIndex);
    if (!log || getAddress(log.address) !== token) return null;
    let event;
    try {
      event = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics, strict: true });
    } catch {
      return null; // another event at that index: not a transfer
    }
    return {
      ...at,
      logIndex: ref.logIndex,
      token,
      from: getAddress(event.args.from),
      to: getAddress(event.args.to),
      amount: event.args.value,
    };
  }

  private async blockTime(blockHash: Hash): Promise<string> {
    let time = this.blockTimes.get(blockHash);
    if (time === undefined) {
      const block = await rpc('eth_getBlockByHash', () => this.client.getBlock({ blockHash }));
      time = new Date(Number(block.timestamp) * 1000).toISOString();
      this.remember(blockHash, time);
    }
    return time;
  }

  /** Bounded: a long-running watcher keeps the newest blocks' times only. */
  private remember(blockHash: string, time: string): void {
    if (this.blockTimes.size >= BLOCK_TIMES_KEPT) {
      const oldest = this.blockTimes.keys().next().value;
      if (oldest !== undefined) this.blockTimes.delete(oldest);
    }
    this.blockTimes.set(blockHash, time);
  }
}

/** `list` in slices of at most `size`. */
function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Listed recipients as a WatchedRecipients (EIP-55, as transfers name them). */
function named(addresses: readonly string[]): WatchedRecipients {
  const listed = new Set(addresses.map((a) => getAddress(a)));
  return async () => listed;
}

/** The transfers whose recipient `watched` picks out of the distinct recipients of `read`. */
async function keepWatched<T extends { to: string }>(
  read: readonly T[],
  watched: WatchedRecipients,
): Promise<T[]> {
  if (read.length === 0) return [];
  const picked = await watched([...new Set(read.map((t) => t.to))]);
  return read.filter((t) => picked.has(t.to));
}

/** viem's "not found" answers: the receipt or transaction is not in the canonical chain. */
function isMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    ['TransactionReceiptNotFoundError', 'TransactionNotFoundError'].includes(error.name)
  );
}

function isMissingBlock(error: unknown): boolean {
  return error instanceof Error && error.name === 'BlockNotFoundError';
}

/** Any failure of a JSON-RPC call becomes a ChainUnavailableError (the cause kept for logs). */
async function rpc<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ChainUnavailableError(`JSON-RPC ${what} failed`, { cause: error });
  }
}
