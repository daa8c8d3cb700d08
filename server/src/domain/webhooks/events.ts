import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import type { DepositStatus, SendStatus } from '../../db/schema';
import { depositView, withdrawalView } from '../payments/views';
import type { GatewayDeposit } from '../payments/depositReads';
import type { Withdrawal } from '../payments/withdrawalReads';
import { newTimeOrderedId } from '../ids';
import { addJobs, jobRow, jobsWritten, type NewJob } from '../../jobs/queue';
import {
  insertFromJson,
  insertRows,
  rowsFromJson,
  runNamed,
  runShaped,
  type TableRows,
} from '../../db/rowInserts';
import type { components } from '../../generated/gateway.gen';
import { withMode, type Unmoded } from '../livemode';
import { STATEMENT_REFUSED } from '../../db/migrations/0710_statement_refusals';

// The outbox. An event is written in the same transaction as the change it reports, so a
// deposit never changes without its event and no event reports a change that was rolled back;
// its delivery (a row and a job) is queued in that same transaction, so a restart loses
// nothing: the job mechanism runs it at least once.
//
// The events API pages through an app's events by `seq`, so a reader that has passed seq n must
// never see a later commit take a number at or below n. On PostgreSQL a sequence would not do:
// transactions commit out of the order they drew their numbers. So the number comes from the
// app's counter row (app_event_seqs), raised by the transaction and so locked until it commits:
// the next event of the app waits for this one's commit before it numbers itself, and numbers
// follow commit order. The counter is raised last in the transaction (nothing else is locked
// after it), and only for the few inserts that follow; a transaction recording events of several
// apps raises their counters in app id order. New invoices on PostgreSQL are one statement with
// their events (recordFirstEventsWith): atomic without a transaction, the counter's row locked to
// its end, the rows it inserts checking their foreign keys after, as they do in a transaction.
// SQLite has one writer at a time, so the same code is already in commit order there.

type WithdrawalEventType =
  | 'withdrawal.queued'
  | 'withdrawal.processing'
  | 'withdrawal.energy_transferred'
  | 'withdrawal.broadcast'
  | 'withdrawal.completed'
  | 'withdrawal.reorged'
  | 'withdrawal.failed'
  | 'withdrawal.cancelled';

/** An invoice's events: its creation, each payment seen, each status it reaches. */
export type InvoiceEventType = components['schemas']['InvoiceEvent']['type'];

/** A refund's events: its creation, its claim, and each end it reaches. */
export type RefundEventType = components['schemas']['RefundEvent']['type'];

type WebhookEventType =
  | 'deposit.pending'
  | 'deposit.confirmed'
  | 'deposit.completed'
  | 'deposit.reorged'
  | 'deposit.failed'
  | WithdrawalEventType
  | InvoiceEventType
  | RefundEventType
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
 * Records the events of deposits that just reached their status (0, 3, 1 or 5; other statuses
 * have no event), each with `data` exactly as GET /gateway/v1/deposits/{id} answers; call it
 * inside the transaction that changed the deposits (each deposit at most once per call).
 */
