import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Invoices (domain/invoices/): a price in a currency, paid at a rate locked at creation before an
 * expiry, at an address derived for the invoice alone.
 * - invoices: the price exactly as sent (amount as decimal text, currency), the status and its
 *   exception flags, why it is invalid or marked, what the merchant sent along (order_id,
 *   indexed and not unique: a shopper may try again after an expiry; description, buyer_email,
 *   metadata as its JSON text, byte for byte as it is answered; redirect_url), its checkout page,
 *   the app's settings when it was created (underpayment tolerance in percent as decimal text,
 *   late window in minutes) so a later change of them changes no invoice, and its address's
 *   derivation index (branch 3 of the gateway's xpub, one index per invoice, unique).
 * - invoice_payment_options: per method it may be paid with, the address (one EVM address for
 *   every EVM method, Tron's in its own form), the token's contract on the chain served (null for
 *   a coin), the amount due in the token's base units, and the locked rate with its source and
 *   time; the watcher finds invoices by (chain, address).
 * - invoice_payments: each transfer to an invoice's address, once per (chain, tx hash, log index)
 *   as deposits are: its method, exact amount, value in the invoice's currency at the locked rate
 *   (decimal text, exact), confirmations, status (pending, confirmed, removed), and whether it
 *   came after the expiry.
 * - apps: the two invoice settings of Merchant Setting, with their defaults.
 * - rate_table: the operator's rates (`npm run admin -- rate set EUR/USD 1.08`), one per pair,
 *   with the time it was set and how long it stays fresh.
 * Times that jobs compare (expires_at) are instants like every other; (status, expires_at) serves
 * the expiry job, (app_id, created_at, id) the cursor-paged list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('order_id', 'text')
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paid_partial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_over', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_late', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('marked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_reason', 'text')
    .addColumn('mark_reason', 'text')
    .addColumn('description', 'text')
    .addColumn('buyer_email', 'text')
    .addColumn('metadata', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('checkout_url', 'text', (c) => c.notNull())
    .addColumn('underpayment_tolerance', 'text', (c) => c.notNull())
    .addColumn('late_window_minutes', 'integer', (c) => c.notNull())
    .addColumn('derivation_index', 'integer', (c) => c.notNull().unique())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('expires_at', type.time, (c) => c.notNull())
    .addColumn('updated_at', type.time, (c) => c.notNull())
    .addColumn('settled_at', type.time)
    .execute();
  await db.schema
    .createIndex('invoices_app')
    .on('invoices')
    .columns(['app_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('invoices_order')
    .on('invoices')
    .columns(['app_id', 'order_id'])
    .execute();
  await db.schema
    .createIndex('invoices_expiry')
    .on('invoices')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('invoice_payment_options')
    .addColumn('invoice_id', 'text', (c) =>
      c.notNull().references('invoices.id').onDelete('cascade'),
    )
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('token_contract', 'text')
    .addColumn('amount_due_raw', type.rawAmount, (c) => c.notNull())
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('rate_source', 'text', (c) => c.notNull())
    .addColumn('rate_at', type.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_payment_options_pk', ['invoice_id', 'payment_method_id'])
    .execute();
  await db.schema
    .createIndex('invoice_payment_options_address')
    .on('invoice_payment_options')
    .columns(['chain_id', 'address'])
    .execute();

  await db.schema
    .createTable('invoice_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) =>
      c.notNull().references('invoices.id').onDelete('cascade'),
    )
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('block_number', type.bigint, (c) => c.notNull())
    .addColumn('amount_raw', type.rawAmount, (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('late', 'integer', (c) => c.notNull())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('seen_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoice_payments_transfer')
    .on('invoice_payments')
    .columns(['chain_id', 'tx_hash', 'log_index'])
    .unique()
    .execute();
  await db.schema
    .createIndex('invoice_payments_invoice')
    .on('invoice_payments')
    .columns(['invoice_id', 'seen_at'])
    .execute();
  await db.schema
    .createIndex('invoice_payments_open')
    .on('invoice_payments')
    .columns(['chain_id', 'status'])
    .execute();

  await db.schema
    .alterTable('apps')
    .addColumn('invoice_underpayment_tolerance', 'text', (c) => c.notNull().defaultTo(sql`'0'`))
    .execute();
  await db.schema
    .alterTable('apps')
    .addColumn('invoice_late_window_minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .execute();

  await db.schema
    .createTable('rate_table')
    .addColumn('pair', 'text', (c) => c.primaryKey())
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('set_at', type.time, (c) => c.notNull())
    .addColumn('max_age_seconds', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
