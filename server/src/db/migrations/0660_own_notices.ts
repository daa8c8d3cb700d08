import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';
import { OWNER_NOTE } from './0240_owner_changes';

/**
 * PostgreSQL: the owner triggers tell the writing connection of its change by a notice instead of
 * a notification on its own channel (0240's OWNER_NOTE), so that no pool connection listens:
 * PostgreSQL woke every listening backend at each commit that notified, whatever its channel.
 * Rewrites the trigger functions made before; later ones are made so. SQLite hears its own
 * writes in the writing statement: nothing changes there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql.raw(OWNER_NOTE).execute(db);
  const { rows } = await sql<{ definition: string }>`
    SELECT pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() AND p.proname LIKE '%\\_owner\\_changed'`.execute(db);
  for (const { definition } of rows) {
    const noted = definition.replaceAll('pg_notify(channel,', 'owner_note(channel,');
    if (noted !== definition) await sql.raw(noted).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
