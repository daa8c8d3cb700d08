import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { OWNER_CHANNELS } from '../src/db/migrations/0240_owner_changes';

/** `text` as a pattern, any run of whitespace matching any other (definitions keep their breaks). */
const loosely = (text: string) =>
  text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');

/**
 * A PostgreSQL owner trigger function as migration 0660 found it: notifying each channel, the
 * writing connection's own too, instead of telling that one by a notice (owner_note).
 */
export function withoutOwnNotices(definition: string): string {
  return definition.replaceAll('owner_note(channel,', 'pg_notify(channel,');
}

/**
 * A PostgreSQL owner trigger function as migration 0650 found it: notifying `owner_changed`
 * alone, not the writing connection's own channel too.
 */
export function withoutOwnChannels(definition: string): string {
  const channels = loosely(OWNER_CHANNELS);
  return withoutOwnNotices(definition)
    .replace(
      new RegExp(
        `${loosely("pg_notify(channel, '*') FROM")}\\s+${channels}\\s+${loosely('WHERE channel IS NOT NULL;')}`,
        'g',
      ),
      "pg_notify('owner_changed', '*');",
    )
    .replaceAll('pg_notify(channel, o', "pg_notify('owner_changed', o")
    .replace(
      new RegExp(
        `\\) changed,\\s+${channels}\\s+${loosely('WHERE o IS NOT NULL AND channel IS NOT NULL;')}`,
        'g',
      ),
      ') changed\n      WHERE o IS NOT NULL;',
    );
}

/** Every PostgreSQL owner trigger function's definition in the current schema, by name. */
export async function ownerFunctions(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; body: string }>`
    select p.proname as name, pg_get_functiondef(p.oid) as body from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and p.proname like '%\\_owner\\_changed'`.execute(db);
  return new Map(rows.map(({ name, body }) => [name, body]));
}
