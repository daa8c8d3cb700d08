// The gateway's payments: deposits received, withdrawals sent, idempotent first answers.

import type { ColumnType } from 'kysely';
import type { StrayFlag } from './invoices';

/** 0 Pending, 1 Completed, 2 Queued for Verification, 3 Hash Verified, 4 Gas Transferred, 5 Failed. */
export type DepositStatus = 0 | 1 | 2 | 3 | 4 | 5;
/**
 * 0 Pending, 1 Completed, 2 Queued for Verification, 3 Processing Transfer, 4 Energy Transferred,
 * 5 Awaiting Blockchain Confirmation, 6 Unsuccessful, 7 Cancelled.
 */
export type SendStatus = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface ReceiveTransactionsTable {
  id: string;
  app_id: string;
  payment_method_id: string;
  unique_id: string;
  amount_micro: number;
  deposit_status: DepositStatus;
  thash: string | null;
  gas_transfer_txid: string | null;
  collect_txid: string | null;
  process_datetime: string | null;
  created_at: string;
  /** Where the watcher found it (null on rows from before the gateway). */
  chain_id: number | null;
  tx_hash: string | null;
  log_index: number | null;
  block_number: number | null;
  /** The token's base units, exact (decimal string). */
  amount_raw: string | null;
  /** The deposit account's address it was paid to. */
  address: string | null;
  /** Why it failed: below_minimum, reorged. */
  failure_reason: string | null;
  credited_at: string | null;
  /** The package's fee when credited, exact decimal percent (e.g. '0.75'); null: no package. */
  fee_percent: ColumnType<string | null, string | null | undefined, string | null>;
  /** The fee that percent implies, in the token's base units (decimal string). */
  fee_raw: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The plan's transactions this row is once credited (migration 0410): 1, or 0 for an invoice's
   * deposits after its first method's (the invoice counts once, however many methods paid it).
   */
  tnx_count: ColumnType<number, number | undefined, number>;
  /**
   * Why a credited deposit waits, while it does: `operational_wallet_needs_gas` (the signer's
   * WaitingCode); null otherwise.
   */
  waiting_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The signer's words for that wait: what to send where. */
  waiting_message: ColumnType<string | null, string | null | undefined, string | null>;
  /** When its sweep's block was found final (migration 0520); null while it is followed. */
  swept_final_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Paid in another method than its account's (migration 0530); null in the account's own. */
  flag: ColumnType<StrayFlag | null, StrayFlag | null | undefined, StrayFlag | null>;
}

/** A column rows from before the gateway's withdrawals lack (null), optional on insert. */
type Later<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface SendTransactionsTable {
  id: string;
  app_id: string;
  payment_method_id: string;
  /** The hash rows from before the gateway carried; the gateway's rows use tx_hash. */
  thash: string | null;
  amount_micro: number;
  to_address: string;
  status: SendStatus;
  created_at: string;
  /** The merchant's id of the payout (gateway rows). */
  unique_id: Later<string>;
  chain_id: Later<number>;
  /** The app's operational wallet of the method, which pays it. */
  from_address: Later<string>;
  /** The token's base units, exact (decimal string). */
  amount_raw: Later<string>;
  /** Native base units held back for its network fee while it is reserved. */
  gas_reserve_raw: Later<string>;
  /** The signed raw transaction (0x hex), stored before it is broadcast. */
  signed_tx: Later<string>;
  /** The hash of signed_tx, stored with it. */
  tx_hash: Later<string>;
  nonce: Later<number>;
  broadcast_at: Later<string>;
  /** Why it is Unsuccessful (6); `reverted` means failed on chain (nothing can still be mined). */
  failure_reason: Later<string>;
  updated_at: Later<string>;
  /** The MAC of its immutable fields under the signer's request key (signer/client/requestMac.ts). */
  request_mac: Later<string>;
  /** Why it waits in 3 (`held_for_approval`), null otherwise; waiting_message: the signer's words. */
  waiting_reason: Later<string>;
  waiting_message: Later<string>;
  /** The refund it pays (refunds.id); null for a withdrawal. */
  refund_id: Later<string>;
  /**
   * When its block was found final (Completed and past the reorgs the gateway follows); null
   * while it is still followed, or not completed.
   */
  final_at: Later<string>;
}

/** The first answer to an Idempotency-Key (domain/payments/idempotency.ts). */
export interface IdempotencyKeysTable {
  /** Whose key and for what, e.g. `purchase:<userId>`: keys of different callers never meet. */
  scope: string;
  key: string;
  /** SHA-256 of the request the key was first used with. */
  request_hash: string;
  /** Null while the first request is still running. */
  response_status: number | null;
  response_body: string | null;
  /** While running: a retry after this time may take over (the first one died). */
  locked_until: number | null;
  created_at: number;
}
