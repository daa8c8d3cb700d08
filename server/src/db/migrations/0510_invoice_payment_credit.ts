import { sql, type Kysely } from 'kysely';

/**
 * invoice_payments learn which credited deposit took them in (`credit_id`, a receive_transactions
 * id): a settled invoice's credit (its counted payments of a method), or a refund's (the method's
 * payments nobody credited: an expired or invalid invoice's, one paid after settlement, one the
 * invoice did not offer). Each payment is credited, and so swept, once. Existing credits are
 * settled invoices' (one deposit per method, unique_id the invoice): their counted confirmed
 * payments are marked taken by them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice_payments').addColumn('credit_id', 'text').execute();
  await markSettledCredits(db);
}

/** Marks each counted confirmed payment of a settled invoice taken by its method's credit. */
export async function markSettledCredits(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE invoice_payments SET credit_id = (
      SELECT r.id FROM receive_transactions r
      WHERE r.unique_id = invoice_payments.invoice_id
        AND r.app_id = invoice_payments.app_id
        AND r.payment_method_id = invoice_payments.payment_method_id
      ORDER BY r.id LIMIT 1
    )
    WHERE status = 'confirmed' AND (flag IS NULL OR accepted_at IS NOT NULL)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
