import type { Kysely } from 'kysely';

/**
 * receive_transactions learn how a deposit strayed from its account's method: paid on another EVM
 * chain in the same coin or token (`wrong_network`), or in another one (`wrong_asset`); null for a
 * deposit in the account's own method, and for every deposit recorded before. An account has no
 * price to fall short of: such a deposit is credited in the method it came in, and the flag tells
 * the merchant's integration that it was not the one asked for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('receive_transactions').addColumn('flag', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
