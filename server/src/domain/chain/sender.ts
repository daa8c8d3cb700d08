import type { Hex } from 'viem';
import type { SpecChainId } from './specChains';

// The sending side of a chain, without keys: what the signer needs to sign a transaction (the
// EIP-155 chain id, nonces, the gas price, balances) and to follow it (broadcast, receipts).
// The local chain implements it over its tables (localSender.ts), EVM chains over JSON-RPC
// (evmSender.ts). Transactions are legacy (gasPrice) EIP-155 ones: every EVM chain of the spec
// takes them, and a replacement is simply the same nonce at a higher price.

/** Gas of a native transfer to an account (no code). */
export const NATIVE_TRANSFER_GAS = 21_000n;
/** The gas limit of an ERC-20 transfer (USDT-like tokens use 35k-65k). */
export const TOKEN_TRANSFER_GAS = 100_000n;

export interface SentReceipt {
  success: boolean;
  blockNumber: number;
}

export interface ChainSender {
  readonly kind: 'evm' | 'local';
  readonly chainId: SpecChainId;
  /** The chain id transactions are signed for (eth_chainId: a test node's own id). */
  signingChainId(): Promise<number>;
  /** The next nonce of `address`: counting its transactions still in the mempool, or mined only. */
  nonce(address: string, include: 'pending' | 'latest'): Promise<number>;
  gasPrice(): Promise<bigint>;
  /** Base units held by `address` (token null: the native coin). */
  balance(address: string, token: string | null): Promise<bigint>;
  /** Broadcasts a signed transaction; its hash. A transaction already known is not an error. */
  sendRaw(raw: Hex): Promise<Hex>;
  /** The receipt of a mined transaction; null while unmined (or dropped). */
  receipt(hash: Hex): Promise<SentReceipt | null>;
  /** Whether the node still knows the transaction (mempool or chain); false once dropped. */
  known(hash: Hex): Promise<boolean>;
}

/** The chain refused a transaction (bad signature, nonce, funds): it was not broadcast. */
export class TransactionRejectedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransactionRejectedError';
  }
}
