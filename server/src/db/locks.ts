import { sql, type Transaction } from 'kysely';
import { engineOf } from './connection';
import type { Database } from './schema';

/**
 * Serializes one critical section (a user's money, a sign-in window, a transfer's crediting)
 * across every server process: the first statement of the transaction takes a lock on `key`,
 * held until commit or rollback. Read-committed is then enough: each later statement reads
 * what the previous holder committed. On PostgreSQL that is a transaction-level advisory lock
 * (no row needs to exist yet, unlike SELECT … FOR UPDATE, and no retry loop, unlike
 * SERIALIZABLE). On SQLite, transactions of a process already run one by one (Kysely holds its
 * single connection for the whole transaction), but another process on the same file (an admin
 * command beside the server) can commit between this transaction's first read and first write,
 * and SQLite then fails the write at once ("database is locked", no busy wait). So the first
 * statement takes SQLite's write lock, waiting out busy_timeout: a write that matches no row.
 */
export async function lockForTransaction(trx: Transaction<Database>, key: string): Promise<void> {
  if (engineOf(trx) !== 'postgres') {
    await sql`update users set id = id where 0`.execute(trx);
    return;
  }
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
