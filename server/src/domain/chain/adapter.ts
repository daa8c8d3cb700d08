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

/** Where deposits are read from: a real EVM chain over JSON-RPC, or the local stand-in. */
export interface ChainAdapter {
  readonly kind: 'evm' | 'local';
  /** Blocks a transfer needs (its own included) before it is credited. */
  readonly confirmations: number;
  latestBlock(): Promise<number>;
  tokenDecimals(): Promise<number>;
  /**
   * USDT transfers to any of `addresses` in blocks fromBlock..toBlock (inclusive), in chain
   * order (the gateway's watcher reads all deposit accounts in one call).
   */
  transfersToAny(
    addresses: readonly string[],
    fromBlock: number,
    toBlock: number,
  ): Promise<TokenTransfer[]>;
}

export class ChainConfigError extends Error {}

/** The chain could not be read (RPC down, timed out or answering nonsense). */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}
