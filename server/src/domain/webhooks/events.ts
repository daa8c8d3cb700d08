import type { Db } from '../../db/connection';
import type { DepositStatus } from '../../db/schema';
import { depositView } from '../../gateway/views';
import type { GatewayDeposit } from '../gatewayDeposits';
import { newId } from '../ids';
import { addJob } from '../jobs/queue';

// The outbox. An event is written in the same transaction as the change it reports, so a
// deposit never changes without its event and no event reports a change that was rolled back;
// its delivery (a row and a job) is queued in that same transaction, so a restart loses
// nothing: the job mechanism runs it at least once.

type WebhookEventType = 'deposit.pending' | 'deposit.confirmed' | 'deposit.failed' | 'test.ping';

export const DELIVER_KIND = 'webhooks.deliver';

/** The job that wakes delivery `deliveryId` for the `wake`-th time. */
export interface DeliverPayload {
  deliveryId: string;
  wake: number;
}

export const deliverJobKey = (deliveryId: string, wake: number) => `${deliveryId}:${wake}`;

const DEPOSIT_EVENTS: Partial<Record<DepositStatus, WebhookEventType>> = {
  0: 'deposit.pending',
  3: 'deposit.confirmed',
  5: 'deposit.failed',
};

interface RecordedEvent {
  eventId: string;
  /** Null when the app has no Webhook URl or its webhook is switched off. */
  deliveryId: string | null;
}

/**
 * Records the events of deposits that just reached their status (0, 3 or 5; other statuses have
 * no event), each with `data` exactly as GET /gateway/v1/deposits/{id} answers; call it inside
 * the transaction that changed the deposits (each deposit at most once per call).
 */
export async function emitDepositEvents(
  trx: Db,
  deposits: { appId: string; deposit: GatewayDeposit }[],
  now: Date,
): Promise<void> {
  const events: NewEvent[] = [];
  for (const { appId, deposit } of deposits) {
    const type = DEPOSIT_EVENTS[deposit.status];
    if (!type) continue;
    events.push({
      appId,
      type,
      resourceId: deposit.id,
      uniqueId: deposit.uniqueId,
      data: depositView(deposit),
      now,
    });
  }
  await recordEvents(trx, events);
}

interface NewEvent {
  appId: string;
  type: WebhookEventType;
  /** The resource whose events keep their order; a test.ping is its own resource. */
  resourceId?: string;
  uniqueId: string | null;
  data: unknown;
  now: Date;
}

/** Writes an event and, when the app takes webhooks, its first delivery and that one's job. */
export async function recordEvent(
  trx: Db,
  event: NewEvent,
  firstRunAt?: number,
): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(trx, [event], firstRunAt);
  if (!recorded) throw new Error('recordEvents recorded nothing');
  return recorded;
}

/** Events are written this many to a statement (8 parameters each). */
const EVENT_BATCH = 500;

/** recordEvent for many events at once, in order: a resource's events take its next sequence. */
async function recordEvents(
  trx: Db,
  events: NewEvent[],
  firstRunAt?: number,
): Promise<RecordedEvent[]> {
  const recorded: RecordedEvent[] = [];
  for (let from = 0; from < events.length; from += EVENT_BATCH) {
    const batch = events.slice(from, from + EVENT_BATCH);
    const rows = batch.map((event) => {
      const id = newId('evt');
      return { event, id, resourceId: event.resourceId ?? id };
    });
    // The deposit's status change (a compare-and-set) serialises the events of one deposit.
    const seqs = new Map<string, number>();
    for (const appId of new Set(rows.map((r) => r.event.appId))) {
      const resources = rows.filter((r) => r.event.appId === appId).map((r) => r.resourceId);
      const last = await trx
        .selectFrom('webhook_events')
        .select((eb) => ['resource_id', eb.fn.max('resource_seq').as('seq')])
        .where('app_id', '=', appId)
        .where('resource_id', 'in', resources)
        .groupBy('resource_id')
        .execute();
      for (const row of last) seqs.set(`${appId}|${row.resource_id}`, Number(row.seq ?? 0));
    }
    const values = rows.map(({ event, id, resourceId }) => {
      const key = `${event.appId}|${resourceId}`;
      const seq = (seqs.get(key) ?? 0) + 1;
      seqs.set(key, seq);
      const createdAt = event.now.toISOString();
      const body = JSON.stringify({
        id,
        type: event.type,
        created_at: createdAt,
        app_id: event.appId,
        data: event.data,
      });
      return {
        id,
        app_id: event.appId,
        type: event.type,
        resource_id: resourceId,
        resource_seq: seq,
        unique_id: event.uniqueId,
        body,
        created_at: createdAt,
      };
    });
    if (values.length === 0) continue;
    await trx.insertInto('webhook_events').values(values).execute();
    const takesWebhooks = new Map<string, boolean>();
    for (const appId of new Set(values.map((v) => v.app_id))) {
      const target = await trx
        .selectFrom('apps')
        .leftJoin('app_webhooks', 'app_webhooks.app_id', 'apps.id')
        .select(['apps.callback_url', 'app_webhooks.disabled_at'])
        .where('apps.id', '=', appId)
        .executeTakeFirst();
      takesWebhooks.set(appId, Boolean(target?.callback_url && !target.disabled_at));
    }
    for (const [i, value] of values.entries()) {
      const event = rows[i]?.event;
      if (!event || !takesWebhooks.get(value.app_id)) {
        recorded.push({ eventId: value.id, deliveryId: null });
        continue;
      }
      const deliveryId = await queueDelivery(trx, {
        eventId: value.id,
        appId: value.app_id,
        resourceId: value.resource_id,
        resourceSeq: value.resource_seq,
        redeliveryOf: null,
        now: event.now,
        runAt: firstRunAt,
      });
      recorded.push({ eventId: value.id, deliveryId });
    }
  }
  return recorded;
}

/** A delivery row, due at `runAt` (default now), and the job that wakes it. */
export async function queueDelivery(
  trx: Db,
  d: {
    eventId: string;
    appId: string;
    resourceId: string;
    resourceSeq: number;
    redeliveryOf: string | null;
    now: Date;
    runAt?: number;
  },
): Promise<string> {
  const id = newId('whd');
  const at = d.now.toISOString();
  const runAt = d.runAt ?? d.now.getTime();
  await trx
    .insertInto('webhook_deliveries')
    .values({
      id,
      event_id: d.eventId,
      app_id: d.appId,
      resource_id: d.resourceId,
      resource_seq: d.resourceSeq,
      redelivery_of: d.redeliveryOf,
      status: 'pending',
      attempts: 0,
      next_attempt_at: runAt,
      wake_seq: 1,
      last_status_code: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const payload: DeliverPayload = { deliveryId: id, wake: 1 };
  await addJob(
    trx,
    { kind: DELIVER_KIND, key: deliverJobKey(id, 1), payload, runAt },
    d.now.getTime(),
  );
  return id;
}
