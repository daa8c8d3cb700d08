// The chains: payment methods, transfers the watcher and the local chain see, the signer's
// transactions and its log.

import type { ColumnType } from 'kysely';
import type { components } from '../../generated/portal.gen';
import type { Flag } from './columns';

export type NetworkType = 'EVM' | 'TRON';

export interface PaymentMethodsTable {
  id: string;
  name: string;
  network_name: string;
  network_type: NetworkType;
  /** PNG file name under server/assets/logos, served by getImage. */
  logo: string;
  /** EVM chain id; 0 stands for Tron. One of the contract's chains. */
  chain_id: components['schemas']['ChainId'];
  is_token: Flag;
  token_contract_address: string | null;
  decimals: number;
  sort_order: number;
  is_active: ColumnType<Flag, Flag | undefined, Flag>;
  /** The gateway's stable name, e.g. `USDT-BEP20` (set by the seed for the reference methods). */
  code: string | null;
  /** Blocks on top of a deposit's before it is credited. */
  confirmations: ColumnType<number, number | undefined, number>;
  /** Smallest deposit credited, in the token's units (decimal string); smaller ones fail. */
  min_deposit: ColumnType<string, string | undefined, string>;
  /** 1 for a live method; 0 for a test mode's (the same code on its test network). */
  livemode: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface ChainTransfersTable {
  id: string;
  tx_hash: string;
  log_index: ColumnType<number, number | undefined, number>;
  from_address: string;
  to_address: string;
  /** Token base units as a decimal string (18 decimals for BEP20 USDT). */
  amount_raw: string;
  block_number: number;
  created_at: string;
  /** Its chain (every chain id of the spec runs on the local chain). */
  chain_id: ColumnType<number, number | undefined, number>;
  /** The token's contract address; null for the chain's native coin (log_index -1). */
  token_contract: string | null;
}

/** Per chain, the last block the gateway's watcher has read. */
export interface WatchCursorsTable {
  chain_id: number;
  scanned_block: number;
  /** The hash of block scanned_block when it was read: changed later, a reorg happened. */
  scanned_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The chain's head at the last pass (the watcher-lag metric). */
  head_block: ColumnType<number | null, number | null | undefined, number | null>;
  /** The time of block scanned_block: how far the chain's clock has been read (invoice expiry). */
  scanned_time: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The local chain's head when empty blocks were mined past its last transfer. */
export interface ChainHeadsTable {
  chain_id: number;
  block_number: number;
}

export type ChainTxPurpose = 'gas' | 'sweep_fee' | 'sweep' | 'withdrawal';
/** pending: broadcast, not mined yet; replaced: another row took its nonce. */
export type ChainTxStatus = 'pending' | 'mined' | 'failed' | 'replaced';

/** A transaction the signer signed (migration 0170): stored before its broadcast. */
export interface ChainTxsTable {
  id: string;
  chain_id: number;
  from_address: string;
  /** The signing key below the account key (`<branch>/0/<index>`): a replacement re-signs. */
  key_path: string;
  nonce: number;
  purpose: ChainTxPurpose;
  /** The deposit or withdrawal row it serves. */
  ref_id: string;
  /** Who receives the value (a token transfer's recipient, not the contract). */
  to_address: string;
  /** Null for the native coin. */
  token_contract: string | null;
  amount_raw: string;
  gas_price: string;
  raw_tx: string;
  tx_hash: string;
  status: ChainTxStatus;
  block_number: number | null;
  error: string | null;
  created_at: string;
  /** When it was (last) broadcast, ms since the epoch: replacement after a timeout. */
  sent_at: number;
}

/** One signature the signer made, with its reason. */
export interface SignerLogTable {
  id: string;
  request: string;
  ref_id: string;
  chain_id: number;
  from_address: string;
  nonce: number;
  tx_hash: string;
  reason: string;
  created_at: string;
}

/** A request the signer refused because it could not trust it (signer/server/refusals.ts). */
export interface SignerRefusalsTable {
  id: string;
  /** withdrawal or sweep. */
  request: string;
  /** The row the request named (a withdrawal or a deposit). */
  ref_id: string;
  app_id: string | null;
  reason: string;
  created_at: string;
}

/** Test mode's reorgs of the local chain (migration 0570). */
export interface LocalChainReorgsTable {
  /** The simulated payment the reorg takes off the chain. */
  tx_hash: string;
  chain_id: number;
  /** Its block: from there the chain's blocks have other hashes once it is reorged. */
  block_number: number;
  /** Null while the reorg waits for POST /test/confirm. */
  reorged_at: string | null;
}
