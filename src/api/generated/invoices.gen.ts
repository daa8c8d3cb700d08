import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAppInvoices: build.query<ListAppInvoicesApiResponse, ListAppInvoicesApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}`,
        params: {
          page: queryArg.page,
          status: queryArg.status,
          order_id: queryArg.orderId,
          from: queryArg['from'],
          to: queryArg.to,
        },
      }),
    }),
    createAppInvoice: build.mutation<CreateAppInvoiceApiResponse, CreateAppInvoiceApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}`,
        method: 'POST',
        body: queryArg.createInvoiceRequest,
      }),
    }),
    getAppInvoice: build.query<GetAppInvoiceApiResponse, GetAppInvoiceApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}`,
      }),
    }),
    markAppInvoice: build.mutation<MarkAppInvoiceApiResponse, MarkAppInvoiceApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/mark`,
        method: 'POST',
        body: queryArg.markInvoiceRequest,
      }),
    }),
    cancelAppInvoice: build.mutation<CancelAppInvoiceApiResponse, CancelAppInvoiceApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/cancel`,
        method: 'POST',
      }),
    }),
    simulateAppInvoicePayment: build.mutation<
      SimulateAppInvoicePaymentApiResponse,
      SimulateAppInvoicePaymentApiArg
    >({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/simulate`,
        method: 'POST',
        body: queryArg.simulateInvoicePaymentRequest,
      }),
    }),
    confirmAppInvoicePayments: build.mutation<
      ConfirmAppInvoicePaymentsApiResponse,
      ConfirmAppInvoicePaymentsApiArg
    >({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/confirm`,
        method: 'POST',
      }),
    }),
    acceptAppInvoicePayment: build.mutation<
      AcceptAppInvoicePaymentApiResponse,
      AcceptAppInvoicePaymentApiArg
    >({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/payments/${encodeURIComponent(String(queryArg.paymentId))}/accept`,
        method: 'POST',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as invoicesApi };
export type ListAppInvoicesApiResponse = /** status 200 The requested page. */ InvoiceListResponse;
export type ListAppInvoicesApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
  /** Only the invoices in this status. */
  status?: InvoiceStatus;
  /** Only the invoices with this order id (exact). */
  orderId?: string;
  /** Only the invoices created at or after this time. */
  from?: string;
  /** Only the invoices created before this time. */
  to?: string;
};
export type CreateAppInvoiceApiResponse = /** status 200 The invoice is created. */ InvoiceResponse;
export type CreateAppInvoiceApiArg = {
  /** The app (`App.id`). */
  id: Id;
  createInvoiceRequest: CreateInvoiceRequest;
};
export type GetAppInvoiceApiResponse =
  /** status 200 The invoice and its timeline. */ InvoiceDetailsResponse;
export type GetAppInvoiceApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
};
export type MarkAppInvoiceApiResponse =
  /** status 200 The invoice after the mark. */ InvoiceResponse;
export type MarkAppInvoiceApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
  markInvoiceRequest: MarkInvoiceRequest;
};
export type CancelAppInvoiceApiResponse =
  /** status 200 The invoice, now invalid. */ InvoiceResponse;
export type CancelAppInvoiceApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
};
export type SimulateAppInvoicePaymentApiResponse =
  /** status 200 The transfer is on the test network's local chain. */ SimulateInvoicePaymentResponse;
export type SimulateAppInvoicePaymentApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
  simulateInvoicePaymentRequest: SimulateInvoicePaymentRequest;
};
export type ConfirmAppInvoicePaymentsApiResponse =
  /** status 200 The blocks are mined. */ ConfirmInvoicePaymentsResponse;
export type ConfirmAppInvoicePaymentsApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
};
export type AcceptAppInvoicePaymentApiResponse =
  /** status 200 The invoice, with the payment counted. */ InvoiceResponse;
export type AcceptAppInvoicePaymentApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
  /** The payment (`InvoicePayment.id`) of invoice `invoiceId`. */
  paymentId: Id;
};
export type Status = boolean | (0 | 1) | 'success';
export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type InvoiceException =
  'paid_partial' | 'paid_over' | 'paid_late' | 'marked' | 'partially_refunded' | 'refunded';
