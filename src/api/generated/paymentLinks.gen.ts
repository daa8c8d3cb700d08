import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAppPaymentLinks: build.query<ListAppPaymentLinksApiResponse, ListAppPaymentLinksApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-payment-links/${encodeURIComponent(String(queryArg.id))}`,
        params: {
          page: queryArg.page,
        },
      }),
    }),
    createAppPaymentLink: build.mutation<
      CreateAppPaymentLinkApiResponse,
      CreateAppPaymentLinkApiArg
    >({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-payment-links/${encodeURIComponent(String(queryArg.id))}`,
        method: 'POST',
        body: queryArg.createPaymentLinkRequest,
      }),
    }),
    getAppPaymentLink: build.query<GetAppPaymentLinkApiResponse, GetAppPaymentLinkApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-payment-links/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.linkId))}`,
        params: {
          page: queryArg.page,
        },
      }),
    }),
    deactivateAppPaymentLink: build.mutation<
      DeactivateAppPaymentLinkApiResponse,
      DeactivateAppPaymentLinkApiArg
    >({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-payment-links/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.linkId))}/deactivate`,
        method: 'POST',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as paymentLinksApi };
export type ListAppPaymentLinksApiResponse =
  /** status 200 The requested page. */ PaymentLinkListResponse;
export type ListAppPaymentLinksApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
};
export type CreateAppPaymentLinkApiResponse =
  /** status 200 The payment link is created. */ PaymentLinkResponse;
export type CreateAppPaymentLinkApiArg = {
  /** The app (`App.id`). */
  id: Id;
  createPaymentLinkRequest: CreatePaymentLinkRequest;
};
export type GetAppPaymentLinkApiResponse =
  /** status 200 The link and a page of its invoices. */ PaymentLinkDetailsResponse;
export type GetAppPaymentLinkApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The payment link (`PaymentLink.id`) of app `id`. */
  linkId: Id;
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
};
export type DeactivateAppPaymentLinkApiResponse =
  /** status 200 The link, now deactivated. */ PaymentLinkResponse;
export type DeactivateAppPaymentLinkApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The payment link (`PaymentLink.id`) of app `id`. */
  linkId: Id;
};
export type Status = boolean | (0 | 1) | 'success';
export type Decimal = string;
export type PaymentLinkStatus = 'active' | 'expired' | 'used_up' | 'deactivated';
export type PaymentLinkTotals = {
  /** Invoices made from it, in every status. */
  invoices: number;
  /** Its settled invoices. */
  paid_invoices: number;
  /** The amounts of its settled invoices summed exactly, in its `currency`, to the currency's decimals (a token's display precision), or the amounts' own if more. */
  amount_paid: Decimal;
  /** Its invoices processing or settled, what `max_uses` counts. */
  uses: number;
};
export type PaymentLink = {
  /** The link's id, `plink_…`. */
  id: string;
  /** Its public page, `<origin>/l/<slug>`, to share. The slug is random and unguessable; anyone with the URL can pay. */
  url: string;
  /** What the shopper pays for, the page's heading and its invoices' description. */
  title: string;
  /** More about it, shown under the title. */
  description: string | null;
  /** The fixed price; null when the shopper chooses it. */
  amount: Decimal | null;
  /** The least a shopper may choose; null without a lower bound (or with `amount`). */
  amount_min: Decimal | null;
  /** The most a shopper may choose; null without an upper bound (or with `amount`). */
  amount_max: Decimal | null;
  /** The currency of its prices and invoices. */
  currency: string;
  /** The codes of the methods its invoices offer (e.g. `USDT-BEP20`); null, every method with For Deposit on when the shopper pays. */
  methods: string[] | null;
  /** Where the checkout page sends the shopper afterwards. */
  redirect_url: string | null;
  /** When the page stops making invoices; null, never. */
  expires_at: string | null;
  /** How many paid invoices it takes; null, no limit. */
  max_uses: number | null;
  status: PaymentLinkStatus;
  /** When it was created. */
  created_at: string;
  /** Its last change (its deactivation). */
  updated_at: string;
  totals: PaymentLinkTotals;
};
export type PaymentLinkPage = {
  /** The rows of this page, newest first. */
  data: PaymentLink[];
  /** The number of this page. */
  current_page: number;
  /** The number of the last page (1 when the list is empty). */
  last_page: number;
  /** The number of rows per page. */
  per_page: number;
  /** Position of this page's first row; null when empty. */
  from: number | null;
  /** Position of this page's last row; null when empty. */
  to: number | null;
  /** The number of the app's payment links. */
  total: number;
  /** Page 1 of the list, e.g. `/api/cryptosafelock/app-payment-links/app_1?page=1`. */
  first_page_url: string;
};
export type PaymentLinkListResponse = {
  /** Success flag (true). */
  status: Status;
  data: PaymentLinkPage;
};
export type MessageCode = {
  /** `<group>.<name>`, e.g. `auth.badCredentials`; never reused for other words. */
  code: string;
  values?: string[];
};
export type MessageCodes = {
  msg?: MessageCode;
  errors?: {
    [key: string]: (MessageCode | null)[];
  };
};
export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type ErrorEnvelope = {
  /** Failure flag; the reference server always sends false. */
  status: Status;
  codes?: MessageCodes;
  /** A human-readable summary of the failure. */
  msg: string;
  /** Messages per request field (field name to its messages); an empty object when the failure is not tied to a field. */
  errors: {
    [key: string]: string[];
  };
  /** A refusal's machine-readable reason, where the gateway has one (the invoice calls): `no_package`, `tnx_limit`, `daily_tnx_limit` (402), `invoice_state` (409), `rate_unavailable` (503). Absent elsewhere. */
  code?: string;
  /** With `invoice_state`, the invoice's status now. */
  invoice_status?: InvoiceStatus;
  /** With `rate_unavailable`, the pair no source has a fresh rate for, e.g. `EUR/USD`. */
  pair?: string;
};
export type Id = string;
export type PaymentLinkResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show (as a toast). */
  msg: string;
  data: PaymentLink;
};
export type CreatePaymentLinkRequest = {
  /** What the shopper pays for ('Title is required'). */
  title: string;
  /** More about it, shown under the title; empty means none. */
  description?: string;
  /** A fixed price, a decimal above 0 and at most 1,000,000,000 with at most the currency's decimals; leave it out to let the shopper choose. */
  amount?: string;
  /** The least a shopper may choose, without `amount`. */
  amount_min?: string;
  /** The most a shopper may choose, without `amount` (at most 1,000,000,000). */
  amount_max?: string;
  /** An ISO 4217 code (USD, EUR, GBP, INR, …) or a token code (USDT). */
  currency: string;
  /** Ids of the app's payment methods (`PaymentMethod.id`) its invoices offer, each with For Deposit on; absent or empty, every method with For Deposit on when the shopper pays. */
  methods?: Id[];
  /** When the page stops making invoices, in the future; absent, never. */
  expires_at?: string;
  /** How many of its invoices may be paid (processing or settled) before the page stops making new ones, from 1 to 1,000,000; absent, no limit. */
  max_uses?: number;
  /** Where the checkout page sends the shopper after paying; http or https only. */
  redirect_url?: string;
};
export type InvoiceException =
  'paid_partial' | 'paid_over' | 'paid_late' | 'marked' | 'partially_refunded' | 'refunded';
