import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * The local chain holds every chain id of the spec, and native coins beside tokens
 * (domain/chain/localAdapter.ts); the watcher keeps one cursor per chain:
 * - chain_transfers learn their chain and asset: `token_contract` is the token's contract
 *   address, null for the chain's native coin. Rows so far were BEP20 USDT on BNB Smart Chain.
 *   A native transfer has no log: its log_index is -1, as in receive_transactions, so one unique
 *   (tx_hash, log_index) key serves both kinds on both engines (NULLs would not collide).
 * - watch_cursors learn the hash of the block they stopped at (a different hash there later
 *   means a reorg: the watcher rescans a window below it) and the head last seen (the lag metric).
 * - the recurring watcher and miner jobs become one per chain (`deposits.watch:<chain id>`,
 *   `chain.mine:<chain id>`): the single jobs they replace go, or they would wait forever.
 */
/** The contract of the rows written before this migration (fixed here: migrations never change). */
const BEP20_USDT = '0x55d398326f99059fF775485246999027B3197955';

export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  const transfers = () => db.schema.alterTable('chain_transfers');
  await transfers()
    .addColumn('chain_id', 'integer', (c) => c.notNull().defaultTo(56))
    .execute();
  await transfers().addColumn('token_contract', 'text').execute();
  await sql`update chain_transfers set token_contract = ${BEP20_USDT}`.execute(db);
  await db.schema
    .createIndex('chain_transfers_chain_block')
    .on('chain_transfers')
    .columns(['chain_id', 'block_number'])
    .execute();

  await sql`delete from jobs where kind in ('deposits.watch', 'chain.mine')`.execute(db);

  const cursors = () => db.schema.alterTable('watch_cursors');
  await cursors().addColumn('scanned_hash', 'text').execute();
  await cursors().addColumn('head_block', type.bigint).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
