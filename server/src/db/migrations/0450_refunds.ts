import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';
import { addOwnerTriggers, appOwner, ownColumn } from './0240_owner_changes';

/**
 * Refunds (domain/refunds/): money an app gives back on one of its invoices, in one method, from
 * its operational wallet.
 * - refunds: its app and invoice (deleted with them), the method and the exact token amount
 *   (`amount_raw`, base units), how it was asked (`amount_kind` full, overpaid or custom; a custom
 *   amount as sent with its currency; the rate kind and the rate a currency amount was converted
 *   at), the merchant's reason, the invoice's address it refunds payments to (`paid_to`) and the
 *   wallet that pays it (`from_address`). `address` is where it goes: given by the merchant, or
 *   claimed by the shopper through the claim link, whose token is kept as a SHA-256 hash (to find
 *   it) and sealed (to show the merchant the link again), until `claim_expires_at`. `request_mac`
 *   is the web process's MAC of what the signer may pay (signer/client/requestMac.ts), made once
 *   the destination is known. `send_id` is the send_transactions row that pays it once the wallet
 *   covers it; `waiting_message` says what the wallet lacks while it cannot.
 * - send_transactions.refund_id: the refund a send pays (null for a withdrawal), unique.
 * (app_id, created_at, id) serves the cursor-paged list, (invoice_id) an invoice's refunds and
 * its cap, (status) the refunds job. Owner triggers (0240) void an app's kept reads (the invoice
 * answer and checkout page show refunds) whenever one of its refunds is written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('invoice_id', 'text', (c) =>
      c.notNull().references('invoices.id').onDelete('cascade'),
    )
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'text', (c) => c.notNull())
    .addColumn('amount_kind', 'text', (c) => c.notNull())
    .addColumn('requested_amount', 'text')
    .addColumn('requested_currency', 'text')
    .addColumn('rate_kind', 'text', (c) => c.notNull())
    .addColumn('rate', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('paid_to', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('address_source', 'text')
    .addColumn('claim_token_hash', 'text', (c) => c.unique())
    .addColumn('claim_token_sealed', 'text')
    .addColumn('claim_expires_at', type.time)
    .addColumn('claimed_at', type.time)
    .addColumn('request_mac', 'text')
    .addColumn('send_id', 'text', (c) => c.unique())
    .addColumn('waiting_message', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('updated_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('refunds_app')
    .on('refunds')
    .columns(['app_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('refunds_invoice').on('refunds').column('invoice_id').execute();
  await db.schema.createIndex('refunds_status').on('refunds').column('status').execute();
  await db.schema.alterTable('send_transactions').addColumn('refund_id', 'text').execute();
  await db.schema
    .createIndex('send_transactions_refund')
    .on('send_transactions')
    .column('refund_id')
    .unique()
    .execute();
  await addOwnerTriggers(db, [['refunds', [appOwner, ownColumn('app_id')]]]);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
