import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';
import { engineOf } from '../connection';

/**
 * The per-IP request budgets (@fastify/rate-limit, http/rateLimitStore.ts) move from process
 * memory to the database, so several server processes share one count per client.
 * - rate_limits: one fixed window per key (`<budget>|<ip>`): the requests counted in it and when
 *   it ends, in ms since the epoch. Expired rows are pruned now and then by reset_at.
 * On PostgreSQL the table is UNLOGGED: every API request writes it, and a counter needs no WAL
 * flush per commit nor crash safety (a crash empties it, which only resets the budgets).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  let table = db.schema.createTable('rate_limits');
  if (engineOf(db) === 'postgres') table = table.modifyFront(sql`unlogged`);
  await table
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', types.bigint, (c) => c.notNull())
    .addColumn('reset_at', types.bigint, (c) => c.notNull())
    .execute();
  // Pruning the windows that have ended.
  await db.schema
    .createIndex('rate_limits_reset_at')
    .on('rate_limits')
    .column('reset_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