export type InvoiceOverpaid = {
  /** The excess in the invoice's currency. */
  value: Decimal;
  /** The method of the payment that went over. */
  method: string;
  /** The excess in that method's coin or token. */
  amount: Decimal;
} | null;
export type InvoicePaymentOption = {
  /** The payment method's code, e.g. "USDT-BEP20". */
  method: string;
  /** The chain to pay on (0 stands for Tron, -1 for Tron Nile in test mode); explorer links follow it. */
  chain_id: number;
  /** The token's contract address; null for the chain's own coin. */
  token_contract: string | null;
  /** Where to pay, derived for this invoice alone. */
  address: string;
  /** The invoice's amount in this method's coin or token at `rate`, rounded up. */
  amount_due: Decimal;
  /** The price of one unit of the coin or token in the invoice's currency, locked. */
  rate: Decimal;
  /** Where the rate came from, leg by leg, e.g. `chainlink:BNB/USD+table:EUR/USD`. */
  rate_source: string;
  /** When the rate was published (the oldest of its legs). */
  rate_at: string;
  /** An EIP-681 URI a wallet opens to pay `amount_due`; null on Tron. */
  payment_uri: string | null;
  /** What this method's payments bring so far, in its coin or token. */
  paid: Decimal;
  /** What is still to pay in this method's coin or token; 0 once covered. */
  due: Decimal;
  /** What went back to the shopper in this method's coin or token (completed refunds). */
  refunded: Decimal;
};
export type InvoicePayment = {
  /** The payment's id (what the accept call names). */
  id: string;
  /** The payment method's code. */
  method: string;
  /** The chain it was sent on (0 stands for Tron, -1 for Tron Nile in test mode); a flagged payment's may be one the invoice does not offer. Explorer links follow it. */
  chain_id: number;
  /** Its transaction's hash (linked to the chain's explorer). */
  tx_hash: string;
  /** The token Transfer log's position in its transaction; null for a coin. */
  log_index: number | null;
  /** The block that holds it. */
  block_number: number;
  /** Exact, in the method's coin or token. */
  amount: Decimal;
  /** `amount` at the locked rate, in the invoice's currency, rounded down. */
  value: Decimal;
  /** Blocks on top of it, its own counted, up to the method's confirmations. */
  confirmations: number;
  /** pending (short of its confirmations), confirmed (final), removed (a reorg took it out). */
  status: 'pending' | 'confirmed' | 'removed';
  /** True for a payment seen after the invoice's expiry. */
  late: boolean;
  /** Null for a payment in one of the invoice's options. `wrong_network`: the invoice's token sent on another EVM chain; `wrong_asset`: another token or coin. A flagged payment counts toward the invoice only once the merchant accepts it; its value is zero until then. */
  flag: ('wrong_network' | 'wrong_asset' | null) | ('wrong_network' | 'wrong_asset' | null);
  /** True for a flagged payment the merchant accepted toward the invoice. */
  accepted: boolean;
  /** The time of its block. */
  created_at: string;
};
export type InvoiceRefund = {
  /** The refund's id, `rf_…`. */
  id: string;
  /** Where the refund stands. */
  status:
    | 'pending_claim'
    | 'awaiting_funds'
    | 'queued'
    | 'processing'
    | 'completed'
    | 'failed'
    | 'cancelled'
    | 'expired';
  /** The method it is paid in, e.g. `USDT-BEP20`. */
  method: string;
  /** What it pays, exactly, in the method's coin or token. */
  amount: Decimal;
  /** When it was asked. */
  created_at: string;
};
export type Invoice = {
  /** The invoice's id, `inv_…`. */
  id: string;
  status: InvoiceStatus;
  /** Its exception flags (shown as badges beside the status). */
  exceptions: InvoiceException[];
  /** Why it is invalid; null otherwise. */
  invalid_reason:
    | ('cancelled' | 'marked' | 'payment_removed' | null)
    | ('cancelled' | 'marked' | 'payment_removed' | null);
  /** The merchant's reason, once marked by hand. */
  mark_reason: string | null;
  /** The price, exactly as created, in `currency`. */
  amount: Decimal;
  /** An ISO 4217 code or a token code. */
  currency: string;
  /** What the payments are worth in `currency`, rounded down. */
  paid: Decimal;
  /** What is left of the amount in `currency`, rounded up. */
  due: Decimal;
  overpaid: InvoiceOverpaid;
  /** The merchant's order id. */
  order_id: string | null;
  /** What is bought. */
  description: string | null;
  /** The shopper's e-mail (gateway-created invoices only). */
  buyer_email: string | null;
  /** The JSON object sent with it through the gateway. */
  metadata: {
    [key: string]: unknown;
  } | null;
  /** Where the checkout page sends the shopper afterwards. */
  redirect_url: string | null;
  /** The invoice's checkout page, `<origin>/pay/<id>` (the shopper's link). */
  checkout_url: string;
  /** The payment link a shopper made it from (`plink_…`); null for any other invoice. */
  payment_link_id: string | null;
  /** The app's underpayment tolerance (percent) when it was created. */
  underpayment_tolerance: Decimal;
  /** The app's late window (minutes) when it was created. */
  late_window_minutes: number;
  /** When it was created. */
  created_at: string;
  /** When it expires unless paid. */
  expires_at: string;
  /** Its last change. */
  updated_at: string;
  /** One per method it may be paid with. */
  payment_options: InvoicePaymentOption[];
  /** The payments seen, in the order they were seen. */
  payments: InvoicePayment[];
  /** Its refunds, oldest first, in short. */
  refunds: InvoiceRefund[];
};
export type InvoicePage = {
  /** The rows of this page, newest first. */
  data: Invoice[];
  /** The number of this page. */
  current_page: number;
  /** The number of the last page (1 when the list is empty). */
  last_page: number;
  /** The number of rows per page. */
  per_page: number;
  /** Position of this page's first row; null when empty. */
  from: number | null;
  /** Position of this page's last row; null when empty. */
  to: number | null;
  /** The number of invoices matching the filters. */
  total: number;
  /** Page 1 of the same filtered list, e.g. `/api/cryptosafelock/app-invoices/app_1?status=new&page=1`. */
  first_page_url: string;
};
export type PaymentLinkDetails = {
  link: PaymentLink;
  invoices: InvoicePage;
};
export type PaymentLinkDetailsResponse = {
  /** Success flag (true). */
  status: Status;
  data: PaymentLinkDetails;
};
export const {
  useListAppPaymentLinksQuery,
  useLazyListAppPaymentLinksQuery,
  useCreateAppPaymentLinkMutation,
  useGetAppPaymentLinkQuery,
  useLazyGetAppPaymentLinkQuery,
  useDeactivateAppPaymentLinkMutation,
} = injectedRtkApi;
