import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Payment links (domain/paymentLinks/): a merchant's reusable page at `/l/<slug>` whose "Pay"
 * makes an invoice.
 * - payment_links: its app (deleted with it, as its invoices are), its slug (16 random
 *   characters of [a-z0-9]: the public URL's key, unique), title and description, the price:
 *   either a fixed `amount`, or none and the range the shopper may choose in (`amount_min`,
 *   `amount_max`, each optional), all decimal text exactly as sent, in `currency`; the methods it
 *   offers as a JSON text array of method codes (null: every method of the app with For Deposit
 *   on when the shopper pays), where the checkout sends the shopper afterwards, when it expires,
 *   how many paid invoices it takes (null: no limit), and whether the merchant left it on
 *   (`active`, 0 once deactivated). (app_id, created_at, id) serves the cursor-paged list.
 * - invoices.payment_link_id: the link an invoice was made from (null for any other invoice);
 *   (app_id, payment_link_id, created_at, id) serves a link's invoices, newest first, and its
 *   totals.
 * - payment_link_visits: one row per visit of a link's page that made an invoice, keyed by
 *   (link, the visit's token): a second POST of the same visit finds the invoice the first made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('amount', 'text')
    .addColumn('amount_min', 'text')
    .addColumn('amount_max', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('methods', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('expires_at', type.time)
    .addColumn('max_uses', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('updated_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_links_app')
    .on('payment_links')
    .columns(['app_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .alterTable('invoices')
    .addColumn('payment_link_id', 'text', (c) =>
      c.references('payment_links.id').onDelete('set null'),
    )
    .execute();
  await db.schema
    .createIndex('invoices_payment_link')
    .on('invoices')
    .columns(['app_id', 'payment_link_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('payment_link_visits')
    .addColumn('payment_link_id', 'text', (c) =>
      c.notNull().references('payment_links.id').onDelete('cascade'),
    )
    .addColumn('visit', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) =>
      c.notNull().references('invoices.id').onDelete('cascade'),
    )
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_link_visits_pk', ['payment_link_id', 'visit'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
