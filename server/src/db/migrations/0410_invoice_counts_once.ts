import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';
import { engineOf } from '../connection';
import {
  dropUsageTriggers,
  USAGE_0230,
  usageTriggers,
  type DailyUsageRules,
} from './0230_maintained_counts';

/**
 * A settled invoice counts once against the plan, whatever the methods it was paid in.
 * Its settlement credits one deposit per method paid (domain/invoices/settlement.ts), each swept
 * on its own, and the daily totals counted each as a transaction: an invoice paid part in USDT and
 * part in BNB took two of tnx_limit and daily_tnx_limit, and showed as two on the dashboard.
 * - receive_transactions.tnx_count: the transactions a credited row is, 1 or 0. Every deposit is
 *   1; an invoice's rows are 1 for its first method paid (by its payment options' order) and 0
 *   for the others. Amounts, fees and nets stay per row.
 * - app_daily_usage.deposit_count now adds up tnx_count (the transactions: what the plan, the
 *   dashboard, Usage and the Daily Logs count), and the new deposit_rows counts the credited rows,
 *   1 each: what keeps a day and method (a day of an invoice's second method has deposit_count 0
 *   and its amounts), so the Daily Logs show it and the triggers drop it only when no row is left.
 * The usage triggers of both tables are made again with these rules by migration 0230's
 * generator (USAGE_0410, from its own USAGE_0230): the withdrawals' too, as their triggers drop
 * an emptied day by its figures. Invoices already settled in several methods are counted once
 * from here on, as the new triggers see their rows' tnx_count set.
 */
export const USAGE_0410: DailyUsageRules = {
  figures: [...USAGE_0230.figures, 'deposit_rows'],
  present: ['deposit_rows', 'withdraw_count', 'plan_withdraw_count'],
  rules: USAGE_0230.rules.map((rule) =>
    rule.table === 'receive_transactions'
      ? {
          ...rule,
          columns: [...rule.columns, 'tnx_count'],
          values: (engine, r) => {
            const [, ...figures] = rule.values(engine, r);
            return [`${r}.tnx_count`, ...figures, '1'];
          },
        }
      : { ...rule, values: (engine, r) => [...rule.values(engine, r), '0'] },
  ),
};

/**
 * An invoice's credited rows after its first method's (by position among its payment options):
 * the rows settlement writes with tnx_count 0.
 */
const LATER_INVOICE_ROWS = `EXISTS (
    SELECT 1 FROM invoices i
      JOIN invoice_payment_options mine ON mine.invoice_id = i.id
      JOIN invoice_payment_options earlier ON earlier.invoice_id = i.id
        AND earlier.position < mine.position
      JOIN receive_transactions other ON other.app_id = i.app_id AND other.unique_id = i.id
        AND other.payment_method_id = earlier.payment_method_id AND other.address = earlier.address
    WHERE i.id = receive_transactions.unique_id AND i.app_id = receive_transactions.app_id
      AND mine.payment_method_id = receive_transactions.payment_method_id
      AND mine.address = receive_transactions.address)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const engine = engineOf(db);
  await db.schema
    .alterTable('receive_transactions')
    .addColumn('tnx_count', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`tnx_count IN (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('app_daily_usage')
    .addColumn('deposit_rows', columnTypes(db).bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  // Until now every credited row counted 1: the rows are the count kept.
  await sql`UPDATE app_daily_usage SET deposit_rows = deposit_count`.execute(db);
  for (const statement of [
    ...dropUsageTriggers(engine, USAGE_0230),
    ...usageTriggers(engine, USAGE_0410),
  ]) {
    await sql.raw(statement).execute(db);
  }
  await sql
    .raw(`UPDATE receive_transactions SET tnx_count = 0 WHERE ${LATER_INVOICE_ROWS}`)
    .execute(db);
}

/** Back to a transaction per credited row, with migration 0230's triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const engine = engineOf(db);
  for (const statement of dropUsageTriggers(engine, USAGE_0410)) {
    await sql.raw(statement).execute(db);
  }
  await sql`UPDATE app_daily_usage SET deposit_count = deposit_rows`.execute(db);
  await db.schema.alterTable('app_daily_usage').dropColumn('deposit_rows').execute();
  await db.schema.alterTable('receive_transactions').dropColumn('tnx_count').execute();
  for (const statement of usageTriggers(engine, USAGE_0230)) {
    await sql.raw(statement).execute(db);
  }
}
