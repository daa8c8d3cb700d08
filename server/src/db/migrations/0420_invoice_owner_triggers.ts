import type { Kysely } from 'kysely';
import { addOwnerTriggers, appOwner, ownColumn, type OwnerOf } from './0240_owner_changes';

/** An invoice's option belongs to the invoice's app, and to that app's user. */
const ofInvoice: OwnerOf[] = [
  {
    columns: ['invoice_id'],
    of: (r) =>
      `(SELECT apps.user_id FROM invoices JOIN apps ON apps.id = invoices.app_id
        WHERE invoices.id = ${r}.invoice_id)`,
  },
  {
    columns: ['invoice_id'],
    of: (r) => `(SELECT invoices.app_id FROM invoices WHERE invoices.id = ${r}.invoice_id)`,
  },
];

/**
 * Owner triggers (migration 0240) for the invoice tables, so that an invoice's whole answer
 * (GET /gateway/v1/invoices/{id}) can be kept per process until one of its app's rows changes
 * (http/keptAnswers.ts): every write of an invoice, its options or its payments names the app and
 * its user, whoever writes (the gateway, the watcher, the expiry job, an operator). payment_methods,
 * which the answer reads too, has them already (migration 0250).
 */
export const INVOICE_OWNERS: [string, OwnerOf[]][] = [
  ['invoices', [appOwner, ownColumn('app_id')]],
  ['invoice_payment_options', ofInvoice],
  ['invoice_payments', [appOwner, ownColumn('app_id')]],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await addOwnerTriggers(db, INVOICE_OWNERS);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
