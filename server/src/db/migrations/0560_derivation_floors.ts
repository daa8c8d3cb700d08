import type { Kysely } from 'kysely';

/**
 * The lowest derivation index each address branch may still hand out. Accounts and invoices take
 * the index after the largest one in their table; deleting rows (a test app's Delete test data)
 * would lower that largest one and hand an address out a second time, to a payer who may still
 * send to it. Whatever deletes them raises the floor first, in the same transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('derivation_floors')
    .addColumn('branch', 'text', (c) => c.primaryKey())
    .addColumn('next_index', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
