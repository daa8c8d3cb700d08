import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    requestAccountArchive: build.mutation<
      RequestAccountArchiveApiResponse,
      RequestAccountArchiveApiArg
    >({
      query: () => ({ url: `/account/archives`, method: 'POST' }),
    }),
    createArchiveLink: build.mutation<CreateArchiveLinkApiResponse, CreateArchiveLinkApiArg>({
      query: (queryArg) => ({
        url: `/account/archives/${encodeURIComponent(String(queryArg.id))}/link`,
        method: 'POST',
      }),
    }),
    downloadAccountArchive: build.query<
      DownloadAccountArchiveApiResponse,
      DownloadAccountArchiveApiArg
    >({
      query: (queryArg) => ({
        url: `/account/archives/download`,
        params: {
          token: queryArg.token,
        },
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as archivesApi };
export type RequestAccountArchiveApiResponse =
  /** status 202 The archive is being prepared (a new one, or the one already under way). */ AccountArchiveResponse;
export type RequestAccountArchiveApiArg = void;
export type CreateArchiveLinkApiResponse =
  /** status 200 The link, valid for 60 seconds. */ ExportLinkResponse;
export type CreateArchiveLinkApiArg = {
  /** The archive's id, as `requestAccountArchive` and the notification give it. */
  id: string;
};
export type DownloadAccountArchiveApiResponse = /** status 200 The archive, streamed. */ string;
export type DownloadAccountArchiveApiArg = {
  /** The link's signed token. */
  token: string;
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
export type AccountArchive = {
  /** The archive's id. */
  id: string;
  /** `preparing` while the job writes it, `ready` once it can be downloaded, `failed` when its preparation gave up. */
  state: 'preparing' | 'ready' | 'failed';
  /** When it was asked for. */
  created_at: string;
  /** When it was ready; null before. */
  ready_at: string | null;
  /** When its download stops working (a day after it was ready); null before. */
  expires_at: string | null;
};
export type AccountArchiveResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** What happens next, for the user. */
  msg: string;
  /** The archive. */
  data: AccountArchive;
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
export const {
  useRequestAccountArchiveMutation,
  useCreateArchiveLinkMutation,
  useDownloadAccountArchiveQuery,
  useLazyDownloadAccountArchiveQuery,
} = injectedRtkApi;