export type Decimal = string;
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
export type InvoiceListResponse = {
  /** Success flag (true). */
  status: Status;
  data: InvoicePage;
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
export type InvoiceResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show (as a toast). */
  msg: string;
  data: Invoice;
};
export type CreateInvoiceRequest = {
  /** The price, a decimal above 0 and at most 1,000,000,000 with at most the currency's decimals ('Amount is required'). */
  amount: string;
  /** An ISO 4217 code (USD, EUR, GBP, INR, …) or a token code (USDT). */
  currency: string;
  /** What is bought; empty means none. */
  description?: string;
  /** The merchant's order id; empty means none. */
  order_id?: string;
  /** Seconds until it expires, from 300 to 86,400 (default 900). */
  expires_in?: number;
};
export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';
export type IpnLog = {
  /** The delivery's id (`getWebhookDelivery`, `redeliverWebhook`). */
  id: Id;
  /** The merchant's client id the event is about; empty for `test.ping`. */
  unique_id: string;
  /** The event type, e.g. "deposit.confirmed". */
  event: string;
  /** When the delivery was queued. */
  created_at: string;
  /** The signed body sent, the event envelope as JSON text (shown in the JSON viewer); empty once pruned. */
  data: string;
  status: WebhookDeliveryStatus;
  /** The HTTP status of the last attempt; null before one, or when none answered. */
  http_code: number | null;
  /** POSTs made so far. */
  attempts: number;
  /** True for a delivery made by Redeliver. */
  redelivery: boolean;
  /** True once retention (WEBHOOK_BODY_RETENTION_DAYS, 60 days by default) removed the payload (`data` is then empty) and the answers' excerpts; such a delivery cannot be redelivered. */
  pruned: boolean;
};
export type InvoiceTimelineEntry = {
  /** The event's id (`webhook-id` of its deliveries). */
  event_id: string;
  /** The event type. */
  event:
    | 'invoice.created'
    | 'invoice.payment_received'
    | 'invoice.processing'
    | 'invoice.settled'
    | 'invoice.expired'
    | 'invoice.invalid'
    | 'refund.created'
    | 'refund.claimed'
    | 'refund.completed'
    | 'refund.reorged'
    | 'refund.failed'
    | 'refund.cancelled'
    | 'refund.expired';
  /** When it happened. */
  at: string;
  /** The status the event moved the invoice to (`new` for `invoice.created`); null for `invoice.payment_received`, which records a payment, and for a refund's events. */
  status: InvoiceStatus | null;
  /** The invoice's flags as the event reported them (after the change it records); empty once retention pruned its body. */
  exceptions: InvoiceException[];
  /** A refund's amount and method (`5 USDT-BEP20`); null for the invoice's own events. */
  detail: string | null;
  /** Its deliveries to the Webhook URl, oldest first (a Redeliver adds one); empty when the app had no Webhook URl or it was switched off. */
  deliveries: IpnLog[];
};
export type InvoiceDetails = {
  invoice: Invoice;
  /** Oldest first. */
  timeline: InvoiceTimelineEntry[];
};
export type InvoiceDetailsResponse = {
  /** Success flag (true). */
  status: Status;
  data: InvoiceDetails;
};
export type MarkInvoiceRequest = {
  /** The status decided on. */
  status: 'settled' | 'invalid';
  /** Why, shown with the invoice ('Reason is required'). */
  reason: string;
};
export type SimulateInvoicePaymentResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
  /** The transfer. */
  data: {
    /** The scenario simulated. */
    scenario: 'full' | 'partial' | 'over';
    /** The method's code it was paid in (`USDT-BEP20`). */
    method: string;
    /** The test network's chain id (97, 11155111, 80002, or -1 for Tron Nile). */
    chain_id: number;
    /** The amount sent, in the method's coin, as a decimal string. */
    amount: string;
    /** The transfer's transaction hash (what `confirmAppInvoicePayments` confirms). */
    tx_hash: string;
    /** The confirmations the method needs before the payment counts as final. */
    confirmations: number;
  };
};
export type SimulateInvoicePaymentRequest = {
  /** `full` pays what is still due, `partial` half of it, `over` a tenth more than it. */
  scenario: 'full' | 'partial' | 'over';
};
export type ConfirmInvoicePaymentsResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
  /** What was confirmed. */
  data: {
    /** The simulated payments to the invoice's addresses now final. */
    payments: number;
    /** The blocks mined for them (0 when they were already deep enough). */
    mined: number;
  };
};
export const {
  useListAppInvoicesQuery,
  useLazyListAppInvoicesQuery,
  useCreateAppInvoiceMutation,
  useGetAppInvoiceQuery,
  useLazyGetAppInvoiceQuery,
  useMarkAppInvoiceMutation,
  useCancelAppInvoiceMutation,
  useSimulateAppInvoicePaymentMutation,
  useConfirmAppInvoicePaymentsMutation,
  useAcceptAppInvoicePaymentMutation,
} = injectedRtkApi;
