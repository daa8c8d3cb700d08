import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Deposits the gateway's watcher finds (domain/payments/deposits.ts):
 * - receive_transactions learn where a deposit is on its chain. (chain_id, tx_hash, log_index)
 *   is unique: a transfer is recorded once, and one re-mined in another block after a reorg
 *   updates its row. amount_raw keeps the token's base units exactly; failure_reason says why a
 *   deposit failed (below_minimum, reorged).
 * - watch_cursors: per chain, the last block the watcher has read.
 * - chain_heads: the local chain's head when empty blocks were mined past its last transfer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  const receive = () => db.schema.alterTable('receive_transactions');
  await receive().addColumn('chain_id', 'integer').execute();
  await receive().addColumn('tx_hash', 'text').execute();
  await receive().addColumn('log_index', 'integer').execute();
  await receive().addColumn('block_number', 'bigint').execute();
  await receive().addColumn('amount_raw', type.rawAmount).execute();
  await receive().addColumn('address', 'text').execute();
  await receive().addColumn('failure_reason', 'text').execute();
  await receive().addColumn('credited_at', type.time).execute();
  await db.schema
    .createIndex('receive_transactions_transfer')
    .on('receive_transactions')
    .columns(['chain_id', 'tx_hash', 'log_index'])
    .unique()
    .execute();
  // The watcher's confirmation pass reads the deposits still on their way.
  await db.schema
    .createIndex('receive_transactions_status')
    .on('receive_transactions')
    .columns(['chain_id', 'deposit_status'])
    .execute();

  await db.schema
    .createTable('watch_cursors')
    .addColumn('chain_id', 'integer', (c) => c.primaryKey())
    .addColumn('scanned_block', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chain_heads')
    .addColumn('chain_id', 'integer', (c) => c.primaryKey())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
