import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * A completed deposit's sweep is followed until its block is final
 * (domain/payments/depositCompletion.ts): `swept_final_at` is when the gateway found it so,
 * null while it is still followed. Deposits completed before this column existed are taken as
 * final: their sweeps were never followed past their mining, and a reorg that deep is behind them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .alterTable('receive_transactions')
    .addColumn('swept_final_at', type.time)
    .execute();
  await sql`update receive_transactions set swept_final_at = process_datetime where deposit_status = 1`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
