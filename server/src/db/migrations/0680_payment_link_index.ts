import { sql, type Kysely } from 'kysely';

/**
 * The index of a payment link's invoices (0430) holds only the invoices that came from a link:
 * most invoices come from the gateway's API and have none, and each of those wrote an entry that
 * no read ever looks up. Every read of it asks for a link's id (`=` or `in`), which the partial
 * index answers on both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invoices_payment_link').execute();
  await db.schema
    .createIndex('invoices_payment_link')
    .on('invoices')
    .columns(['app_id', 'payment_link_id', 'created_at', 'id'])
    .where(sql.ref('payment_link_id'), 'is not', null)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
