import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { components } from '../generated/portal.gen';

// Timestamps are ISO-8601 UTC strings (`Date#toISOString()`): portable between SQLite and
// PostgreSQL text columns and ordered lexicographically. Money columns end in `_micro`
// (integers of 10^-6 USDT, see domain/money.ts). Booleans are 0/1 integers.

export type AuthType = 'mpin' | 'authenticator' | 'otp';
export type Gender = 'male' | 'female' | 'others';
/** 0 not uploaded, 1 approved, 2 rejected, 3 unverified. */
export type KycStatus = 0 | 1 | 2 | 3;
export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  name: string;
  password_hash: string;
  pin_hash: string;
  auth_type: ColumnType<AuthType, AuthType | undefined, AuthType>;
  /** Referrer's user id (registration's optional sponsor username, resolved). */
  sponsor_id: string | null;
  gender: Gender | null;
  dob: string | null;
  phone: string | null;
  country: string | null;
  landmark: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
  address_line1: string | null;
  address_line2: string | null;
  avatar: string | null;
  status_kyc: ColumnType<KycStatus, KycStatus | undefined, KycStatus>;
  is_profile_complete: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: string;
  last_login_at: string | null;
  previous_login_at: string | null;
  /** Consecutive failed sign-in steps; reset on success. */
  failed_logins: ColumnType<number, number | undefined, number>;
  /** Sign-in refused until this time after repeated failures. */
  locked_until: string | null;
  /** TOTP secret, encrypted with the server key (domain/totp.ts). */
  totp_secret_enc: string | null;
  totp_enabled: ColumnType<Flag, Flag | undefined, Flag>;
  /** Last TOTP time step accepted, so a code cannot be replayed. */
  totp_last_step: number | null;
  /** BIP32 child index and the BEP20 deposit address derived from it. */
  deposit_index: number | null;
  deposit_address: string | null;
  /** Last block scanned for deposits to deposit_address with enough confirmations. */
  deposit_scanned_block: number | null;
}

export interface SessionsTable {
  id: string;
  /** sha256 hex of the opaque bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface CountriesTable {
  /** ISO 3166-1 alpha-2. */
  id: string;
  name: string;
  calling_code: string;
}

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

export interface DocumentTypesTable {
  id: string;
  /** Section title, e.g. 'Identity Proof'. */
  document_type: string;
  /** JSON array of the allowed document names, e.g. ["Aadhar Card","Passport"]. */
  document_names: string;
  front_required: Flag;
  back_required: Flag;
  number_required: Flag;
  sort_order: number;
}

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

export interface SpentStepTokensTable {
  id: string;
  spent_at: string;
}

