import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';
import { postgresOwnerFunction, SESSION_OWNERS } from './0240_owner_changes';
import { KEPT_READ_OWNERS } from './0250_kept_reads';
import { DERIVED_TABLES } from './0260_derived_owner_triggers';

/**
 * PostgreSQL's owner trigger functions (migrations 0240, 0250) looked up an app's user once per
 * written row: 2,000 API log rows of one app made 2,000 lookups in `apps` for one owner. They now
 * reduce the rows to the distinct values their owners read first (postgresOwnerFunction), the
 * largest cost of an API log flush after the rows themselves and their foreign key (a profile
 * of the gateway's reads on PostgreSQL). The same owners are named; SQLite's row triggers look up
 * one row each and are unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const derived: readonly string[] = DERIVED_TABLES;
  for (const [table, owners] of [...SESSION_OWNERS, ...KEPT_READ_OWNERS]) {
    if (derived.includes(table)) continue;
    await sql.raw(postgresOwnerFunction(table, owners)).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
