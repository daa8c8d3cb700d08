import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<GetDashboardApiResponse, GetDashboardApiArg>({
      query: () => ({ url: `/dashboard` }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as dashboardApi };
export type GetDashboardApiResponse = /** status 200 The dashboard data. */ DashboardResponse;
export type GetDashboardApiArg = void;
export type Status = boolean | (0 | 1) | 'success';
export type DashboardSubscription = {
  /** When the subscription ends. */
  expiry: string;
  /** Transactions used in the current period. */
  transaction_used: number;
  /** Transactions allowed in the period (the package's `tnx_limit`). */
  transaction_limit: number;
};
export type Transaction = {
  /** The transaction id (a chain hash for deposits); shown masked as its first 5 characters, ****, and its last 5. */
  tnx: string;
  /** Amount in USDT (always positive; `type` gives the direction). */
  amount: number;
  /** credit adds to the balance, debit takes from it. */
  type: 'credit' | 'debit';
  /** What caused the entry, e.g. `deposit` or `subscription`. */
  source: string;
  /** A free-text note; null when there is none. */
  note: string | null;
  /** When the entry was made. */
  created_at: string;
};
export type DashboardData = {
  /** When the sign-in before the current session's own happened; null when there was none. */
  last_login_at: string | null;
  /** The address that previous sign-in came from; null when there was none or it is unknown. */
  last_login_ip: string | null;
  /** The browser and operating system of that previous sign-in, parsed from its user agent (e.g. `Chrome on Windows 10`); null when there was none or it is unknown. */
  last_login_device: string | null;
  /** The licence usage; null without an active subscription. */
  subscription: DashboardSubscription | null;
  /** Gateway transactions of the account's apps today. */
  daily_transaction: number;
  /** Gateway transactions of the account's apps this month. */
  monthly_transaction: number;
  /** Gateway transactions of the account's apps in total. */
  total_transaction: number;
  /** The 10 latest wallet ledger entries, newest first (the field's spelling is the contract's). */
  latest_transacctions: Transaction[];
};
export type DashboardResponse = {
  /** Success flag (true). */
  status: Status;
  /** The figures. */
  data: DashboardData;
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
export const { useGetDashboardQuery, useLazyGetDashboardQuery } = injectedRtkApi;
