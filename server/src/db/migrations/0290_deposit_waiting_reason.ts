import type { Kysely } from 'kysely';

/**
 * Why a credited deposit waits (domain/payments/depositCompletion.ts): a code the gateway shows
 * (`operational_wallet_needs_gas`) and the signer's words with what to send where; both null
 * while nothing holds the deposit up, and cleared when it moves on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('receive_transactions').addColumn('waiting_reason', 'text').execute();
  await db.schema.alterTable('receive_transactions').addColumn('waiting_message', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
