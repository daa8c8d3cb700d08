// Merchants' apps: their payment methods, API keys, deposit accounts, request log and daily
// usage.

import type { ColumnType } from 'kysely';
import type { Flag } from './columns';

export interface AppsTable {
  id: string;
  user_id: string;
  app_name: string;
  info: string | null;
  project_url: string;
  /** Normalised list, one address or CIDR per line. */
  whitelist_ip: string | null;
  callback_url: string | null;
  status: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  updated_at: string;
  /** Until then the signer refuses the app's withdrawals (a changed IP whitelist). */
  whitelist_hold_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** Invoices: payments short by at most this percent (decimal text) count as full. */
  invoice_underpayment_tolerance: ColumnType<string, string | undefined, string>;
  /** Invoices: a payment completing one this long after its expiry still settles it. */
  invoice_late_window_minutes: ColumnType<number, number | undefined, number>;
  /** The logo's stored file name (a `files` row of kind app_logo); null without one. */
  logo: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for an app; 0 for the test app that holds an app's test objects. */
  livemode: ColumnType<Flag, Flag | undefined, Flag>;
  /** The test app's live app (one test app each); null for a live app. */
  live_app_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AppPaymentMethodsTable {
  id: string;
  app_id: string;
  payment_method_id: string;
  collect_address: string;
  gas_address: string | null;
  gas_index: number | null;
  deposit_status: ColumnType<Flag, Flag | undefined, Flag>;
  withdraw_status: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  /** Until then the signer refuses sweeps to collect_address (a changed payout address). */
  payout_hold_until: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  id: string;
  app_id: string;
  token_name: string;
  /** sha256 hex of the key; the key itself is shown once and never stored. */
  token_hash: string;
  token_prefix: string;
  /** JSON array of permission values. */
  abilities: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AppAccountsTable {
  id: string;
  app_id: string;
  payment_method_id: string | null;
  unique_id: string;
  address: string;
  created_at: string;
  /** The address's chain: one account per (app, unique_id, chain). */
  chain_id: number | null;
  /** account/2/<index> of the gateway's xpub; null for rows from before the gateway. */
  derivation_index: number | null;
}

export interface ApiLogsTable {
  id: string;
  app_id: string;
  method: string;
  /** The route template, e.g. /gateway/v1/accounts/{unique_id}. */
  route: string;
  ip: string;
  /** The HTTP status answered (null on rows from before it was recorded). */
  status: number | null;
  created_at: string;
}

/**
 * Per app, UTC day (YYYY-MM-DD) and method: credited deposits, completed withdrawals and the
 * withdrawals the plan counts, kept by triggers in the writing transaction (migrations 0230,
 * 0410; the rules are domain/apps/usage.ts's).
 */
export interface AppDailyUsageTable {
  app_id: string;
  day: string;
  payment_method_id: string;
  /** The transactions the credited deposits are: their tnx_count summed (an invoice counts once). */
  deposit_count: number;
  deposit_micro: number;
  withdraw_count: number;
  withdraw_micro: number;
  /** Withdrawals the plan counts (domain/apps/usage.ts PLAN_SEND_STATUSES), by created_at's day. */
  plan_withdraw_count: number;
  /** The credited deposits' fee_raw, each truncated to micro (0 for rows without amount_raw). */
  fee_micro: number;
  /** Their amount_raw less that fee, likewise (rows without amount_raw: amount_micro whole). */
  net_micro: number;
  /** The credited deposit rows, counted or not (a day and method is kept while it has any). */
  deposit_rows: number;
  /** The completed sends that paid refunds, among withdraw_count (domain/apps/usage.ts). */
  refund_count: number;
  refund_micro: number;
}
