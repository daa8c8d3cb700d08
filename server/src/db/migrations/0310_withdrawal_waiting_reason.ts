import type { Kysely } from 'kysely';

/**
 * Why a withdrawal in Processing Transfer waits (domain/payments/withdrawalSending.ts): a code the
 * gateway shows (`held_for_approval`: beyond the app's daily cap, until the operator decides) and
 * the signer's words; both null while nothing holds it up, cleared when it moves on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('send_transactions').addColumn('waiting_reason', 'text').execute();
  await db.schema.alterTable('send_transactions').addColumn('waiting_message', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
