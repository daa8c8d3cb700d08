import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    createExportLink: build.mutation<CreateExportLinkApiResponse, CreateExportLinkApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/exports/${encodeURIComponent(String(queryArg.kind))}/link`,
        method: 'POST',
        body: queryArg.createExportLinkRequest,
      }),
    }),
    downloadExport: build.query<DownloadExportApiResponse, DownloadExportApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/exports/download`,
        params: {
          token: queryArg.token,
        },
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as exportsApi };
export type CreateExportLinkApiResponse =
  /** status 200 The link, valid for 60 seconds. */ ExportLinkResponse;
export type CreateExportLinkApiArg = {
  /** Which list. */
  kind: ExportKind;
  createExportLinkRequest: CreateExportLinkRequest;
};
export type DownloadExportApiResponse = /** status 200 The list as CSV, streamed. */ string;
export type DownloadExportApiArg = {
  /** The link's signed token. */
  token: string;
};
export type Status = boolean | (0 | 1) | 'success';
export type ExportLinkResponse = {
  /** Success flag (true). */
  status: Status;
  /** The link. */
  data: {
    /** The path to follow (same origin), with its signed token. */
    url: string;
    /** When the link stops working. */
    expires_at: string;
  };
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
export type ExportKind =
  | 'deposits'
  | 'withdrawals'
  | 'accounts'
  | 'api_logs'
  | 'ipn_logs'
  | 'daily_logs'
  | 'usage'
  | 'invoices'
  | 'payments'
  | 'refunds'
  | 'payment_links'
  | 'reconciliation'
  | 'ledger'
  | 'top_ups'
  | 'subscriptions';
export type Id = string;
export type CreateExportLinkRequest = {
  /** The app whose list it is; required for the app's lists, refused for the account's. */
  app_id?: Id;
  /** Only rows at or after this time. */
  from?: string;
  /** Only rows before this time. */
  to?: string;
  /** The version of the columns; the newest when absent. */
  version?: number;
  /** Begin the file with a UTF-8 byte-order mark, for Excel. */
  bom?: boolean;
  /** The invoices list only, as its Status filter. */
  status?: InvoiceStatus;
  /** The invoices list only, as its Order Id filter (exact). */
  order_id?: string;
};
export const { useCreateExportLinkMutation, useDownloadExportQuery, useLazyDownloadExportQuery } =
  injectedRtkApi;
