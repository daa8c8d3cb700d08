import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Withdrawals through the gateway (domain/payments/withdrawals.ts) on the portal's send_transactions:
 * - what a request asked: the merchant's unique_id, the chain, the exact amount in the token's
 *   base units (amount_micro stays for the portal's figures) and the operational wallet that pays
 *   it (from_address);
 * - gas_reserve_raw: the network fee held back in the wallet's native coin while it is reserved;
 * - what the signer writes: signed_tx and tx_hash (stored before the broadcast, so Cancel and
 *   Reinitiate can tell whether anything may be mined), nonce, broadcast_at, failure_reason;
 * - updated_at: its last status change;
 * - (status, created_at) serves the signer's queue, (chain_id, from_address, status) the
 *   reservations of one wallet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  const add = () => db.schema.alterTable('send_transactions');
  await add().addColumn('unique_id', 'text').execute();
  await add().addColumn('chain_id', 'integer').execute();
  await add().addColumn('from_address', 'text').execute();
  await add().addColumn('amount_raw', type.rawAmount).execute();
  await add().addColumn('gas_reserve_raw', type.rawAmount).execute();
  await add().addColumn('signed_tx', 'text').execute();
  await add().addColumn('tx_hash', 'text').execute();
  await add().addColumn('nonce', type.bigint).execute();
  await add().addColumn('broadcast_at', type.time).execute();
  await add().addColumn('failure_reason', 'text').execute();
  await add().addColumn('updated_at', type.time).execute();
  await db.schema
    .createIndex('send_transactions_status')
    .on('send_transactions')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('send_transactions_wallet')
    .on('send_transactions')
    .columns(['chain_id', 'from_address', 'status'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
