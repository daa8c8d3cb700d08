import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * The events API and retention (domain/webhooks/feed.ts, domain/retention.ts):
 * - webhook_events.seq numbers an app's events 1, 2, … in commit order (recordEvent assigns it
 *   under the app's lock, held to commit): the cursor of GET /gateway/v1/events. Existing
 *   events are numbered by their time.
 * - webhook_events.pruned_at: when retention removed the event's body and its deliveries'
 *   response excerpts (the rows stay; Redeliver and View Details say why the payload is gone).
 *   The partial index finds the events still to prune without walking the pruned ones.
 * - api_logs by time alone, for deleting the old ones in batches across every app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  // NOT NULL needs a default on SQLite's ADD COLUMN; every event gets its own number below.
  await db.schema
    .alterTable('webhook_events')
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhook_events').addColumn('pruned_at', type.time).execute();
  await sql`
    update webhook_events set seq = numbered.n
    from (
      select id, row_number() over (partition by app_id order by created_at, id) as n
      from webhook_events
    ) as numbered
    where numbered.id = webhook_events.id
  `.execute(db);
  await db.schema
    .createIndex('webhook_events_seq')
    .on('webhook_events')
    .columns(['app_id', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('webhook_events_unpruned')
    .on('webhook_events')
    .column('created_at')
    .where(sql.ref('pruned_at'), 'is', null)
    .execute();
  await db.schema.createIndex('api_logs_created').on('api_logs').column('created_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
