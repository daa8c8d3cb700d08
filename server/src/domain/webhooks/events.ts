import type { Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { Database } from '../../db/schema';
import type { DepositStatus, SendStatus } from '../../db/schema';
import { depositView, withdrawalView } from '../../gateway/views';
import type { GatewayDeposit } from '../gatewayDeposits';
import type { Withdrawal } from '../withdrawals';
import { newId } from '../ids';
import { addJob } from '../jobs/queue';

// The outbox. An event is written in the same transaction as the change it reports, so a
// deposit never changes without its event and no event reports a change that was rolled back;
// its delivery (a row and a job) is queued in that same transaction, so a restart loses
// nothing: the job mechanism runs it at least once.
//
// The events API pages through an app's events by `seq`, so a reader that has passed seq n must
// never see a later commit take a number at or below n. On PostgreSQL a sequence would not do:
// transactions commit out of the order they drew their numbers. So the number is max + 1 taken
// under the app's lock, which is held to commit: the next event of the app waits for this one's
// commit before it numbers itself, and numbers follow commit order. The lock is taken last in
// the transaction (nothing else is locked after it), and only for the few inserts that follow;
// a transaction recording events of several apps must take them in app id order.
// SQLite has one writer at a time, so the same code is already in commit order there.

type WithdrawalEventType =
  | 'withdrawal.queued'
  | 'withdrawal.processing'
  | 'withdrawal.energy_transferred'
  | 'withdrawal.broadcast'
  | 'withdrawal.completed'
  | 'withdrawal.failed'
  | 'withdrawal.cancelled';

type WebhookEventType =
  | 'deposit.pending'
  | 'deposit.confirmed'
  | 'deposit.completed'
  | 'deposit.failed'
  | WithdrawalEventType
  | 'test.ping';

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
  1: 'deposit.completed',
  5: 'deposit.failed',
};

/** Every status a withdrawal reaches has its event (0 Pending is never entered). */
const WITHDRAWAL_EVENTS: Partial<Record<SendStatus, WithdrawalEventType>> = {
  2: 'withdrawal.queued',
  3: 'withdrawal.processing',
  4: 'withdrawal.energy_transferred',
  5: 'withdrawal.broadcast',
  1: 'withdrawal.completed',
  6: 'withdrawal.failed',
  7: 'withdrawal.cancelled',
};

interface RecordedEvent {
  eventId: string;
  /** Null when the app has no Webhook URl or its webhook is switched off. */
  deliveryId: string | null;
}

/**
 * Records the event for a deposit that just reached its status (0, 3, 1 or 5; other statuses
 * have no event) with `data` exactly as GET /gateway/v1/deposits/{id} answers; call it inside
 * the transaction that changed the deposit.
 */
export async function emitDepositEvent(
  trx: Transaction<Database>,
  appId: string,
  deposit: GatewayDeposit,
  now: Date,
): Promise<void> {
  const type = DEPOSIT_EVENTS[deposit.status];
  if (!type) return;
  await recordEvent(trx, {
    appId,
    type,
    resourceId: deposit.id,
    uniqueId: deposit.uniqueId,
    data: depositView(deposit),
    now,
  });
}

/**
 * Records the event for a withdrawal that just reached its status, with `data` exactly as
 * GET /gateway/v1/withdrawals/{id} answers; call it inside the transaction that changed it.
 */
export async function emitWithdrawalEvent(
  trx: Transaction<Database>,
  appId: string,
  withdrawal: Withdrawal,
  now: Date,
): Promise<void> {
  const type = WITHDRAWAL_EVENTS[withdrawal.status];
  if (!type) return;
  await recordEvent(trx, {
    appId,
    type,
    resourceId: withdrawal.id,
    uniqueId: withdrawal.uniqueId,
    data: withdrawalView(withdrawal),
    now,
  });
}

/** Writes an event and, when the app takes webhooks, its first delivery and that one's job. */
export async function recordEvent(
  trx: Transaction<Database>,
  event: {
    appId: string;
    type: WebhookEventType;
    /** The resource whose events keep their order; a test.ping is its own resource. */
    resourceId?: string;
    uniqueId: string | null;
    data: unknown;
    now: Date;
  },
  firstRunAt?: number,
): Promise<RecordedEvent> {
  const id = newId('evt');
  const resourceId = event.resourceId ?? id;
  const createdAt = event.now.toISOString();
  // The resource's status change (a compare-and-set) serialises the events of one deposit or
  // withdrawal.
  const last = await trx
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.max('resource_seq').as('seq'))
    .where('app_id', '=', event.appId)
    .where('resource_id', '=', resourceId)
    .executeTakeFirst();
  const seq = Number(last?.seq ?? 0) + 1;
  await lockForTransaction(trx, `webhook_events:${event.appId}`);
  const before = await trx
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('app_id', '=', event.appId)
    .executeTakeFirst();
  const body = JSON.stringify({
    id,
    type: event.type,
    created_at: createdAt,
    app_id: event.appId,
    data: event.data,
  });
  await trx
    .insertInto('webhook_events')
    .values({
      id,
      app_id: event.appId,
      type: event.type,
      resource_id: resourceId,
      resource_seq: seq,
      unique_id: event.uniqueId,
      body,
      created_at: createdAt,
      seq: Number(before?.seq ?? 0) + 1,
      pruned_at: null,
    })
    .execute();
  const target = await trx
    .selectFrom('apps')
    .leftJoin('app_webhooks', 'app_webhooks.app_id', 'apps.id')
    .select(['apps.callback_url', 'app_webhooks.disabled_at'])
    .where('apps.id', '=', event.appId)
    .executeTakeFirst();
  if (!target?.callback_url || target.disabled_at) return { eventId: id, deliveryId: null };
  const deliveryId = await queueDelivery(trx, {
    eventId: id,
    appId: event.appId,
    resourceId,
    resourceSeq: seq,
    redeliveryOf: null,
    now: event.now,
    runAt: firstRunAt,
  });
  return { eventId: id, deliveryId };
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
