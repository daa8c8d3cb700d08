import type { HDKey } from '@scure/bip32';
import type { SignerConfig } from '../../config';
import type { Db } from '../../db/connection';
import type { ChainTxPurpose, ChainTxsTable } from '../../db/schema';
import type { ChainAdapter } from '../../domain/chain/adapter';
import type { ChainSender } from '../../domain/chain/sender';
import type { MailMessage } from '../../domain/mailer';
import type { Clock } from '../../domain/time';
import type { SignerAnswer } from '../client/protocol';
import type { SignerStore } from './store';

// What every part of the signer's service shares: its dependencies, the rows it signs, and
// how it says no.

export type SignerSettings = Pick<
  SignerConfig,
  | 'feeAddress'
  | 'sweepMin'
  | 'gasTopUpCap'
  | 'replaceAfterMs'
  | 'operatorEmail'
  | 'signerHoldHours'
  | 'signerApprovalHours'
>;

export interface SignerDeps {
  db: Db;
  /** The signer's own store (store.ts): the authority on payout addresses and holds. */
  store: SignerStore;
  /** The account key (m/44'/60'/0'). */
  account: HDKey;
  senderFor(chainId: number): ChainSender;
  /** Reads a transfer as the chain holds it now (a refund's cap is checked against the chain). */
  transfersFor(chainId: number): Pick<ChainAdapter, 'transferNow'>;
  /** Where a method's token is on the served chain (the watcher's mapping, chain/index.ts). */
  tokenContract(chainId: number, methodContract: string): string;
  settings: SignerSettings;
  /** The key the web process MACs its requests with (signer/client/requestKey.ts). */
  requestKey: Buffer;
  /** Sends an alert (domain/mailer.ts's sendMail with the deployment's mail settings). */
  mail(message: MailMessage): Promise<void>;
  clock: Clock;
  /** Where each signature is logged (besides the signer_log table). */
  log(line: Record<string, unknown>): void;
}

export type TxRow = ChainTxsTable;

export interface Transfer {
  purpose: ChainTxPurpose;
  refId: string;
  /** Whose money it is (the store's record of what was signed). */
  appId: string | null;
  paymentMethodId: string | null;
  chainId: number;
  keyPath: string;
  from: string;
  /** Who gets the value. */
  to: string;
  token: string | null;
  amount: bigint;
  reason: string;
}

/** A withdrawal's row left status 3 (or took another signature) while it was being signed. */
export class RowMovedOn extends Error {}

export function refuse(reason: string): SignerAnswer {
  return { state: 'refused', reason };
}
