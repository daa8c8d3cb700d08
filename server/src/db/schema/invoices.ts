// Invoices: a price in a currency, its payment options at locked rates, the payments seen, and
// the operator's rate table (migration 0400; the rules are domain/invoices/'s).

import type { ColumnType } from 'kysely';
import type { Flag } from './columns';

export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type InvoiceInvalidReason = 'cancelled' | 'marked' | 'payment_removed';
export type InvoicePaymentStatus = 'pending' | 'confirmed' | 'removed';

/** A flag column, 0 unless written. */
type FlagColumn = ColumnType<Flag, Flag | undefined, Flag>;

export interface InvoicesTable {
  /** `inv_` + 128 random bits. */
  id: string;
  app_id: string;
  order_id: string | null;
  /** The price exactly as sent, decimal text. */
  amount: string;
  /** An ISO 4217 code or a token code. */
  currency: string;
  status: InvoiceStatus;
  paid_partial: FlagColumn;
  paid_over: FlagColumn;
  paid_late: FlagColumn;
  marked: FlagColumn;
  invalid_reason: InvoiceInvalidReason | null;
  /** The merchant's words when marking it. */
  mark_reason: string | null;
  description: string | null;
  buyer_email: string | null;
  /** The JSON text answered as metadata. */
  metadata: string | null;
  redirect_url: string | null;
  checkout_url: string;
  /** The app's tolerance when created, percent as decimal text. */
  underpayment_tolerance: string;
  late_window_minutes: number;
  /** account/3/<index> of the gateway's xpub: the invoice's address. */
  derivation_index: number;
  created_at: string;
  expires_at: string;
  updated_at: string;
  settled_at: string | null;
  /** The payment link it was made from (migration 0430); null for any other invoice. */
  payment_link_id: string | null;
}

export interface InvoicePaymentOptionsTable {
  invoice_id: string;
  payment_method_id: string;
  /** The method's place in the app's order of methods. */
  position: number;
  chain_id: number;
  address: string;
  /** The token's contract on the chain served (USDT_CONTRACT's on a test chain); null: a coin. */
  token_contract: string | null;
  /** The token's base units, decimal text. */
  amount_due_raw: string;
  /** One unit of the token in the invoice's currency, decimal text. */
  rate: string;
  rate_source: string;
  rate_at: string;
}

export interface InvoicePaymentsTable {
  id: string;
  invoice_id: string;
  app_id: string;
  payment_method_id: string;
  chain_id: number;
  tx_hash: string;
  /** The Transfer log's index; NATIVE_LOG_INDEX (-1) for a native transfer. */
  log_index: number;
  block_number: number;
  /** The token's base units, decimal text. */
  amount_raw: string;
  /** amount at the locked rate in the invoice's currency, exact decimal text. */
  value: string;
  confirmations: number;
  status: InvoicePaymentStatus;
  /** Seen after the invoice's expiry. */
  late: Flag;
  /** The time of its block. */
  created_at: string;
  seen_at: string;
  /** Null for a method the invoice offers; else how it strayed (counted once accepted). */
  flag: StrayFlag | null;
  /** When the merchant accepted a flagged payment toward the invoice. */
  accepted_at: string | null;
  /** The address a flagged payment was sent to (an offered one's is its option's). */
  paid_to: string | null;
  /** The credited deposit that took it in (receive_transactions.id; migration 0510), once. */
  credit_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A transfer to an invoice's address the invoice did not offer (migration 0500). */
export type StrayFlag = 'wrong_network' | 'wrong_asset';

/** A merchant's reusable payment page, `/l/<slug>` (migration 0430; domain/paymentLinks/). */
export interface PaymentLinksTable {
  /** `plink_` + 128 random bits. */
  id: string;
  app_id: string;
  /** 16 random characters of [a-z0-9]: the public URL's key. */
  slug: string;
  title: string;
  description: string | null;
  /** A fixed price, decimal text; null: the shopper chooses it. */
  amount: string | null;
  /** The shopper's range when `amount` is null, decimal text; null: no bound. */
  amount_min: string | null;
  amount_max: string | null;
  currency: string;
  /** A JSON text array of method codes; null: every method with For Deposit on when paying. */
  methods: string | null;
  redirect_url: string | null;
  expires_at: string | null;
  /** Paid invoices it takes (processing or settled); null: no limit. */
  max_uses: number | null;
  /** 0 once the merchant deactivated it. */
  active: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  updated_at: string;
}

/** The visit of a link's page that made an invoice: its token, once per link. */
export interface PaymentLinkVisitsTable {
  payment_link_id: string;
  /** The page's hidden token, 128 random bits in base64url. */
  visit: string;
  invoice_id: string;
  created_at: string;
}

/** The operator's rates: `BASE/QUOTE` -> the price of one BASE in QUOTE. */
export interface RateTableTable {
  pair: string;
  rate: string;
  set_at: string;
  /** How long after set_at the rate may price an invoice. */
  max_age_seconds: number;
}

export type RefundStatus =
  | 'pending_claim'
  | 'awaiting_funds'
  | 'queued'
  | 'processing'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'expired';
export type RefundAmountKind = 'full' | 'overpaid' | 'custom';
export type RefundRateKind = 'original' | 'current';

/** Money an app gives back on one of its invoices (migration 0450; the rules: domain/refunds/). */
export interface RefundsTable {
  /** `rf_` + 128 random bits. */
  id: string;
  app_id: string;
  invoice_id: string;
  payment_method_id: string;
  status: RefundStatus;
  /** The exact token amount it pays, base units (decimal text). */
  amount_raw: string;
  amount_kind: RefundAmountKind;
  /** A custom amount exactly as sent, and its currency (an invoice's currency or the token's). */
  requested_amount: string | null;
  requested_currency: string | null;
  rate_kind: RefundRateKind;
  /** The rate a currency amount was converted at (token in the currency); null in the token. */
  rate: string | null;
  reason: string;
  /** The invoice's address whose payments it gives back. */
  paid_to: string;
  /** The app's operational wallet that pays it. */
  from_address: string;
  /** Where it goes: the merchant's address, or the shopper's claim; null until claimed. */
  address: string | null;
  address_source: 'merchant' | 'shopper' | null;
  /** SHA-256 (hex) of the claim link's token; the token sealed for the merchant's eyes. */
  claim_token_hash: string | null;
  claim_token_sealed: string | null;
  claim_expires_at: string | null;
  claimed_at: string | null;
  /** The web process's MAC of what the signer may pay (signer/client/requestMac.ts). */
  request_mac: string | null;
  /** The send_transactions row that pays it. */
  send_id: string | null;
  /** While awaiting_funds: what the operational wallet lacks, and where to send it. */
  waiting_message: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}