export async function emitDepositEvents(
  trx: Transaction<Database>,
  deposits: { appId: string; deposit: GatewayDeposit }[],
  now: Date,
  /** An event other than its status's: a completed deposit's sweep reorged away. */
  event?: 'deposit.reorged',
): Promise<void> {
  const events: NewEvent[] = [];
  for (const { appId, deposit } of deposits) {
    const type = event ?? DEPOSIT_EVENTS[deposit.status];
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
  /** The object as the gateway answers it, but for its mode (the app's, added here). */
  data: object;
  now: Date;
  /** The resource's first event (it was made in this transaction): no number to look up. */
  firstOfResource?: boolean;
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
  /** The event when it is not its status's (a reorg's move back to 5). */
  event?: 'withdrawal.reorged',
): Promise<void> {
  const type = event ?? WITHDRAWAL_EVENTS[withdrawal.status];
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

/**
 * Records `types` of an invoice, in order, each with `data` exactly as
 * GET /gateway/v1/invoices/{id} answers now; call it inside the transaction that changed it.
 */
export async function emitInvoiceEvents(
  trx: Transaction<Database>,
  appId: string,
  invoice: Unmoded<components['schemas']['Invoice']>,
  types: readonly InvoiceEventType[],
  now: Date,
): Promise<void> {
  await emitManyInvoiceEvents(trx, [{ appId, invoice, types, now }]);
}

/** emitInvoiceEvents for several invoices at once, in order (each app's counter raised once). */
export async function emitManyInvoiceEvents(
  trx: Transaction<Database>,
  invoices: readonly {
    appId: string;
    invoice: Unmoded<components['schemas']['Invoice']>;
    types: readonly InvoiceEventType[];
    now: Date;
  }[],
): Promise<void> {
  await recordEvents(
    trx,
    invoices.flatMap(({ appId, invoice, types, now }) =>
      types.map((type) => ({
        appId,
        type,
        resourceId: invoice.id,
        uniqueId: invoice.order_id,
        data: invoice,
        now,
        firstOfResource: type === 'invoice.created',
      })),
    ),
  );
}

/**
 * Records a refund's event with `data` as GET /gateway/v1/refunds/{id} answers now; call it
 * inside the transaction that changed it, last (it locks the app's event counter).
 */
export async function emitRefundEvent(
  trx: Transaction<Database>,
  appId: string,
  refund: Unmoded<components['schemas']['Refund']>,
  type: RefundEventType,
  now: Date,
): Promise<void> {
  await recordEvent(trx, {
    appId,
    type,
    resourceId: refund.id,
    uniqueId: null,
    data: refund,
    now,
  });
}

/** Writes an event and, when the app takes webhooks, its first delivery and that one's job. */
export async function recordEvent(
  trx: Transaction<Database>,
  event: NewEvent,
  firstRunAt?: number,
): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(trx, [event], firstRunAt);
  if (!recorded) throw new Error('recordEvents recorded nothing');
  return recorded;
}

/**
 * In a statement that raises app_event_seqs: whether the counter's app takes webhooks (a Webhook
 * URl, and its webhook not switched off after a 410).
 */
const TAKES_WEBHOOKS = sql<boolean>`exists (
  select 1 from apps left join app_webhooks on app_webhooks.app_id = apps.id
  where apps.id = app_event_seqs.app_id and apps.callback_url <> ''
    and app_webhooks.disabled_at is null)`;

/** Rows written (or resources looked up) per statement: far below both engines' parameter caps. */
const EVENT_BATCH = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let from = 0; from < items.length; from += EVENT_BATCH) {
    out.push(items.slice(from, from + EVENT_BATCH));
  }
  return out;
}

/**
 * recordEvent for many events at once, in order: a resource's events take its next
 * resource_seq, an app's events its next seqs (consecutive, in the order given). Each app's counter
 * is raised once, in app id order (see the top of this file), after the resources' reads.
 */
