import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/**
 * PostgreSQL: api_logs loses its foreign key to apps. Its check ran once a row, a third of a
 * batch insert's time (3 to 5 µs a row of 12); the API log writer checks the batch's apps once
 * instead, in the insert itself, and holds them (FOR KEY SHARE) until it commits, as the key's
 * checks did (domain/apps/apiLogs.ts). No code deletes an app; one that does must delete its API
 * log rows itself on PostgreSQL, as the key's ON DELETE CASCADE did. SQLite keeps the key: its
 * check is an index lookup, and dropping it would rebuild the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`ALTER TABLE api_logs DROP CONSTRAINT api_logs_app_id_fkey`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
