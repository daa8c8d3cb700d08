import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    listNotifications: build.query<ListNotificationsApiResponse, ListNotificationsApiArg>({
      query: (queryArg) => ({
        url: `/notifications`,
        params: {
          page: queryArg.page,
        },
      }),
    }),
    markNotificationsRead: build.mutation<
      MarkNotificationsReadApiResponse,
      MarkNotificationsReadApiArg
    >({
      query: (queryArg) => ({
        url: `/notifications/read`,
        method: 'POST',
        params: {
          until: queryArg.until,
        },
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as notificationsApi };
export type ListNotificationsApiResponse =
  /** status 200 One page of events and the unread count. */ NotificationsResponse;
export type ListNotificationsApiArg = {
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
};
export type MarkNotificationsReadApiResponse =
  /** status 200 The events are read. */ MarkNotificationsReadResponse;
export type MarkNotificationsReadApiArg = {
  /** The id of the newest event shown; events recorded after it stay unread. */
  until?: string;
};
export type Status = boolean | (0 | 1) | 'success';
export type AccountEventKind =
  | 'sign_in'
  | 'sign_in_failures'
  | 'locked'
  | 'password_changed'
  | 'pin_changed'
  | 'auth_type_changed'
  | 'authenticator_set_up'
  | 'api_key_created'
  | 'api_key_revoked'
  | 'app_created'
  | 'webhook_secret'
  | 'archive_ready'
  | 'archive_failed';
export type AccountEvent = {
  /** The event's id. */
  id: string;
  /** What happened. */
  kind: AccountEventKind;
  /** The entry's title (a sign-in is 'Account Login', as the spec shows). */
  title: string;
  /** The sentence under the title. */
  text: string;
  /** When it happened. */
  created_at: string;
  /** Whether Read All has marked it read. */
  read: boolean;
  /** The address the request that caused it came from; null when not recorded. */
  ip: string | null;
  /** The browser and operating system of that request, parsed from its user agent (e.g. `Chrome on Windows 10`); null when not recorded. */
  device: string | null;
  /** An `archive_ready` event's archive (`createArchiveLink` downloads it); absent on the other kinds. */
  archive_id?: string;
};
export type NotificationPage = {
  /** The rows of this page, newest first. */
  data: AccountEvent[];
  /** The number of this page. */
  current_page: number;
  /** The number of the last page (1 when the list is empty). */
  last_page: number;
  /** The number of rows per page. */
  per_page: number;
  /** Position of this page's first row in the whole list (from 1); null when empty. */
  from: number | null;
  /** Position of this page's last row in the whole list; null when the page is empty. */
  to: number | null;
  /** The number of rows in the whole list. */
  total: number;
  /** The URL of page 1 of this same list (with the /api prefix), `/api/notifications?page=1`. */
  first_page_url: string;
};
export type NotificationsResponse = {
  /** Success flag (true). */
  status: Status;
  /** The requested page. */
  data: NotificationPage;
  /** The number of the account's unread events (the bell's badge). */
  unread: number;
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
export type MarkNotificationsReadResponse = {
  /** Success flag (true). */
  status: Status;
  /** The number of events that were unread and are now read. */
  marked: number;
};
export const {
  useListNotificationsQuery,
  useLazyListNotificationsQuery,
  useMarkNotificationsReadMutation,
} = injectedRtkApi;
