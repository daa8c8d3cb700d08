import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWebhookSettings: build.query<GetWebhookSettingsApiResponse, GetWebhookSettingsApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-webhook/${encodeURIComponent(String(queryArg.id))}`,
      }),
    }),
    rotateWebhookSecret: build.mutation<RotateWebhookSecretApiResponse, RotateWebhookSecretApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-webhook/${encodeURIComponent(String(queryArg.id))}/rotate-secret`,
        method: 'POST',
      }),
    }),
    switchWebhookOn: build.mutation<SwitchWebhookOnApiResponse, SwitchWebhookOnApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-webhook/${encodeURIComponent(String(queryArg.id))}/switch-on`,
        method: 'POST',
      }),
    }),
    sendTestWebhook: build.mutation<SendTestWebhookApiResponse, SendTestWebhookApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-webhook/${encodeURIComponent(String(queryArg.id))}/test`,
        method: 'POST',
      }),
    }),
    getWebhookDelivery: build.query<GetWebhookDeliveryApiResponse, GetWebhookDeliveryApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/webhook-deliveries/${encodeURIComponent(String(queryArg.id))}`,
      }),
    }),
    redeliverWebhook: build.mutation<RedeliverWebhookApiResponse, RedeliverWebhookApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/webhook-deliveries/${encodeURIComponent(String(queryArg.id))}/redeliver`,
        method: 'POST',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as webhooksApi };
export type GetWebhookSettingsApiResponse = /** status 200 The settings. */ WebhookSettingsResponse;
export type GetWebhookSettingsApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type RotateWebhookSecretApiResponse =
  /** status 200 The new secret. */ WebhookSecretResponse;
export type RotateWebhookSecretApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type SwitchWebhookOnApiResponse = /** status 200 Switched on. */ MessageResponse;
export type SwitchWebhookOnApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type SendTestWebhookApiResponse =
  /** status 200 The test delivery after its first POST. */ WebhookDeliveryResponse;
export type SendTestWebhookApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type GetWebhookDeliveryApiResponse = /** status 200 The delivery. */ WebhookDeliveryResponse;
export type GetWebhookDeliveryApiArg = {
  /** The webhook delivery (`IpnLog.id`). */
  id: Id;
};
export type RedeliverWebhookApiResponse =
  /** status 200 The redelivery after its first POST. */ WebhookDeliveryResponse;
export type RedeliverWebhookApiArg = {
  /** The webhook delivery (`IpnLog.id`). */
  id: Id;
};
export type Status = boolean | (0 | 1) | 'success';
export type WebhookSettings = {
  /** False until the first rotation or the first delivery creates one. */
  has_secret: boolean;
  /** When the current secret was made. */
  secret_created_at: string | null;
  /** Until when the secret before the last rotation still signs (beside the new one). */
  previous_valid_until: string | null;
  /** When a 410 Gone switched the webhook off; null while it is on. */
  disabled_at: string | null;
  /** Why it was switched off. */
  disabled_reason: string | null;
};
export type WebhookSettingsResponse = {
  /** Success flag (true). */
  status: Status;
  data: WebhookSettings;
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
export type WebhookSecretResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show. */
  msg: string;
  /** The secret (`whsec_` + base64); only this answer ever carries it. */
  secret: string;
};
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
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
export type WebhookAttempt = {
  /** 1 for the first POST of this delivery. */
  attempt: number;
  /** When it was made. */
  at: string;
  /** The Webhook URl it went to (the one saved at that moment). */
  url: string;
  /** delivered (2xx), http_error (any other status, redirects included: they are not followed), network_error, timeout (10 s), refused (the address is not public). */
  outcome: 'delivered' | 'http_error' | 'network_error' | 'timeout' | 'refused';
  /** The HTTP status answered; null when none was. */
  status_code: number | null;
  /** What went wrong without an HTTP answer. */
  error: string | null;
  /** How long the POST took. */
  duration_ms: number;
  /** The headers sent, the signature included. */
  request_headers: {
    [key: string]: string;
  };
  /** The first 2 KB of the answer's body. */
  response_excerpt: string | null;
};
export type WebhookDelivery = {
  delivery: IpnLog;
  /** When the next POST is due (status retrying or pending); null otherwise. */
  next_attempt_at: string | null;
  /** Why the last attempt failed or the delivery stopped, when it did. */
  last_error: string | null;
  /** Every POST, first first. */
  attempts_made: WebhookAttempt[];
};
export type WebhookDeliveryResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The outcome in words. */
  msg: string;
  data: WebhookDelivery;
};
export const {
  useGetWebhookSettingsQuery,
  useLazyGetWebhookSettingsQuery,
  useRotateWebhookSecretMutation,
  useSwitchWebhookOnMutation,
  useSendTestWebhookMutation,
  useGetWebhookDeliveryQuery,
  useLazyGetWebhookDeliveryQuery,
  useRedeliverWebhookMutation,
} = injectedRtkApi;
