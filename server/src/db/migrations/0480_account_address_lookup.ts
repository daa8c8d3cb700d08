import type { Kysely } from 'kysely';

/**
 * Deposit accounts are found by address on their chain: the watcher looks up the recipients of
 * the blocks it reads (domain/payments/depositScan.ts) rather than loading every account.
 * Invoice addresses have had such an index since 0400 (invoice_payment_options_address).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('app_accounts_chain_address')
    .on('app_accounts')
    .columns(['chain_id', 'address'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
