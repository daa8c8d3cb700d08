import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { Database, WebhookDeliveryStatus } from '../../db/schema';
import { newTimeOrderedId } from '../ids';
import { addJob, runJobsNow } from '../../jobs/queue';
import type { Clock } from '../time';
import { DELIVER_KIND, deliverJobKey, type DeliverPayload } from './events';
import { signingSecrets } from './secrets';
import { postWebhook, type SendResult } from './send';
import { signatureHeader } from './signing';
import { systemResolver, type Resolver, type TargetPolicy } from './ssrf';
import type { ResolvedConfig } from '../../config';

// Delivery of the outbox on the job mechanism. Each delivery is woken by one job at a time
// (jobs.key `<delivery>:<wake_seq>`; a job whose wake is not the delivery's current one is
// stale and does nothing). An attempt POSTs, then records its outcome and schedules the next
// wake in one transaction: killed before that, the job's lease runs out and the POST is made
// again (at least once; receivers deduplicate on webhook-id, the event id).

export interface DeliveryDeps {
  db: Db;
  serverKey: string;
  policy: TargetPolicy;
  /** Waits before the 2nd, 3rd, … attempt (ms); after the last one the delivery fails. */
  retrySchedule: readonly number[];
  clock: Clock;
  timeoutMs: number;
  /** Days an event's body is kept (Redeliver of a pruned one says so). */
  bodyRetentionDays: number;
  /** Send test event's budget per app and minute; 5 when not given. */
  testEventsPerMinute?: number;
}

/** The default wait before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h. */
const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 86400].map((s) => s * 1000);
const DELIVERY_TIMEOUT_MS = 10_000;
/** A Retry-After longer than this is capped (the schedule's longest wait). */
const MAX_RETRY_AFTER_MS = 86_400_000;
/** How often a held delivery looks again when the one holding it has no next attempt. */
const HOLD_RECHECK_MS = 2_000;
const USER_AGENT = 'CryptoSafeLock-Webhooks/1';
const SWITCHED_OFF = 'The endpoint answered 410 Gone: webhook switched off.';

/** What deliveries need, from the configuration; tests pass their own resolver or schedule. */
export function webhookDeps(
  config: ResolvedConfig,
  db: Db,
  clock: Clock,
  resolve: Resolver = systemResolver,
): DeliveryDeps {
  return {
    db,
    serverKey: config.secretKey,
    policy: { allowPrivate: config.webhooks.allowPrivate, resolve },
    retrySchedule: config.webhooks.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE,
    clock,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    bodyRetentionDays: config.webhooks.bodyRetentionDays,
    testEventsPerMinute: config.webhooks.testEventsPerMinute,
  };
}

/** ±20 % so that many failing deliveries do not retry in step. */
function jittered(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

async function loadDelivery(db: Db, id: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('apps as a', 'a.id', 'd.app_id')
    .leftJoin('app_webhooks as w', 'w.app_id', 'd.app_id')
    .select([
      'd.id',
      'd.app_id',
      'd.resource_id',
      'd.resource_seq',
      'd.redelivery_of',
      'd.status',
      'd.attempts',
      'd.wake_seq',
      'e.id as event_id',
      'e.body',
      'a.callback_url',
      'w.disabled_at',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

type LoadedDelivery = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

/** An earlier delivery of the same resource still on its way (first sends only). */
async function blocker(db: Db, d: LoadedDelivery) {
  if (d.redelivery_of !== null) return undefined;
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'next_attempt_at'])
    .where('app_id', '=', d.app_id)
    .where('resource_id', '=', d.resource_id)
    .where('resource_seq', '<', d.resource_seq)
    .where('redelivery_of', 'is', null)
    .where('status', 'in', ['pending', 'retrying'])
    .orderBy('resource_seq')
    .executeTakeFirst();
}

/** Moves the delivery to its next wake (compare-and-set on the wake it held) and queues it. */
async function reschedule(
  trx: Db,
  d: LoadedDelivery,
  runAt: number,
  now: number,
  set: {
    status?: WebhookDeliveryStatus;
    attempts?: number;
    last_status_code?: number | null;
    last_error?: string | null;
  } = {},
): Promise<boolean> {
  const wake = d.wake_seq + 1;
  const changed = await trx
    .updateTable('webhook_deliveries')
    .set({
      ...set,
      wake_seq: wake,
      next_attempt_at: runAt,
      updated_at: new Date(now).toISOString(),
    })
    .where('id', '=', d.id)
    .where('wake_seq', '=', d.wake_seq)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) return false;
  const payload: DeliverPayload = { deliveryId: d.id, wake };
  await addJob(
    trx,
    { kind: DELIVER_KIND, key: deliverJobKey(d.id, wake), payload, runAt, group: d.app_id },
    now,
  );
  return true;
}

/**
 * A resource's deliveries take turns at deciding who waits for whom: a delivery that finds an
 * earlier one on its way and waits, and the earlier one finishing and letting the waiting ones
 * go, each hold this lock, so the one that finishes always sees the wait it must end (without it,
 * PostgreSQL let a finish miss a wait committed a moment later, which then sat out its recheck).
 */
function resourceTurn(trx: Transaction<Database>, d: { app_id: string; resource_id: string }) {
  return lockForTransaction(trx, `webhook_resource:${d.app_id}:${d.resource_id}`);
}

/**
 * A finished delivery lets the next one of its resource go now instead of at its recheck; the
 * caller holds the resource's turn.
 */
async function releaseHeld(
  trx: Transaction<Database>,
  d: { app_id: string; resource_id: string },
  now: number,
) {
  const held = await trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'wake_seq'])
    .where('app_id', '=', d.app_id)
    .where('resource_id', '=', d.resource_id)
    .where('redelivery_of', 'is', null)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .execute();
  if (held.length === 0) return;
  await runJobsNow(
    trx,
    DELIVER_KIND,
    held.map((h) => deliverJobKey(h.id, h.wake_seq)),
    now,
  );
}