async function recordEvents(
  trx: Transaction<Database>,
  events: NewEvent[],
  firstRunAt?: number,
): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    const id = newTimeOrderedId('evt', event.now);
    return { event, id, resourceId: event.resourceId ?? id };
  });
  const appIds = [...new Set(rows.map((r) => r.event.appId))].sort();
  // Every app's at once: a block pays many apps, and each statement is a round trip.
  // The resource's status change (a compare-and-set) serialises the events of one deposit or
  // withdrawal.
  const resourceSeqs = new Map<string, number>();
  const looked = rows.filter((r) => !r.event.firstOfResource).map((r) => r.resourceId);
  for (const part of chunks([...new Set(looked)])) {
    const last = await trx
      .selectFrom('webhook_events')
      .select((eb) => ['app_id', 'resource_id', eb.fn.max('resource_seq').as('seq')])
      .where('app_id', 'in', appIds)
      .where('resource_id', 'in', part)
      .groupBy(['app_id', 'resource_id'])
      .execute();
    for (const row of last) {
      resourceSeqs.set(`${row.app_id}|${row.resource_id}`, Number(row.seq ?? 0));
    }
  }
  // Each app's numbers are taken by raising its counter, whose row stays locked to commit (in
  // app id order), and the same statement answers the app's mode (its events' and their objects'
  // livemode) and whether it takes webhooks.
  const counts = new Map<string, number>();
  for (const { event } of rows) counts.set(event.appId, (counts.get(event.appId) ?? 0) + 1);
  const apps = new Map<string, { livemode: boolean; takesWebhooks: boolean }>();
  const appSeqs = new Map<string, number>();
  for (const part of chunks(appIds)) {
    const raise = insertRows(
      trx,
      trx,
      'app_event_seqs',
      part.map((appId) => ({ app_id: appId, seq: counts.get(appId) ?? 0 })),
    )
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet({ seq: sql`app_event_seqs.seq + excluded.seq` }),
      )
      .returning((eb) => [
        'app_event_seqs.app_id',
        'app_event_seqs.seq',
        eb
          .selectFrom('apps')
          .select('apps.livemode')
          .whereRef('apps.id', '=', 'app_event_seqs.app_id')
          .as('livemode'),
        TAKES_WEBHOOKS.as('takes'),
      ]);
    for (const target of await runNamed(trx, raise)) {
      apps.set(target.app_id, {
        livemode: target.livemode !== 0,
        takesWebhooks: Boolean(target.takes),
      });
      // The number before this transaction's first event of the app.
      appSeqs.set(target.app_id, Number(target.seq) - (counts.get(target.app_id) ?? 0));
    }
  }
  const values = rows.map(({ event, id, resourceId }) => {
    const key = `${event.appId}|${resourceId}`;
    const resourceSeq = (resourceSeqs.get(key) ?? 0) + 1;
    resourceSeqs.set(key, resourceSeq);
    const seq = (appSeqs.get(event.appId) ?? 0) + 1;
    appSeqs.set(event.appId, seq);
    const livemode = apps.get(event.appId)?.livemode ?? true;
    return eventRow(event, { id, resourceId, resourceSeq, seq, livemode });
  });
  for (const part of chunks(values)) {
    await runNamed(trx, insertRows(trx, trx, 'webhook_events', part));
  }
  const delivered = values.flatMap((value, i) => {
    const event = rows[i]?.event;
    if (!event || !apps.get(value.app_id)?.takesWebhooks) return [];
    return [
      {
        eventId: value.id,
        appId: value.app_id,
        resourceId: value.resource_id,
        resourceSeq: value.resource_seq,
        redeliveryOf: null,
        now: event.now,
        runAt: firstRunAt,
      },
    ];
  });
  const deliveryIds = new Map<string, string>();
  for (const part of chunks(delivered)) {
    const ids = await queueDeliveries(trx, part);
    part.forEach((d, i) => {
      const id = ids[i];
      if (id !== undefined) deliveryIds.set(d.eventId, id);
    });
  }
  return values.map((value) => ({
    eventId: value.id,
    deliveryId: deliveryIds.get(value.id) ?? null,
  }));
}

interface EventNumbers {
  id: string;
  resourceId: string;
  resourceSeq: number;
  seq: number;
  livemode: boolean;
}

/** An event's row, its body made of the event and the app's mode. */
function eventRow(event: NewEvent, numbers: EventNumbers) {
  const row = eventRowWithBody(event, numbers);
  return { ...row, body: JSON.stringify(row.body) };
}

/** An event's row with its body as an object, not yet its JSON text. */
function eventRowWithBody(event: NewEvent, row: EventNumbers) {
  const { id, livemode } = row;
  const createdAt = event.now.toISOString();
  const body = {
    id,
    type: event.type,
    created_at: createdAt,
    app_id: event.appId,
    // A test ping's data is a greeting, not an object of the app.
    data: event.type === 'test.ping' ? event.data : withMode(event.data, livemode),
    livemode,
  };
  return {
    id,
    app_id: event.appId,
    type: event.type,
    resource_id: row.resourceId,
    resource_seq: row.resourceSeq,
    unique_id: event.uniqueId,
    body,
    created_at: createdAt,
    seq: row.seq,
    pruned_at: null,
  };
}

/**
 * PostgreSQL: the first events of new resources (`invoice.created`), written by the statement
 * that inserts the resources, whose rows `written` gives per table, each insert a common table
 * expression of the name given, in that order. One statement is atomic with no transaction around
 * it: one round trip where a transaction took five. The bodies take each app's mode from
 * `livemodes` (an app's mode never changes: a test app is a row of its own). The numbers come
 * from the apps' counters as recordEvents' do, raised in app id order and locked to the
 * statement's end; a delivery and its job are written for each event of an app that takes
 * webhooks, as the statement finds the app.
 */
