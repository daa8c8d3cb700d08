import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Prorated plan changes (domain/billing/subscriptions.ts): a purchase records what the wallet paid (the
 * price less the replaced plan's credit), and a replaced plan records how it was replaced and the
 * credit its unused days gave. Purchases made before paid the full price and gave no credit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .alterTable('subscriptions')
    .addColumn('paid_micro', type.micro, (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update subscriptions set paid_micro = price_micro`.execute(db);
  await db.schema
    .alterTable('subscriptions')
    .addColumn('credit_micro', type.micro, (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('replaced_kind', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
