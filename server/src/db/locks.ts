import { sql, type Transaction } from 'kysely';
import { engineOf, type Db } from './connection';
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

/**
 * lockForTransaction for many keys in one statement, taken in the order of their text (two
 * transactions taking overlapping sets that way cannot each wait for the other).
 */
export async function lockAllForTransaction(
  trx: Transaction<Database>,
  keys: readonly string[],
): Promise<void> {
  if (engineOf(trx) !== 'postgres' || keys.length === 0) return;
  const sorted = [...new Set(keys)].sort();
  // The subquery's order is the order its rows reach the aggregate, so the order locks are taken.
  const lockAll = sql`select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
    from (select k from unnest(${sorted}::text[]) with ordinality as t(k, i) order by i) as o`;
  await lockAll.execute(trx);
}

/**
 * Runs `work` as one transaction holding the lock on `key` (lockForTransaction) from its first
 * statement to its end, for work made of domain functions that open transactions of their own:
 * `work` gets the transaction as a Db whose `transaction()` joins it instead of opening another,
 * so everything commits together or not at all (no savepoints: a failure anywhere rolls all of
 * it back). Two processes running it on one database take turns: on PostgreSQL through the
 * advisory lock, on SQLite through the write lock its BEGIN IMMEDIATE takes (another process
 * waits for it as long as for any write lock, db/connection.ts). Kept reads (db/ownerChanges.ts)
 * are off inside: its reads see its own writes. Meant for the start-up seed; a request's critical
 * section is one transaction of its own with lockForTransaction.
 */
export async function inLockedTransaction<T>(
  db: Db,
  key: string,
  work: (joined: Db) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, key);
    return work(joining(trx));
  });
}

/** `trx` as a Db: every method runs on `trx`, and `transaction().execute(fn)` calls fn(trx). */
function joining(trx: Transaction<Database>): Db {
  const joined = {
    execute: <R>(fn: (inner: Transaction<Database>) => Promise<R>) => fn(trx),
  };
  return new Proxy(trx, {
    get(target, property) {
      if (property === 'transaction') return () => joined;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely keeps its state in private fields, which only the instance itself may read.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