/** Ends a delivery without a POST (no URl, switched off) or after its last one. */
async function finish(
  trx: Transaction<Database>,
  d: LoadedDelivery,
  status: 'delivered' | 'failed',
  now: number,
  set: { attempts?: number; last_status_code?: number | null; last_error?: string | null },
): Promise<boolean> {
  await resourceTurn(trx, d);
  const changed = await trx
    .updateTable('webhook_deliveries')
    .set({
      ...set,
      status,
      wake_seq: d.wake_seq + 1,
      next_attempt_at: null,
      updated_at: new Date(now).toISOString(),
    })
    .where('id', '=', d.id)
    .where('wake_seq', '=', d.wake_seq)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) return false;
  await releaseHeld(trx, d, now);
  return true;
}

/** The headers of one attempt: Standard Webhooks, signed at `timestamp`. */
function deliveryHeaders(
  secrets: readonly string[],
  eventId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, eventId, timestamp, body),
  };
}

/**
 * One wake of a delivery: does nothing when stale or finished, waits when an earlier event of
 * the same resource is still on its way, otherwise POSTs once and records the outcome.
 */
export async function attemptDelivery(deps: DeliveryDeps, wake: DeliverPayload): Promise<void> {
  const { db } = deps;
  const d = await loadDelivery(db, wake.deliveryId);
  if (!d || d.wake_seq !== wake.wake) return;
  if (d.status === 'delivered' || d.status === 'failed') return;
  const now = deps.clock().getTime();

  if (await blocker(db, d)) {
    // Looked at again in the resource's turn: the earlier one may have finished meanwhile.
    const waits = await db.transaction().execute(async (trx) => {
      await resourceTurn(trx, d);
      const earlier = await blocker(trx, d);
      if (!earlier) return false;
      const after = earlier.next_attempt_at;
      const runAt = after !== null && after > now ? after + 1_000 : now + HOLD_RECHECK_MS;
      await reschedule(trx, d, runAt, now);
      return true;
    });
    if (waits) return;
  }
  if (d.disabled_at !== null) {
    await db
      .transaction()
      .execute((trx) => finish(trx, d, 'failed', now, { last_error: SWITCHED_OFF }));
    return;
  }
  // The URl as it is now: a changed Webhook URl applies to every attempt not yet made.
  const url = d.callback_url;
  if (!url) {
    await db
      .transaction()
      .execute((trx) =>
        finish(trx, d, 'failed', now, { last_error: 'The app has no Webhook URl.' }),
      );
    return;
  }

  const secrets = await signingSecrets(db, deps.serverKey, d.app_id, new Date(now));
  const headers = deliveryHeaders(secrets, d.event_id, Math.floor(now / 1000), d.body);
  const started = Date.now();
  const result = await postWebhook(url, headers, d.body, {
    policy: deps.policy,
    timeoutMs: deps.timeoutMs,
    now,
  });
  await recordOutcome(deps, d, { url, headers, result, durationMs: Date.now() - started });
}

async function recordOutcome(
  deps: DeliveryDeps,
  d: LoadedDelivery,
  a: { url: string; headers: Record<string, string>; result: SendResult; durationMs: number },
): Promise<void> {
  const now = deps.clock().getTime();
  const at = new Date(now).toISOString();
  const attempts = d.attempts + 1;
  const { result } = a;
  await deps.db.transaction().execute(async (trx) => {
    const common = {
      attempts,
      last_status_code: result.statusCode,
      last_error: result.error,
    };
    let recorded: boolean;
    if (result.outcome === 'delivered') {
      recorded = await finish(trx, d, 'delivered', now, common);
    } else if (result.statusCode === 410) {
      recorded = await finish(trx, d, 'failed', now, { ...common, last_error: SWITCHED_OFF });
      if (recorded) await switchOff(trx, d.app_id, at);
    } else if (attempts > deps.retrySchedule.length) {
      recorded = await finish(trx, d, 'failed', now, common);
    } else {
      const wait =
        result.retryAfterMs !== null
          ? Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS)
          : jittered(deps.retrySchedule[attempts - 1] ?? 0);
      recorded = await reschedule(trx, d, now + wait, now, { ...common, status: 'retrying' });
    }
    // Another wake recorded first (a lease ran out mid-POST): its record stands.
    if (!recorded) return;
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: newTimeOrderedId('wha', now),
        delivery_id: d.id,
        attempt: attempts,
        url: a.url,
        request_headers: JSON.stringify(a.headers),
        outcome: result.outcome,
        status_code: result.statusCode,
        error: result.error,
        response_excerpt: result.excerpt,
        duration_ms: a.durationMs,
        created_at: at,
      })
      .execute();
  });
}

/**
 * A 410 Gone: the app's webhook is switched off (the portal says so) and its queued deliveries
 * stop as failed; each can be redelivered once it is switched on again.
 */
async function switchOff(trx: Db, appId: string, at: string): Promise<void> {
  await trx
    .updateTable('app_webhooks')
    .set({ disabled_at: at, disabled_reason: SWITCHED_OFF })
    .where('app_id', '=', appId)
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      next_attempt_at: null,
      last_error: SWITCHED_OFF,
      // Their queued jobs are stale from here on.
      wake_seq: sql<number>`wake_seq + 1`,
      updated_at: at,
    })
    .where('app_id', '=', appId)
    .where('status', 'in', ['pending', 'retrying'])
    .execute();
}
