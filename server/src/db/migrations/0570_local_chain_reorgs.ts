import type { Kysely } from 'kysely';

/**
 * Reorgs of the local chain, which test mode's `reorg` scenario makes: a simulated payment that
 * a reorg will take off the chain (reorged_at null until then), and once taken, the block it was
 * in, from which the chain's blocks have other hashes (LocalChainAdapter.blockHash), so the
 * watcher sees the reorg as it would a real chain's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('local_chain_reorgs')
    .addColumn('tx_hash', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('block_number', 'integer', (c) => c.notNull())
    .addColumn('reorged_at', 'text')
    .execute();
  await db.schema
    .createIndex('local_chain_reorgs_chain')
    .on('local_chain_reorgs')
    .columns(['chain_id', 'block_number'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