export interface OtpCodesTable {
  id: string;
  user_id: string;
  /** e.g. 'login', 'auth-switch', 'password-reset' (domain/recovery.ts: 8 digits, 15 minutes). */
  purpose: string;
  code_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type FileKind = 'avatar' | 'kyc';

export interface FilesTable {
  /** Random 128-bit hex name plus extension; the only name on disk. */
  name: string;
  user_id: string;
  kind: FileKind;
  mime: string;
  size: number;
  created_at: string;
}

/** 0 pending, 1 approved, 2 rejected. */
export type UploadStatus = 0 | 1 | 2;

export interface KycUploadsTable {
  id: string;
  user_id: string;
  document_type_id: string;
  document_name: string;
  document_number: string | null;
  front: string | null;
  back: string | null;
  status: ColumnType<UploadStatus, UploadStatus | undefined, UploadStatus>;
  remarks: string | null;
  created_at: string;
  reviewed_at: string | null;
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
}

/** Per chain, the last block the gateway's watcher has read. */
export interface WatchCursorsTable {
  chain_id: number;
  scanned_block: number;
  /** The hash of block scanned_block when it was read: changed later, a reorg happened. */
  scanned_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The chain's head at the last pass (the watcher-lag metric). */
  head_block: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The local chain's head when empty blocks were mined past its last transfer. */
export interface ChainHeadsTable {
  chain_id: number;
  block_number: number;
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

/** Which brute-force window a failure counts in (domain/lockout.ts). */
export type FailureScope =
  | 'login-account'
  | 'login-ip'
  | 'code-check'
  | 'code-send'
  // Password recovery (domain/recovery.ts): requests per name and per IP, mails per account,
  // failed resets.
  | 'recovery-name'
  | 'recovery-ip'
  | 'recovery-mail'
  | 'recovery-check';

/** One failed step inside a sliding window; pruned once it leaves the window. */
export interface LoginFailuresTable {
  scope: FailureScope;
  /**
   * Per scope: `u:<userId>|<address>` or `n:<name>|<address>` (login-account), the address
   * (login-ip), or the user id. An address is domain/clientAddress.ts brakeAddress's form.
   */
  key: string;
  /**
   * ms since the epoch (not ISO text: the window arithmetic and pruning compare numbers). A
   * PostgreSQL dialect must have its driver parse bigint as a number (pg returns text).
   */
  at: number;
  /** Set on a failure reserved before the check, so that a step that succeeds can give it back. */
  id: string | null;
}

/** A name that matches no account: its lock behaves like users.failed_logins / locked_until. */
export interface LoginUnknownNamesTable {
  /** Trimmed, lower-case. */
  name: string;
  failed_logins: number;
  /** ms since the epoch. */
  locked_until: number | null;
  /** ms since the epoch; rows idle for long are pruned. */
  last_failure_at: number;
}

/** `failed` once a job has used up its attempts; done jobs are deleted (recurring ones re-queued). */
export type JobState = 'queued' | 'failed';

/** One unit of background work (domain/jobs). Times are ms since the epoch. */
export interface JobsTable {
  id: string;
  /** Which task runs it, e.g. `gas.provision`. */
  kind: string;
  /** Dedupe key: at most one job per (kind, key). */
  key: string | null;
  /** JSON text (jsonb on PostgreSQL). */
  payload: string;
  state: JobState;
  /** Not before this time. */
  run_at: number;
  /** Runs started so far, counted when claimed. */
  attempts: number;
  max_attempts: number;
  /** Recurring: run again this long after each run ends. */
  every_ms: number | null;
  /** The worker holding the lease, until locked_until. */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

/** The first answer to an Idempotency-Key (domain/idempotency.ts). */
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

/** One client's fixed request window under one budget (http/rateLimitStore.ts). */
export interface RateLimitsTable {
  /** `<budget>|<client key>`: the budget keeps the global and per-route windows apart. */
  key: string;
  /** Requests counted in the window, the one being answered included. */
  count: number;
  /** When the window ends, in ms since the epoch. */
  reset_at: number;
}

/** One security event of an account, a bell entry (domain/accountEvents.ts). */
export interface AccountEventsTable {
  id: string;
  user_id: string;
  kind: components['schemas']['AccountEventKind'];
  created_at: string;
  /** When Read All marked it read; null while unread. */
  read_at: string | null;
  /** The session a sign-in opened (null for other kinds). */
  session_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The kind's details, JSON text (names, counts, the lock's end). */
  details: string;
}

/** The webhook outbox (domain/webhooks): one event, its exact signed body. */
export interface WebhookEventsTable {
  id: string;
  app_id: string;
  /** deposit.pending, deposit.confirmed, deposit.failed, test.ping. */
  type: string;
  /** The deposit id (the event's own id for test.ping). */
  resource_id: string;
  /** 1, 2, … per (app, resource): the order deliveries keep. */
  resource_seq: number;
  /** The merchant's client id the event is about; null for test.ping. */
  unique_id: string | null;
  /** The JSON envelope exactly as signed and sent; '' once pruned. */
  body: string;
  created_at: string;
  /** 1, 2, … per app in commit order: the events API's cursor. */
  seq: number;
  /** When retention removed the body (and the deliveries' response excerpts); null before. */
  pruned_at: string | null;
}

export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  app_id: string;
  resource_id: string;
  resource_seq: number;
  /** The delivery this one repeats (Redeliver); null for the first send. */
  redelivery_of: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** ms since the epoch; null once delivered or failed. */
  next_attempt_at: number | null;
  /** Numbers the jobs that wake this delivery (jobs.key `<id>:<wake_seq>`). */
  wake_seq: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  url: string;
  /** JSON object of the headers sent (signature included). */
  request_headers: string;
  /** delivered, http_error, network_error, timeout, refused, no_url, switched_off. */
  outcome: string;
  status_code: number | null;
  error: string | null;
  /** The first 2 KB of the response body. */
  response_excerpt: string | null;
  duration_ms: number;
  created_at: string;
}

export interface AppWebhooksTable {
  app_id: string;
  /** whsec_… sealed with the server key (AES-256-GCM, bound to the app id). */
  secret_enc: string;
  /** The secret before the last rotation, still signing until previous_until (ms). */
  previous_secret_enc: string | null;
  previous_until: number | null;
  secret_created_at: string;
  /** Set when the endpoint answered 410 Gone: nothing is sent until switched on again. */
  disabled_at: string | null;
  disabled_reason: string | null;
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

/** The tables whose rows row_counts counts (migration 0230), by owner: a user's, or an app's. */
export type CountedTable =
  | 'ledger_entries'
  | 'receive_transactions'
  | 'send_transactions'
  | 'app_accounts'
  | 'api_logs'
  | 'webhook_deliveries';

/** Rows per owner and table, kept by triggers in the writing transaction (migration 0230). */
export interface RowCountsTable {
  /** users.id for ledger_entries, apps.id for the others. */
  owner_id: string;
  kind: CountedTable;
  n: number;
}

/**
 * Per app, UTC day (YYYY-MM-DD) and method: credited deposits, completed withdrawals and the
 * withdrawals the plan counts, kept by triggers in the writing transaction (migration 0230; the
 * rules are domain/appUsage.ts's).
 */
export interface AppDailyUsageTable {
  app_id: string;
  day: string;
  payment_method_id: string;
  deposit_count: number;
  deposit_micro: number;
  withdraw_count: number;
  withdraw_micro: number;
  /** Withdrawals the plan counts (domain/appUsage.ts PLAN_SEND_STATUSES), by created_at's day. */
  plan_withdraw_count: number;
  /** The credited deposits' fee_raw, each truncated to micro (0 for rows without amount_raw). */
  fee_micro: number;
  /** Their amount_raw less that fee, likewise (rows without amount_raw: amount_micro whole). */
  net_micro: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  countries: CountriesTable;
  packages: PackagesTable;
  document_types: DocumentTypesTable;
  payment_methods: PaymentMethodsTable;
  ledger_entries: LedgerEntriesTable;
  spent_step_tokens: SpentStepTokensTable;
  otp_codes: OtpCodesTable;
  files: FilesTable;
  kyc_uploads: KycUploadsTable;
  chain_transfers: ChainTransfersTable;
  deposits: DepositsTable;
  subscriptions: SubscriptionsTable;
  apps: AppsTable;
  app_payment_methods: AppPaymentMethodsTable;
  api_keys: ApiKeysTable;
  app_accounts: AppAccountsTable;
  receive_transactions: ReceiveTransactionsTable;
  send_transactions: SendTransactionsTable;
  api_logs: ApiLogsTable;
  login_failures: LoginFailuresTable;
  login_unknown_names: LoginUnknownNamesTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limits: RateLimitsTable;
  watch_cursors: WatchCursorsTable;
  chain_heads: ChainHeadsTable;
  account_events: AccountEventsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  app_webhooks: AppWebhooksTable;
  chain_txs: ChainTxsTable;
  signer_log: SignerLogTable;
  row_counts: RowCountsTable;
  app_daily_usage: AppDailyUsageTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type DocumentType = Selectable<DocumentTypesTable>;
