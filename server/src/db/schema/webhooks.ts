// Webhooks: the outbox's events, their deliveries and attempts, each app's signing secret.

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

/** Each app's last event number: the next event of the app takes seq + 1 (domain/webhooks). */
export interface AppEventSeqsTable {
  app_id: string;
  seq: number;
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
