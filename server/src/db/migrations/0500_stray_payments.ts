import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * invoice_payments learn transfers to an invoice's address that it did not ask for: on another
 * EVM chain than the method's (`wrong_network`) or in another token (`wrong_asset`), in `flag`
 * (null for a payment in a method the invoice offers). Such a payment counts toward the invoice
 * only once the merchant accepts it (`accepted_at`); its value is written then. `paid_to` keeps
 * the address it was sent to: a stray payment has no option of its own on its chain to name it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema.alterTable('invoice_payments').addColumn('flag', 'text').execute();
  await db.schema.alterTable('invoice_payments').addColumn('accepted_at', type.time).execute();
  await db.schema.alterTable('invoice_payments').addColumn('paid_to', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
