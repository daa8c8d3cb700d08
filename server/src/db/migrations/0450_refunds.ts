import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';
import { engineOf } from '../connection';
import { dropUsageTriggers, usageTriggers, type DailyUsageRules } from './0230_maintained_counts';
import { addOwnerTriggers, appOwner, ownColumn } from './0240_owner_changes';
import { USAGE_0410 } from './0410_invoice_counts_once';

/**
 * The completed sends that pay a refund, counted apart in each day and method
 * (app_daily_usage.refund_count and refund_micro), so Usage and the Daily Logs mark them: they
 * stay among the withdrawals too (withdraw_count and withdraw_micro, and the plan's count).
 */
const USAGE_0450: DailyUsageRules = {
  figures: [...USAGE_0410.figures, 'refund_count', 'refund_micro'],
  present: USAGE_0410.present,
  rules: USAGE_0410.rules.map((rule) =>
    rule.table === 'send_transactions'
      ? {
          ...rule,
          columns: [...rule.columns, 'refund_id'],
          values: (engine, r) => [
            ...rule.values(engine, r),
            `CASE WHEN ${r}.status = 1 AND ${r}.refund_id IS NOT NULL THEN 1 ELSE 0 END`,
            `CASE WHEN ${r}.status = 1 AND ${r}.refund_id IS NOT NULL THEN ${r}.amount_micro ELSE 0 END`,
          ],
        }
      : { ...rule, values: (engine, r) => [...rule.values(engine, r), '0', '0'] },
  ),
};

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
 * - app_daily_usage.refund_count and refund_micro: the completed refunds among the day's sends
 *   (USAGE_0450). No send paid a refund before this migration: they start at 0.
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
  await db.schema
    .alterTable('app_daily_usage')
    .addColumn('refund_count', type.bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('app_daily_usage')
    .addColumn('refund_micro', type.micro, (c) => c.notNull().defaultTo(0))
    .execute();
  const engine = engineOf(db);
  for (const statement of [
    ...dropUsageTriggers(engine, USAGE_0410),
    ...usageTriggers(engine, USAGE_0450),
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