export async function recordFirstEventsWith(
  db: Db,
  written: readonly (TableRows & { name: string })[],
  events: readonly NewEvent[],
  livemodes: ReadonlyMap<string, boolean>,
): Promise<void> {
  const counts = new Map<string, number>();
  const made = events.map((event) => {
    const id = newTimeOrderedId('evt', event.now);
    // Its place among the statement's events of its app: its number is the counter's value
    // before the statement plus this.
    const seq = (counts.get(event.appId) ?? 0) + 1;
    counts.set(event.appId, seq);
    const livemode = livemodes.get(event.appId) ?? true;
    const resourceId = event.resourceId ?? id;
    // The body as an object: json_populate_recordset gives a text column a nested value's JSON
    // text as written, the very bytes JSON.stringify makes of it alone, so it is stringified
    // once with the rows instead of first alone and then escaped inside them.
    const row = eventRowWithBody(event, { id, resourceId, resourceSeq: 1, seq, livemode });
    return { event, row };
  });
  const rows = made.map(({ row }) => row);
  const deliveries = deliveryRows(
    made.map(({ event, row }) => ({
      eventId: row.id,
      appId: row.app_id,
      resourceId: row.resource_id,
      resourceSeq: row.resource_seq,
      redeliveryOf: null,
      now: event.now,
    })),
  );
  const now = Math.min(...events.map((event) => event.now.getTime()));
  const queued = deliveryJobs(deliveries);
  const jobs = queued.map((job) => jobRow(job, now));
  const appCounts = [...counts].map(([app_id, seq]) => ({ app_id, seq }));
  const apps = [...counts.keys()];
  const names = written.map((part) => part.name).join();
  const statement = (withDeliveries: boolean) =>
    firstEventsStatement(db, names, { written, appCounts, rows, deliveries, jobs }, withDeliveries);
  // Outside a transaction only: a refused statement there would abort the transaction.
  if (!db.isTransaction && apps.every((app) => webhookless.has(app))) {
    try {
      await statement(false);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== STATEMENT_REFUSED) throw error;
      for (const app of apps) webhookless.delete(app);
    }
  }
  const found = await statement(true);
  for (const { app_id, takes } of found) {
    if (takes) webhookless.delete(app_id);
    else if (webhookless.size < WEBHOOKLESS_KEPT) webhookless.add(app_id);
  }
  if (found.some((app) => app.takes)) jobsWritten(queued, now);
}

/**
 * Apps that the last statement of recordFirstEventsWith in this process found taking no
 * webhooks. The next statement of only such apps leaves the deliveries' and jobs' inserts out
 * (PostgreSQL runs their statement triggers, a tenth of the statement's time, though they insert
 * no row), and refuses itself, whole, if one of its apps takes webhooks after all (a Webhook URl
 * set since, in any process): it is then made again with them. A guess, never the authority;
 * at most WEBHOOKLESS_KEPT apps are remembered.
 */
const webhookless = new Set<string>();
const WEBHOOKLESS_KEPT = 10_000;

interface FirstEventRows {
  written: readonly (TableRows & { name: string })[];
  appCounts: { app_id: string; seq: number }[];
  rows: ReturnType<typeof eventRowWithBody>[];
  deliveries: ReturnType<typeof deliveryRows>;
  jobs: ReturnType<typeof jobRow>[];
}

/**
 * recordFirstEventsWith's statement: `written`'s inserts, the counters raised, the events and,
 * `withDeliveries`, the deliveries and jobs of the apps that take webhooks, answering each
 * app's `takes`; without, it answers nothing and refuses itself if an app takes webhooks.
 */
