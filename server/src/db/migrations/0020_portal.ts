import type { Kysely } from 'kysely';

/**
 * The ledger's read side (dashboard Recent Activity, the balance) looks entries up by user.
 * The foundation's (user_id, created_at) index gains the type and amount columns: Recent
 * Activity (`user_id = ? ORDER BY created_at DESC LIMIT 10`) still walks it backwards, and the
 * balance sum now reads type and amount from the index alone (no table rows), so both stay fast
 * however many entries the table holds. One index instead of two keeps ledger writes cheap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('ledger_entries_user_created')
    .on('ledger_entries')
    .columns(['user_id', 'created_at', 'type', 'amount_micro'])
    .execute();
  await db.schema.dropIndex('ledger_entries_user_created_idx').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
