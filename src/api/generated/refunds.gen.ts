import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    createAppRefund: build.mutation<CreateAppRefundApiResponse, CreateAppRefundApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/refunds`,
        method: 'POST',
        body: queryArg.createRefundRequest,
      }),
    }),
    previewAppRefund: build.mutation<PreviewAppRefundApiResponse, PreviewAppRefundApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-invoices/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.invoiceId))}/refunds/preview`,
        method: 'POST',
        body: queryArg.createRefundRequest,
      }),
    }),
    listAppRefunds: build.query<ListAppRefundsApiResponse, ListAppRefundsApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-refunds/${encodeURIComponent(String(queryArg.id))}`,
        params: {
          page: queryArg.page,
          invoice: queryArg.invoice,
        },
      }),
    }),
    cancelAppRefund: build.mutation<CancelAppRefundApiResponse, CancelAppRefundApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-refunds/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.refundId))}/cancel`,
        method: 'POST',
      }),
    }),
    reinitiateAppRefund: build.mutation<ReinitiateAppRefundApiResponse, ReinitiateAppRefundApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-refunds/${encodeURIComponent(String(queryArg.id))}/${encodeURIComponent(String(queryArg.refundId))}/reinitiate`,
        method: 'POST',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as refundsApi };
export type CreateAppRefundApiResponse = /** status 200 The refund is asked. */ RefundResponse;
export type CreateAppRefundApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
  createRefundRequest: CreateRefundRequest;
};
export type PreviewAppRefundApiResponse =
  /** status 200 What the refund would pay. */ RefundPreviewResponse;
export type PreviewAppRefundApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The invoice (`Invoice.id`) of app `id`. */
  invoiceId: Id;
  createRefundRequest: CreateRefundRequest;
};
export type ListAppRefundsApiResponse = /** status 200 The requested page. */ RefundListResponse;
export type ListAppRefundsApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
  /** Only the refunds of this invoice (`Invoice.id`). */
  invoice?: Id;
};
export type CancelAppRefundApiResponse =
  /** status 200 The refund, now cancelled. */ RefundResponse;
export type CancelAppRefundApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The refund (`Refund.id`) of app `id`. */
  refundId: Id;
};
export type ReinitiateAppRefundApiResponse =
  /** status 200 The refund, queued again. */ RefundResponse;
export type ReinitiateAppRefundApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** The refund (`Refund.id`) of app `id`. */
  refundId: Id;
};
export type Status = boolean | (0 | 1) | 'success';
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
export type RefundStatus =
  | 'pending_claim'
  | 'awaiting_funds'
  | 'queued'
  | 'processing'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'expired';
export type Decimal = string;
export type Refund = {
  /** The refund's id, `rf_…`. */
  id: string;
  /** The invoice it gives money back on. */
  invoice_id: string;
  status: RefundStatus;
  /** The payment method's code it is paid in, e.g. "USDT-BEP20". */
  method: string;
  /** The chain it is paid on (explorer links follow it). */
  chain_id: number;
  /** What it pays, exactly, in the method's coin or token. */
  amount: Decimal;
  /** How the amount was asked. */
  amount_kind: 'full' | 'overpaid' | 'custom';
  /** A custom amount as asked; null otherwise. */
  requested_amount: string | null;
  /** The currency of `requested_amount`; null otherwise. */
  requested_currency: string | null;
  /** Which rate converted an amount in the invoice's currency (then, or now). */
  rate_kind: 'original' | 'current';
  /** The rate it was converted at (one unit of the token in `requested_currency`); null when the amount was given in the token. */
  rate: string | null;
  /** The merchant's reason. */
  reason: string;
  /** The operational wallet that pays it. */
  from_address: string;
  /** Where it is paid; null until the shopper claims it. */
  address: string | null;
  /** Who gave `address`. */
  address_source: ('merchant' | 'shopper' | null) | ('merchant' | 'shopper' | null);
  /** The page where the shopper enters their address, `<origin>/refund/<token>`, while the refund waits for it (`pending_claim`); null otherwise. */
  claim_url: string | null;
  /** When an unclaimed claim link expires; null with the merchant's address. */
  claim_expires_at: string | null;
  /** When the shopper claimed it. */
  claimed_at: string | null;
  /** Its transaction, once signed (linked to the chain's explorer). */
  tx_hash: string | null;
  /** While `awaiting_funds`, what the operational wallet lacks and where to send it. */
  waiting_message: string | null;
  /** Why it failed. */
  failure_reason: string | null;
  /** When it was asked. */
  created_at: string;
  /** Its last change. */
  updated_at: string;
};
export type RefundResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show (as a toast). */
  msg: string;
  data: Refund;
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
export type CreateRefundRequest = {
  /** full (all that is left to refund in the method), overpaid (the excess of a `paid_over` invoice), custom (`amount` in `currency`). */
  amount_kind: 'full' | 'overpaid' | 'custom';
  /** With `custom` only, a decimal above 0. */
  amount?: string;
  /** With `custom` only: the invoice's currency, or the token (its code, e.g. `USDT`, or the method's, e.g. `USDT-BEP20`; the default) to give `amount` in the token itself. */
  currency?: string;
  /** How an amount in the invoice's currency becomes token: at the invoice's locked rate (original, the default) or at today's (current). */
  rate?: 'original' | 'current';
  /** The code of the method to refund in, one the invoice was paid in (e.g. `USDT-BEP20`); needed when it was paid in more than one. */
  method?: string;
  /** Where to pay it, on the method's network; absent, a claim link for the shopper. */
  address?: string;
  /** Why, for the merchant's records and the shopper's claim page ('Reason is required'). */
  reason: string;
};
export type RefundPreview = {
  /** The method it would be paid in, e.g. "USDT-BEP20". */
  method: string;
  /** The chain it would be paid on. */
  chain_id: number;
  /** The coin or token it pays, e.g. "USDT". */
  asset: string;
  /** What it would pay, exactly, in `asset` (rounded down to its units). */
  amount: Decimal;
  /** The rate an amount in the invoice's currency is converted at (one unit of `asset`), then or now as `rate_kind` says; null when the amount is in the token. */
  rate: string | null;
  /** Which rate `rate` is. */
  rate_kind: 'original' | 'current';
  /** What is left to refund in the method: its confirmed payments less what its refunds hold (all but cancelled and expired ones). */
  refundable: Decimal;
};
export type RefundPreviewResponse = {
  /** Success flag (true). */
  status: Status;
  data: RefundPreview;
};
export type RefundPage = {
  /** The rows of this page, newest first. */
  data: Refund[];
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
  /** The number of refunds matching the filter. */
  total: number;
  /** Page 1 of the same filtered list, e.g. `/api/cryptosafelock/app-refunds/app_1?invoice=inv_1&page=1`. */
  first_page_url: string;
};
export type RefundListResponse = {
  /** Success flag (true). */
  status: Status;
  data: RefundPage;
};
export const {
  useCreateAppRefundMutation,
  usePreviewAppRefundMutation,
  useListAppRefundsQuery,
  useLazyListAppRefundsQuery,
  useCancelAppRefundMutation,
  useReinitiateAppRefundMutation,
} = injectedRtkApi;
