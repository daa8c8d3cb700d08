import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Money-out requests carry a MAC the signer checks (signer/client/requestMac.ts):
 * - send_transactions.request_mac: the withdrawal's, written by the web process in the
 *   transaction that accepts it (hex); null on rows from before, until the start that adds the
 *   column gives the rows still in flight theirs (domain/payments/requestMacs.ts).
 * - signer_refusals: each request the signer refused because it could not trust it (a MAC that
 *   does not match, a payout address it does not know), written by the signer: request
 *   (withdrawal, sweep), the row it named (ref_id), its app, the reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema.alterTable('send_transactions').addColumn('request_mac', 'text').execute();
  await db.schema
    .createTable('signer_refusals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('signer_refusals_created')
    .on('signer_refusals')
    .columns(['created_at'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
