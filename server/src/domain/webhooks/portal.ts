import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { WebhookDeliveryStatus } from '../../db/schema';
import { recordAccountEvent, type ClientInfo } from '../account/events';
import { ConflictError, InvalidError, NotFoundError } from '../errors';
import { rowCount } from '../maintainedCounts';
import { claimRequests } from '../rateLimits';
import { attemptDelivery, type DeliveryDeps } from './delivery';
import { queueDelivery, recordEvent } from './events';
import { rotateWebhookSecret } from './secrets';
import type { SendOutcome } from './send';
import type { components } from '../../generated/portal.gen';

// What the portal does with webhooks: the signing secret, the switch a 410 turns off, the
// delivery log (IPN Logs), Redeliver and the test event. Every function takes the signed-in
// user's id and finds the app through it: another account's app is as unknown as a missing one.

/** A Redeliver or a test event is POSTed within the request; this job is its safety net. */
const INLINE_GRACE_MS = 60_000;

function appTarget(db: Db) {
  return db
    .selectFrom('apps')
    .leftJoin('app_webhooks', 'app_webhooks.app_id', 'apps.id')
    .select([
      'apps.id',
      'apps.app_name',
      'apps.callback_url',
      'app_webhooks.secret_created_at',
      'app_webhooks.previous_until',
      'app_webhooks.disabled_at',
      'app_webhooks.disabled_reason',
    ]);
}

async function ownApp(db: Db, userId: string, appId: string) {
  const app = await appTarget(db)
    .where('apps.id', '=', appId)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!app) throw new NotFoundError();
  return app;
}

export interface WebhookSettings {
  hasSecret: boolean;
  secretCreatedAt: string | null;
  /** Until when the secret before the last rotation still signs; null when it does not. */
  previousValidUntil: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}

export async function webhookSettings(
  db: Db,
  userId: string,
  appId: string,
  now: Date,
): Promise<WebhookSettings> {
  const app = await ownApp(db, userId, appId);
  const until = app.previous_until;
  return {
    hasSecret: app.secret_created_at !== null,
    secretCreatedAt: app.secret_created_at,
    previousValidUntil:
      until !== null && until > now.getTime() ? new Date(until).toISOString() : null,
    disabledAt: app.disabled_at,
    disabledReason: app.disabled_reason,
  };
}

/**
 * A new signing secret, answered in clear this once (the previous one signs 24 h more). The
 * account's bell and its security history record it: whoever holds the secret can forge events.
 */
export async function rotateSecret(
  db: Db,
  serverKey: string,
  userId: string,
  appId: string,
  now: Date,
  client?: ClientInfo,
): Promise<string> {
  const app = await ownApp(db, userId, appId);
  const secret = await rotateWebhookSecret(db, serverKey, appId, now);
  await recordAccountEvent(
    db,
    userId,
    'webhook_secret',
    { app_name: app.app_name },
    { at: now.toISOString(), client },
  );
  return secret;
}

/** Switches the webhook back on after a 410 switched it off. */
export async function switchWebhookOn(db: Db, userId: string, appId: string): Promise<void> {
  await ownApp(db, userId, appId);
  await db
    .updateTable('app_webhooks')
    .set({ disabled_at: null, disabled_reason: null })
    .where('app_id', '=', appId)
    .execute();
}

/** Nowhere to send: the app has no Webhook URl (the gateway answers its own code for it). */
export class NoWebhookUrlError extends InvalidError {
  constructor() {
    super('Set a Webhook URl in Merchant Setting first.');
  }
}

/** A 410 Gone switched the webhook off. */
export class WebhookSwitchedOffError extends ConflictError {
  constructor() {
    super('The webhook is switched off (the endpoint answered 410 Gone): switch it on first.');
  }
}

function assertSendable(app: { callback_url: string | null; disabled_at: string | null }) {
  if (!app.callback_url) throw new NoWebhookUrlError();
  if (app.disabled_at !== null) throw new WebhookSwitchedOffError();
}

/**
 * Sends test.ping now and answers the delivery as it stands after the attempt. The portal's
 * Send test event spends the same per-app budget as the gateway's.
 */
export async function sendTestEvent(
  deps: DeliveryDeps,
  userId: string,
  appId: string,
): Promise<DeliveryDetails> {
  await ownApp(deps.db, userId, appId);
  return sendTestPing(deps, appId, testEvents(deps));
}

/** A budget of test events per app: `max` per fixed window of `windowMs`. */
interface TestEventBudget {
  max: number;
  windowMs: number;
}

