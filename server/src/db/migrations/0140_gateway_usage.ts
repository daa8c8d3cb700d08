import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * The app tabs from real rows (domain/apps/usage.ts, domain/apps/apiLogs.ts):
 * - api_logs record each gateway answer's HTTP status;
 * - a credited deposit records the package fee in force when it was credited: the percent (exact
 *   decimal text, e.g. '0.75') and the fee it implies in the token's base units; null when the
 *   merchant had no package. The withdrawals issue takes the fee at the sweep;
 * - (app_id, credited_at) serves the plan's counts and the Daily Logs aggregation;
 * - daily_logs goes: Daily Logs is a query over the receive and send rows, never a stored total.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema.alterTable('api_logs').addColumn('status', 'integer').execute();
  await db.schema.alterTable('receive_transactions').addColumn('fee_percent', 'text').execute();
  await db.schema.alterTable('receive_transactions').addColumn('fee_raw', type.rawAmount).execute();
  await db.schema
    .createIndex('receive_transactions_credited')
    .on('receive_transactions')
    .columns(['app_id', 'credited_at'])
    .execute();
  await db.schema.dropTable('daily_logs').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
