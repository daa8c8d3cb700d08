// The database as Kysely sees it: each business area's tables (./account.ts, ./billing.ts, …)
// assembled into `Database`, and re-exported with the row types the rest of the server uses.
// Column conventions: ./columns.ts.

import type {
  UsersTable,
  SessionsTable,
  CountriesTable,
  DocumentTypesTable,
  SpentStepTokensTable,
  OtpCodesTable,
  FilesTable,
  KycUploadsTable,
  LoginFailuresTable,
  LoginUnknownNamesTable,
  AccountEventsTable,
  AccountArchivesTable,
} from './account';
import type {
  PackagesTable,
  LedgerEntriesTable,
  DepositsTable,
  SubscriptionsTable,
} from './billing';
import type {
  PaymentMethodsTable,
  ChainTransfersTable,
  WatchCursorsTable,
  ChainHeadsTable,
  ChainTxsTable,
  SignerLogTable,
  SignerRefusalsTable,
  LocalChainReorgsTable,
} from './chain';
import type {
  AppsTable,
  AppPaymentMethodsTable,
  ApiKeysTable,
  AppAccountsTable,
  ApiLogsTable,
  AppDailyUsageTable,
} from './apps';
import type {
  ReceiveTransactionsTable,
  SendTransactionsTable,
  IdempotencyKeysTable,
} from './payments';
import type {
  WebhookEventsTable,
  AppEventSeqsTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  AppWebhooksTable,
} from './webhooks';
import type {
  InvoicesTable,
  InvoicePaymentOptionsTable,
  InvoicePaymentsTable,
  RateTableTable,
  PaymentLinksTable,
  PaymentLinkVisitsTable,
  RefundsTable,
} from './invoices';
import type {
  AddressPoolTable,
  DerivationCountersTable,
  JobsTable,
  RateLimitsTable,
  RowCountsTable,
} from './system';

export type {
  AuthType,
  KycStatus,
  UsersTable,
  SessionsTable,
  CountriesTable,
  DocumentTypesTable,
  SpentStepTokensTable,
  OtpCodesTable,
  FileKind,
  FilesTable,
  UploadStatus,
  KycUploadsTable,
  FailureScope,
  LoginFailuresTable,
  LoginUnknownNamesTable,
  AccountEventsTable,
  AccountArchivesTable,
  User,
  NewUser,
  DocumentType,
} from './account';
export type {
  PackagesTable,
  LedgerType,
  LedgerEntriesTable,
  DepositsTable,
  SubscriptionsTable,
} from './billing';
export type {
  NetworkType,
  PaymentMethodsTable,
  ChainTransfersTable,
  WatchCursorsTable,
  ChainHeadsTable,
  ChainTxPurpose,
  ChainTxsTable,
  SignerLogTable,
  SignerRefusalsTable,
  LocalChainReorgsTable,
} from './chain';
export type {
  AppsTable,
  AppPaymentMethodsTable,
  ApiKeysTable,
  AppAccountsTable,
  ApiLogsTable,
  AppDailyUsageTable,
} from './apps';
export type {
  DepositStatus,
  SendStatus,
  ReceiveTransactionsTable,
  SendTransactionsTable,
  IdempotencyKeysTable,
} from './payments';
export type {
  WebhookEventsTable,
  AppEventSeqsTable,
  WebhookDeliveryStatus,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  AppWebhooksTable,
} from './webhooks';
export type {
  InvoicesTable,
  InvoicePaymentOptionsTable,
  InvoicePaymentsTable,
  RateTableTable,
  PaymentLinksTable,
  RefundsTable,
  RefundStatus,
  RefundAmountKind,
  RefundRateKind,
  StrayFlag,
} from './invoices';
export type {
  JobsTable,
  RateLimitsTable,
  CountedTable,
  RowCountsTable,
  DerivationCountersTable,
  AddressPoolTable,
} from './system';

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
  account_archives: AccountArchivesTable;
  webhook_events: WebhookEventsTable;
  app_event_seqs: AppEventSeqsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  app_webhooks: AppWebhooksTable;
  chain_txs: ChainTxsTable;
  signer_log: SignerLogTable;
  signer_refusals: SignerRefusalsTable;
  row_counts: RowCountsTable;
  derivation_counters: DerivationCountersTable;
  address_pool: AddressPoolTable;
  local_chain_reorgs: LocalChainReorgsTable;
  app_daily_usage: AppDailyUsageTable;
  invoices: InvoicesTable;
  invoice_payment_options: InvoicePaymentOptionsTable;
  invoice_payments: InvoicePaymentsTable;
  rate_table: RateTableTable;
  payment_links: PaymentLinksTable;
  payment_link_visits: PaymentLinkVisitsTable;
  refunds: RefundsTable;
}
