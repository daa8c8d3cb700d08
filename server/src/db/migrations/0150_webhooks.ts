import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Webhooks (domain/webhooks):
 * - webhook_events: the outbox. One row per event, written in the transaction that changes the
 *   deposit, holding the exact JSON body that is signed and sent. resource_seq numbers the events
 *   of one resource (a deposit) so deliveries keep their order.
 * - webhook_deliveries: one send of an event to the app's Webhook URl (a redelivery is a new
 *   row naming the one it repeats), with its state; the job mechanism wakes it (jobs.key is
 *   `<delivery id>:<wake_seq>`). Times in ms since the epoch where they are scheduling arithmetic.
 * - webhook_attempts: every POST made, with the headers sent and a response excerpt (2 KB).
 * - app_webhooks: per app, the signing secret sealed with the server key (the previous one kept
 *   until previous_until after a rotation) and whether a 410 switched the webhook off.
 * - ipn_logs goes: IPN Logs list the deliveries; its rows were the demo seed's, never sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('resource_seq', 'integer', (c) => c.notNull())
    .addColumn('unique_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_events_resource')
    .on('webhook_events')
    .columns(['app_id', 'resource_id', 'resource_seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('webhook_events_app')
    .on('webhook_events')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) =>
      c.notNull().references('webhook_events.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('resource_seq', 'integer', (c) => c.notNull())
    .addColumn('redelivery_of', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('wake_seq', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('updated_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_app')
    .on('webhook_deliveries')
    .columns(['app_id', 'created_at'])
    .execute();
  // What holds a delivery back: an earlier one of the same resource still on its way.
  await db.schema
    .createIndex('webhook_deliveries_resource')
    .on('webhook_deliveries')
    .columns(['app_id', 'resource_id', 'status'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('app_webhooks')
    .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_until', 'bigint')
    .addColumn('secret_created_at', type.time, (c) => c.notNull())
    .addColumn('disabled_at', type.time)
    .addColumn('disabled_reason', 'text')
    .execute();

  await db.schema.dropTable('ipn_logs').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
