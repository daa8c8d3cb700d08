import type { SpecChainId } from './specChains';

/** One token transfer log (BEP20 USDT `Transfer(from, to, value)`). */
export interface TokenTransfer {
  txHash: string;
  logIndex: number;
  from: string;
  to: string;
  /** Token base units (18 decimals for BEP20 USDT). */
  amount: bigint;
  blockNumber: number;
  /** Time of its block (ISO-8601 UTC): the deposit's time. */
  timestamp: string;
}

/**
 * A transfer the gateway's watcher records: a token's Transfer log, or a top-level native
 * transfer (a transaction's value), which has no log and takes NATIVE_LOG_INDEX.
 */
export interface ChainTransfer extends TokenTransfer {
  /** The token's contract address; null for the native coin. */
  token: string | null;
}

/** The log_index of a native transfer: one (chain, tx hash, log index) key for both kinds. */
export const NATIVE_LOG_INDEX = -1;

/** A block as the watcher's cursor keeps it. */
export interface BlockStamp {
  hash: string;
  /** ISO-8601 UTC. */
  time: string;
}

/** Which transfer to read again: its transaction, its log (or NATIVE_LOG_INDEX) and asset. */
export interface TransferRef {
  txHash: string;
  logIndex: number;
  token: string | null;
}

/**
 * Of the recipients a read of transfers found (each in its stored form, addressKey), the ones
 * watched: asked once per block range read, with every distinct recipient of that range.
 */
export type WatchedRecipients = (found: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * Whom a read of transfers is for: listed addresses (the chain is asked for transfers to them by
 * name, a cost that grows with the list), or whoever `WatchedRecipients` picks out of everything
 * the range holds (the chain read whole, a cost that grows with its traffic alone).
 */
export type Recipients = readonly string[] | WatchedRecipients;

/** Where deposits are read from: a real EVM chain over JSON-RPC, or the local stand-in. */
export interface ChainAdapter {
  readonly kind: 'evm' | 'local';
  /** The chain id of the spec it serves (0 for Tron, which only the local chain carries). */
  readonly chainId: SpecChainId;
  /** Blocks a user's wallet deposit needs (its own included) before Check Balance credits it. */
  readonly confirmations: number;
  latestBlock(): Promise<number>;
  tokenDecimals(): Promise<number>;
  /**
   * The chain's USDT transfers to any of `addresses` in blocks fromBlock..toBlock (inclusive),
   * in chain order (the users' wallet deposits).
   */
  transfersToAny(
    addresses: readonly string[],
    fromBlock: number,
    toBlock: number,
  ): Promise<TokenTransfer[]>;
  /**
   * Where a payment method's token is on this chain: its own contract, except the chain's USDT
   * when the deployment names another (USDT_CONTRACT, e.g. on a test chain).
   */
  tokenContract(methodContract: string): string;
  /** The hash of a block; null past the head (after a reorg to a shorter chain). */
  blockHash(blockNumber: number): Promise<string | null>;
  /**
   * A block's hash and its time (ISO-8601 UTC), as a read at `now` shows them: how far the
   * chain's clock has come by that block. Null past the head.
   */
  blockStamp(blockNumber: number, now: Date): Promise<BlockStamp | null>;
  /** `token`'s Transfer logs to any of `recipients` in fromBlock..toBlock, in chain order. */
  tokenTransfers(
    token: string,
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]>;
  /**
   * Top-level native transfers (successful transactions whose `to` is one of `recipients`, with
   * a value) in fromBlock..toBlock, in chain order. Value moved by contract calls needs trace
   * APIs: not seen.
   */
  nativeTransfers(
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]>;
  /** The transfer as the canonical chain holds it now (its receipt); null when gone or reverted. */
  transferNow(ref: TransferRef): Promise<ChainTransfer | null>;
}

export class ChainConfigError extends Error {}

/** The chain could not be read (RPC down, timed out or answering nonsense). */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}