/**
 * The budget of test events per app, shared by the portal and the gateway. Each one POSTs
 * within its request and, when the receiver fails or never answers, is retried on the
 * deliveries' slots; an API key's general budget (600 a minute) would let one app keep those
 * slots busy, so test events get their own (WEBHOOK_TEST_EVENTS_PER_MINUTE, 5 by default).
 */
export function testEvents(deps: DeliveryDeps): TestEventBudget {
  return { max: deps.testEventsPerMinute ?? 5, windowMs: 60_000 };
}

/**
 * The portal's Redeliver budget per app: enough to resend a backlog by hand once the endpoint
 * is fixed, not enough to keep the deliveries' slots busy.
 */
export const REDELIVERIES: TestEventBudget = { max: 30, windowMs: 60_000 };

/** The app's sends of the window are used up; `retryAfterMs` until the next window. */
export class TestEventsUsedUpError extends Error {
  constructor(
    readonly max: number,
    readonly retryAfterMs: number,
    what = 'test events',
  ) {
    super(
      `An app may send ${max} ${what} a minute; try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    );
    this.name = 'TestEventsUsedUpError';
  }
}

/** Spends one send of the app's `budget` window, or throws TestEventsUsedUpError. */
async function spendBudget(
  db: Db,
  name: string,
  appId: string,
  budget: TestEventBudget,
  now: Date,
  what?: string,
): Promise<void> {
  const at = now.getTime();
  const used = await claimRequests(db, `${name}|${appId}`, budget.windowMs, at, 1);
  if (used.count > budget.max) {
    throw new TestEventsUsedUpError(budget.max, used.resetAt - at, what);
  }
}

/**
 * sendTestEvent for the gateway, whose key already names the app. With `budget`, a sendable
 * test event counts against the app's window (refusals before it cost nothing) and one past it
 * throws TestEventsUsedUpError.
 */
export async function sendTestPing(
  deps: DeliveryDeps,
  appId: string,
  budget?: TestEventBudget,
): Promise<DeliveryDetails> {
  const app = await appTarget(deps.db).where('apps.id', '=', appId).executeTakeFirst();
  if (!app) throw new NotFoundError();
  assertSendable(app);
  const now = deps.clock();
  if (budget) await spendBudget(deps.db, 'webhook-test', appId, budget, now);
  const { deliveryId } = await deps.db.transaction().execute((trx) =>
    recordEvent(
      trx,
      {
        appId,
        type: 'test.ping',
        uniqueId: null,
        data: { message: 'Test event from CryptoSafeLock: your endpoint is reached.' },
        now,
      },
      now.getTime() + INLINE_GRACE_MS,
    ),
  );
  if (deliveryId === null) throw new NoWebhookUrlError();
  await attemptDelivery(deps, { deliveryId, wake: 1 });
  return detailsOf(deps.db, deliveryId);
}

/**
 * Sends a delivery's event again now: the same event id and body, a new timestamp and
 * signature, recorded as a new delivery marked as a redelivery of this one.
 */
export async function redeliver(
  deps: DeliveryDeps,
  userId: string,
  deliveryId: string,
): Promise<DeliveryDetails> {
  const original = await ownedDelivery(deps.db, userId, deliveryId);
  const app = await ownApp(deps.db, userId, original.app_id);
  if (original.pruned_at !== null) {
    throw new ConflictError(
      `This delivery's payload was removed after ${deps.bodyRetentionDays} days; it cannot be redelivered.`,
    );
  }
  assertSendable(app);
  const now = deps.clock();
  await spendBudget(deps.db, 'webhook-redeliver', app.id, REDELIVERIES, now, 'redeliveries');
  const id = await deps.db.transaction().execute((trx) =>
    queueDelivery(trx, {
      eventId: original.event_id,
      appId: original.app_id,
      resourceId: original.resource_id,
      resourceSeq: original.resource_seq,
      redeliveryOf: original.redelivery_of ?? original.id,
      now,
      runAt: now.getTime() + INLINE_GRACE_MS,
    }),
  );
  await attemptDelivery(deps, { deliveryId: id, wake: 1 });
  return detailsOf(deps.db, id);
}

async function ownedDelivery(db: Db, userId: string, deliveryId: string) {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('apps as a', 'a.id', 'd.app_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.pruned_at')
    .where('d.id', '=', deliveryId)
    .where('a.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError();
  return row;
}

export interface DeliveryRow {
  id: string;
  eventId: string;
  event: string;
  uniqueId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  httpCode: number | null;
  redelivery: boolean;
  createdAt: string;
  /** The exact signed body; '' once pruned. */
  body: string;
  /** Retention removed the body and the answers' excerpts. */
  pruned: boolean;
}

function deliveryRows(db: Db) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'd.status',
      'd.attempts',
      'd.last_status_code',
      'd.last_error',
      'd.redelivery_of',
      'd.next_attempt_at',
      'd.created_at',
      'd.app_id',
      'e.type',
      'e.unique_id',
      'e.body',
      'e.pruned_at',
    ]);
}

