import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Money out (server/src/signer, domain/payments/depositCompletion.ts):
 * - chain_txs: every transaction the signer signs, stored (raw and hash) before its broadcast:
 *   the nonce manager's memory per (chain, from address). A replacement is a new row at the same
 *   nonce (re-signed with the key at key_path, below the account); the row it replaces becomes
 *   'replaced'. purpose: gas | sweep_fee | sweep | withdrawal;
 *   ref_id the deposit (receive_transactions) or withdrawal (send_transactions) it serves.
 * - signer_log: one line per signature with the request and the reason, written by the signer.
 * - settings holds: when a payout address or the IP whitelist changes after it was first set,
 *   the time until which the signer refuses sweeps to it and withdrawals of the app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('chain_txs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('key_path', 'text', (c) => c.notNull())
    .addColumn('nonce', type.bigint, (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('token_contract', 'text')
    .addColumn('amount_raw', type.rawAmount, (c) => c.notNull())
    .addColumn('gas_price', type.rawAmount, (c) => c.notNull())
    .addColumn('raw_tx', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('block_number', type.bigint)
    .addColumn('error', 'text')
    .addColumn('created_at', type.time, (c) => c.notNull())
    .addColumn('sent_at', type.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chain_txs_sender')
    .on('chain_txs')
    .columns(['chain_id', 'from_address', 'nonce'])
    .execute();
  await db.schema.createIndex('chain_txs_ref').on('chain_txs').columns(['ref_id']).execute();
  await db.schema
    .createIndex('chain_txs_hash')
    .on('chain_txs')
    .columns(['chain_id', 'tx_hash'])
    .unique()
    .execute();

  await db.schema
    .createTable('signer_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('nonce', type.bigint, (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', type.time, (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('app_payment_methods')
    .addColumn('payout_hold_until', type.time)
    .execute();
  await db.schema.alterTable('apps').addColumn('whitelist_hold_until', type.time).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
