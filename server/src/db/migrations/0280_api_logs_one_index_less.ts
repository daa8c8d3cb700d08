import type { Kysely } from 'kysely';

/**
 * API Logs lose their index by time alone (migration 0160): retention now deletes an app's old
 * rows through the index every list pages by, (app_id, created_at, id) (domain/retention.ts),
 * and the time index was only for it. Every gateway request writes a row: the third index cost
 * about 0.5 µs of a row's 6 to 7 on SQLite (a 2,000-row insert, triggers included) and about
 * as much on PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_logs_created').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
