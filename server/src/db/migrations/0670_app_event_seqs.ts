import { sql, type Kysely } from 'kysely';

/**
 * Each app's last event number (app_event_seqs): an event's `seq` is taken by raising its app's
 * row, whose lock is held to commit, where it was max + 1 read under an advisory lock (two round
 * trips on PostgreSQL, one statement now). Numbers keep following commit order, and they never go
 * back when an app's test data and its events are deleted, so a reader's cursor stays valid.
 * The counters start at each app's last number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_event_seqs')
    .addColumn('app_id', 'text', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into app_event_seqs (app_id, seq)
    select app_id, max(seq) from webhook_events group by app_id`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
