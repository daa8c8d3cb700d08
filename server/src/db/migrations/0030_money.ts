import type { Kysely } from 'kysely';

/**
 * The deposit scan cursor: the last block of the user's deposit address that has been scanned
 * with enough confirmations. A balance-sync reads the chain from the next block on, so it never
 * rescans history (EVM RPCs cap the block range of a log query).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deposit_scanned_block', 'bigint').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
