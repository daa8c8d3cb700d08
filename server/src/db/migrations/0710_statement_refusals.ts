import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/** The SQLSTATE of refuse_statement's error: a class of the gateway's own. */
export const STATEMENT_REFUSED = 'GW001';

/**
 * PostgreSQL: `refuse_statement(reason)` fails the statement that calls it with STATEMENT_REFUSED,
 * so that a statement written on a guess (domain/webhooks/events.ts: the first events left
 * without deliveries for apps that took no webhooks) undoes itself, whole, when a row it reads
 * shows the guess wrong, and its writer makes it again without the guess. SQLite has nothing of
 * the kind to call: its writers make no such statements.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql
    .raw(
      `CREATE FUNCTION refuse_statement(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION '%', reason USING ERRCODE = '${STATEMENT_REFUSED}';
        END $$`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