async function firstEventsStatement(
  db: Db,
  names: string,
  { written, appCounts, rows, deliveries, jobs }: FirstEventRows,
  withDeliveries: boolean,
): Promise<{ app_id: string; takes: boolean }[]> {
  const [event, delivery, job] = [rows[0], deliveries[0], jobs[0]];
  if (!event || !delivery || !job) throw new Error('recordFirstEventsWith needs events');
  const parts: TableRows[] = [
    ...written,
    { table: 'app_event_seqs', rows: appCounts },
    { table: 'webhook_events', rows },
    ...(withDeliveries
      ? [
          { table: 'webhook_deliveries' as const, rows: deliveries },
          { table: 'jobs' as const, rows: jobs },
        ]
      : []),
  ];
  const shape = `first events ${withDeliveries ? 'with' : 'without'} deliveries after ${names}`;
  return runShaped(db, shape, parts, () => {
    // Each insert's columns are its rows' keys, selected in that order from the JSON's rows,
    // `computed` ones from the expression given.
    const columns = (row: object) => sql.join(Object.keys(row).map((c) => sql.ref(c)));
    const selected = (
      from: string,
      row: object,
      computed: Record<string, RawBuilder<unknown>> = {},
    ) => sql.join(Object.keys(row).map((c) => computed[c] ?? sql.ref(`${from}.${c}`)));
    const inserts = written.map((part) => sql`${sql.ref(part.name)} as (${insertFromJson(part)})`);
    const delivered = sql`,
    deliveries as (
      insert into webhook_deliveries (${columns(delivery)})
      select ${selected('d', delivery)}
      from ${rowsFromJson('webhook_deliveries', deliveries)} d
        join raised using (app_id) where raised.takes),
    jobs as (
      insert into jobs (${columns(job)})
      select ${selected('j', job, { payload: sql`(j.payload #>> '{}')::jsonb` })}
      from ${rowsFromJson('jobs', jobs)} j
        join raised on raised.app_id = j.group_key where raised.takes
      on conflict (kind, key) do nothing)
    select app_id, takes from raised`;
    const refused = sql`
    select app_id, refuse_statement('an app takes webhooks') as takes from raised where takes`;
    return sql<{ app_id: string; takes: boolean }>`with ${sql.join(inserts)},
    counts as (
      select app_id, seq from ${rowsFromJson('app_event_seqs', appCounts)}),
    raised as (
      insert into app_event_seqs (app_id, seq) select app_id, seq from counts order by app_id
      on conflict (app_id) do update set seq = app_event_seqs.seq + excluded.seq
      returning app_event_seqs.app_id, app_event_seqs.seq, ${TAKES_WEBHOOKS} as takes),
    events as (
      insert into webhook_events (${columns(event)})
      select ${selected('e', event, { seq: sql`raised.seq - counts.seq + e.seq` })}
      from ${rowsFromJson('webhook_events', rows)} e
        join raised using (app_id) join counts using (app_id))${
          withDeliveries ? delivered : refused
        }`;
  });
}

interface NewDelivery {
  eventId: string;
  appId: string;
  resourceId: string;
  resourceSeq: number;
  redeliveryOf: string | null;
  now: Date;
  runAt?: number;
}

/** A delivery row, due at `runAt` (default now), and the job that wakes it; answers its id. */
export async function queueDelivery(trx: Db, d: NewDelivery): Promise<string> {
  const [id] = await queueDeliveries(trx, [d]);
  if (id === undefined) throw new Error('queueDeliveries queued nothing');
  return id;
}

/** queueDelivery for many, two statements in all; answers their ids in the order given. */
async function queueDeliveries(trx: Db, list: readonly NewDelivery[]): Promise<string[]> {
  const rows = deliveryRows(list);
  if (rows.length === 0) return [];
  await trx.insertInto('webhook_deliveries').values(rows).execute();
  const now = Math.min(...list.map((d) => d.now.getTime()));
  await addJobs(trx, deliveryJobs(rows), now);
  return rows.map((row) => row.id);
}

/** The delivery rows of `list`, due at their `runAt` (default now). */
function deliveryRows(list: readonly NewDelivery[]) {
  return list.map((d) => {
    const at = d.now.toISOString();
    return {
      id: newTimeOrderedId('whd', d.now),
      event_id: d.eventId,
      app_id: d.appId,
      resource_id: d.resourceId,
      resource_seq: d.resourceSeq,
      redelivery_of: d.redeliveryOf,
      status: 'pending' as const,
      attempts: 0,
      next_attempt_at: d.runAt ?? d.now.getTime(),
      wake_seq: 1,
      last_status_code: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    };
  });
}

/** The jobs that wake each delivery the first time, counted in its app's lane. */
function deliveryJobs(rows: ReturnType<typeof deliveryRows>): NewJob[] {
  return rows.map((row) => {
    const payload: DeliverPayload = { deliveryId: row.id, wake: 1 };
    return {
      kind: DELIVER_KIND,
      key: deliverJobKey(row.id, 1),
      payload,
      group: row.app_id,
      runAt: row.next_attempt_at,
    };
  });
}
