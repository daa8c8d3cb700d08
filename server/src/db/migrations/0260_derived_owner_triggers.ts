import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/**
 * The kept counts and daily totals (row_counts, app_daily_usage: migration 0230) change only
 * inside the triggers of the rows they count, in the same statement, and those rows' own owner
 * triggers (migration 0250) name the same owners: an app and its user, or the ledger's user. Their
 * own owner triggers named them again, twice more per row on SQLite for an upsert (the row before
 * and after): four of the six calls an API log row made into `owner_changed`, about a quarter of
 * the row's insert. db/ownerChanges.test.ts checks that only triggers of tables with owner
 * triggers write them.
 */
export const DERIVED_TABLES = ['row_counts', 'app_daily_usage'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  for (const table of DERIVED_TABLES) {
    for (const op of ['insert', 'update', 'delete', ...(postgres ? ['truncate'] : [])]) {
      const trigger = `${table}_owner_${op}`;
      await sql.raw(`DROP TRIGGER ${trigger}${postgres ? ` ON ${table}` : ''}`).execute(db);
    }
    if (postgres) await sql.raw(`DROP FUNCTION ${table}_owner_changed()`).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
