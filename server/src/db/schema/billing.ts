// The portal's billing: plans, the wallet's ledger and top-ups, subscriptions.

import type { ColumnType } from 'kysely';
import type { Flag } from './columns';

export interface PackagesTable {
  id: string;
  name: string;
  price_micro: number;
  duration_days: number;
  /** Fee in percent of each transaction, e.g. 1.5. */
  fees: number;
  tnx_limit: number;
  daily_tnx_limit: number;
  app_count: number;
  sort_order: number;
  is_active: ColumnType<Flag, Flag | undefined, Flag>;
  /** The gateway's stable name, e.g. `USDT-BEP20` (set by the seed for the reference methods). */
  code: string | null;
  /** Blocks on top of a deposit's before it is credited. */
  confirmations: ColumnType<number, number | undefined, number>;
  /** Smallest deposit credited, in the token's units (decimal string); smaller ones fail. */
  min_deposit: ColumnType<string, string | undefined, string>;
}

export type LedgerType = 'credit' | 'debit';

export interface LedgerEntriesTable {
  id: string;
  user_id: string;
  /** External reference: chain tx hash, invoice id, ... */
  tnx: string;
  /** Always positive; `type` gives the direction. */
  amount_micro: number;
  type: LedgerType;
  source: string;
  note: string | null;
  created_at: string;
}

export interface DepositsTable {
  id: string;
  user_id: string;
  tx_hash: string;
  log_index: ColumnType<number, number | undefined, number>;
  amount_micro: number;
  /** 1 confirmed, 0 pending. */
  status: Flag;
  created_at: string;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  package_id: string;
  price_micro: number;
  /** 1 active, 2 canceled (access continues until end_date); expired = end_date passed. */
  status: 1 | 2;
  invoice_id: string;
  remarks: string | null;
  start_date: string;
  end_date: string;
  canceled_at: string | null;
  /** Set when an upgrade or downgrade replaced it. */
  replaced_at: string | null;
  /** How it was replaced: by a dearer plan, a cheaper one, or one of the same price. */
  replaced_kind: 'upgrade' | 'downgrade' | 'switch' | null;
  /** What the wallet paid: price_micro less the credit of the plan it replaced. */
  paid_micro: number;
  /** When replaced: the value of its unused whole days, credited to the new plan. */
  credit_micro: number;
  created_at: string;
}
