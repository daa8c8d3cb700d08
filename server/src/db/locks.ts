import { sql, type Transaction } from 'kysely';
import { engineOf } from './connection';
import type { Database } from './schema';

/**
 * Serializes one critical section (a user's money, a sign-in window, a transfer's crediting)
 * across every server process: the first statement of the transaction takes a lock on `key`,
 * held until commit or rollback. Read-committed is then enough: each later statement reads
 * what the previous holder committed. On PostgreSQL that is a transaction-level advisory lock
 * (no row needs to exist yet, unlike SELECT … FOR UPDATE, and no retry loop, unlike
 * SERIALIZABLE). On SQLite every transaction already holds the file's write lock from its BEGIN
 * (IMMEDIATE, db/connection.ts), against other processes too (an admin command beside the
 * server, a second server process), so there is nothing more to take.
 */
export async function lockForTransaction(trx: Transaction<Database>, key: string): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