type RawRow = Awaited<ReturnType<ReturnType<typeof deliveryRows>['execute']>>[number];

function rowView(r: RawRow): DeliveryRow {
  return {
    id: r.id,
    eventId: r.event_id,
    event: r.type,
    uniqueId: r.unique_id ?? '',
    status: r.status,
    attempts: r.attempts,
    httpCode: r.last_status_code,
    redelivery: r.redelivery_of !== null,
    createdAt: r.created_at,
    body: r.body,
    pruned: r.pruned_at !== null,
  };
}

/** An IPN Logs row (the list is getAppDetails' callback_data). */
export function ipnLogView(row: DeliveryRow): components['schemas']['IpnLog'] {
  return {
    id: row.id,
    unique_id: row.uniqueId,
    event: row.event,
    created_at: row.createdAt,
    data: row.body,
    status: row.status,
    http_code: row.httpCode,
    attempts: row.attempts,
    redelivery: row.redelivery,
    pruned: row.pruned,
  };
}

// App details reads it on every view.
const deliveriesOfApp = prepared(
  { appId: '', offset: 0, limit: 0 },
  (db, p) =>
    deliveryRows(db)
      .where('d.app_id', '=', p.appId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(p.limit)
      .offset(p.offset),
  { ownerOf: (p) => p.appId },
);

/** A page of the app's deliveries, newest first (IPN Logs; the caller owns the app). */
export async function deliveryPage(
  db: Db,
  appId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    deliveriesOfApp(db, { appId, ...page }),
    rowCount(db, 'webhook_deliveries', appId),
  ]);
  return { rows: rows.map(rowView), total };
}

export interface ResourceEvent {
  id: string;
  type: string;
  createdAt: string;
  /** The exact signed body; '' once pruned. */
  body: string;
  /** Its deliveries, oldest first (a Redeliver adds one). */
  deliveries: DeliveryRow[];
}

/**
 * The app's events about some resources (an invoice and its refunds), in the order they were
 * committed, each with its deliveries (the caller owns the app).
 */
export async function eventsOfResources(
  db: Db,
  appId: string,
  resourceIds: readonly string[],
): Promise<ResourceEvent[]> {
  if (resourceIds.length === 0) return [];
  // The app's seq orders events of several resources as they were committed.
  const events = await db
    .selectFrom('webhook_events')
    .select(['id', 'type', 'created_at', 'body'])
    .where('app_id', '=', appId)
    .where('resource_id', 'in', resourceIds)
    .orderBy('seq')
    .execute();
  if (events.length === 0) return [];
  const deliveries = (
    await deliveryRows(db)
      .where(
        'd.event_id',
        'in',
        events.map((e) => e.id),
      )
      .orderBy('d.created_at')
      .orderBy('d.id')
      .execute()
  ).map(rowView);
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    createdAt: e.created_at,
    body: e.body,
    deliveries: deliveries.filter((d) => d.eventId === e.id),
  }));
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  url: string;
  outcome: SendOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseExcerpt: string | null;
}

export interface DeliveryDetails extends DeliveryRow {
  appId: string;
  lastError: string | null;
  nextAttemptAt: string | null;
  attemptsMade: DeliveryAttempt[];
}

/** View Details: the signed payload, and every attempt with its headers and answer. */
export async function deliveryDetails(
  db: Db,
  userId: string,
  deliveryId: string,
): Promise<DeliveryDetails> {
  await ownedDelivery(db, userId, deliveryId);
  return detailsOf(db, deliveryId);
}

async function detailsOf(db: Db, deliveryId: string): Promise<DeliveryDetails> {
  const row = await deliveryRows(db).where('d.id', '=', deliveryId).executeTakeFirstOrThrow();
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .orderBy('created_at')
    .execute();
  return {
    ...rowView(row),
    appId: row.app_id,
    lastError: row.last_error,
    nextAttemptAt:
      row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    attemptsMade: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.created_at,
      url: a.url,
      // The column holds what postWebhook answered, nothing else.
      outcome: a.outcome as SendOutcome,
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
      requestHeaders: JSON.parse(a.request_headers) as Record<string, string>,
      responseExcerpt: a.response_excerpt,
    })),
  };
}
