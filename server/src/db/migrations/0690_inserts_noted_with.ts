import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/**
 * Tables whose inserts name no owner (their updates and deletes still do), each with the table
 * whose own owner triggers name the change a new row of theirs makes to what is kept:
 * - an invoice's payment options are inserted only with their invoice, in its transaction (on
 *   PostgreSQL in its statement), and the invoice's insert names the same app and user;
 * - a webhook event shows in a kept read only through its deliveries (the IPN log joins each
 *   delivery to its event): an event that no delivery names changes nothing kept, and the insert
 *   of a delivery names its app and user.
 * Each new invoice named its owners three times (the invoice, its option, its event): on
 * PostgreSQL three trigger runs, a third of the store statement's time, and three notifications
 * to every process; on SQLite a call into `owner_changed` and a count per row.
 * db/ownerChanges.test.ts checks that every kept read of such a table reads its table too.
 */
export const INSERTS_NOTED_WITH = {
  invoice_payment_options: 'invoices',
  webhook_events: 'webhook_deliveries',
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  for (const table of Object.keys(INSERTS_NOTED_WITH)) {
    await sql
      .raw(`DROP TRIGGER ${table}_owner_insert${postgres ? ` ON ${table}` : ''}`)
      .execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
