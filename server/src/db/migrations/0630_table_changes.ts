import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';
import { countChange } from './0240_owner_changes';

/**
 * The owner triggers name the table with each owner, so that a change voids only what was read
 * of that table for them (db/ownerChanges.ts): a gateway creation writes an account and an API
 * log row of its app, and no longer voids the app's plan, methods and key kept for the next one.
 * - SQLite: `owner_changed(owner, table)`, and each trigger counts its table's changes in
 *   `kept_table_changes`, in the writing statement: another process that sees a commit reads the
 *   counts and voids what it read of the tables that moved, where it used to void everything.
 * - PostgreSQL: the notification's payload is `owner table`.
 * Both rewrite the triggers made before; later ones are made so (0240's addOwnerTriggers).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    const { rows } = await sql<{ definition: string }>`
      SELECT pg_get_functiondef(p.oid) AS definition
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname LIKE '%\\_owner\\_changed'`.execute(db);
    for (const { definition } of rows) {
      const named = definition.replaceAll(
        "pg_notify('owner_changed', o)",
        "pg_notify('owner_changed', o || ' ' || TG_TABLE_NAME)",
      );
      if (named !== definition) await sql.raw(named).execute(db);
    }
    return;
  }
  await sql`CREATE TABLE kept_table_changes (
      name TEXT PRIMARY KEY,
      n INTEGER NOT NULL
    ) WITHOUT ROWID`.execute(db);
  const { rows } = await sql<{ name: string; tbl: string; body: string }>`
    SELECT name, tbl_name AS tbl, sql AS body FROM sqlite_master
    WHERE type = 'trigger' AND sql LIKE '%owner_changed(o)%'`.execute(db);
  for (const { name, tbl, body } of rows) {
    const named = body
      .replaceAll('owner_changed(o)', `owner_changed(o, '${tbl}')`)
      .replace(/\bEND\s*$/, `  ${countChange(tbl)}\n      END`);
    if (!named.includes('kept_table_changes')) throw new Error(`Trigger ${name} has no END`);
    await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    await sql.raw(named).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
