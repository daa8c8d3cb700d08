import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * A completed withdrawal (or refund send) is followed until its block is final
 * (domain/payments/withdrawalSending.ts): final_at is when the gateway found it so, null while it
 * is still followed. Those completed before this column existed are taken as final: they were
 * never followed past their confirmations, and a reorg that deep is behind them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema.alterTable('send_transactions').addColumn('final_at', type.time).execute();
  await sql`update send_transactions set final_at = updated_at where status = 1`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
