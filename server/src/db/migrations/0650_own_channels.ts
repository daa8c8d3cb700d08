import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';
import { OWNER_CHANNELS } from './0240_owner_changes';

/**
 * PostgreSQL: the owner triggers also notify the writing connection's own channel (0240's
 * OWNER_CHANNELS). Every connection of a server process's pool listened to `owner_changed`, so
 * that the process heard of its own writes before their COMMIT returned, and each commit woke
 * every connection of every process (up to 22 backends with two processes): a pool connection
 * now listens to its own channel only. Rewrites the trigger functions made before; later ones
 * are made so. SQLite hears its own writes in the writing statement: nothing changes there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  const { rows } = await sql<{ definition: string }>`
    SELECT pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() AND p.proname LIKE '%\\_owner\\_changed'`.execute(db);
  for (const { definition } of rows) {
    const both = definition
      .replaceAll(
        "PERFORM pg_notify('owner_changed', '*');",
        `PERFORM pg_notify(channel, '*') FROM ${OWNER_CHANNELS} WHERE channel IS NOT NULL;`,
      )
      .replaceAll(
        "pg_notify('owner_changed', o || ' ' || TG_TABLE_NAME)",
        "pg_notify(channel, o || ' ' || TG_TABLE_NAME)",
      )
      .replace(
        /\) changed\s+WHERE o IS NOT NULL;/g,
        `) changed,\n        ${OWNER_CHANNELS}\n      WHERE o IS NOT NULL AND channel IS NOT NULL;`,
      );
    if (both !== definition) await sql.raw(both).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
