import type { Transaction } from 'kysely';
import { engineOf, writerOf, type Db } from './connection';
import type { Database } from './schema';

interface Queued<T> {
  item: T;
  done: () => void;
  failed: (error: unknown) => void;
}

interface Writer<T> {
  queue: Queued<T>[];
  writing: boolean;
  /** When its last write ended (performance.now()). */
  wroteAt: number;
  /**
   * How many items a lingering write waits for: the size of the last write, less one for each
   * write since the largest, so that a small write among large ones does not shrink the next.
   */
  expected: number;
  /** The pending wait of a lingering write. */
  lingering: ReturnType<typeof setTimeout> | undefined;
}

/** When a PostgreSQL write waits for company (below). */
interface Linger {
  lingerMs?: number;
  backToBackMs?: number;
}

/**
 * A group commit: `write` stores items in one transaction, and the items that one process asks
 * for while its previous transaction of them is under way are written together in the next. A
 * transaction takes its items once it has begun, so those that came while it waited to begin
 * (for the connection, or another process's write lock) go in it too. A lone item waits one turn
 * of the event loop; under load every transaction carries what came during the last one and its
 * wait, so the begin, the commit and each statement are paid once for many items
 * (on SQLite, the commit and the other process's fresh read of the pages it wrote; on
 * PostgreSQL, a round trip each). At most `maxItems` go in one transaction.
 *
 * One transaction at a time per process, on PostgreSQL too: more at once make smaller batches
 * that wait for each other's locks (docs/decisions.md, "Invoices created together share a
 * transaction").
 *
 * Each item's promise settles with its own outcome: a transaction that fails as a whole is tried
 * again item by item, so one refused item fails only its own caller.
 *
 * On PostgreSQL a write that would begin within `backToBackMs` (5 ms) of the previous one's end
 * waits `lingerMs` (2 ms) first: under load a statement took about two items, each statement
 * paying its own round trip, statement triggers and turn at the app's event counter's lock;
 * waiting for company cut a process's CPU an invoice by about a sixth (docs/performance.md). It
 * stops waiting once as many items have come as went in the last write (at least two): under
 * load those are the callers it answered, back with their next, and waiting out the rest of
 * the 2 ms only idled the process. A lone item, or the first after a pause, is written at once.
 * SQLite gained nothing from it (no round trip; its cost is the write lock).
 */
export function sharedTransactions<T>(
  write: (trx: Transaction<Database>, items: readonly T[]) => Promise<void>,
  maxItems: number,
  /**
   * On PostgreSQL, writes the items as one statement instead, atomic with no transaction around
   * it: one round trip where begin, the statements and commit were one each.
   */
  oneStatement?: (db: Db, items: readonly T[]) => Promise<void>,
  { lingerMs = 2, backToBackMs = 5 }: Linger = {},
): (db: Db, item: T) => Promise<void> {
  const writers = new WeakMap<Db, Writer<T>>();
  /**
   * PostgreSQL: the items' one statement, on the process's writer connection (a transaction's
   * on its own).
   */
  const single = (db: Db) =>
    engineOf(db) === 'postgres' && oneStatement
      ? (items: readonly T[]) => oneStatement(writerOf(db) ?? db, items)
      : undefined;
  const writeAll = (db: Db, items: readonly T[]) =>
    single(db)?.(items) ?? db.transaction().execute((trx) => write(trx, items));

  async function writeBatch(db: Db, writer: Writer<T>): Promise<void> {
    let batch: Queued<T>[] = [];
    try {
      const statement = single(db);
      if (statement) {
        batch = writer.queue.splice(0, maxItems);
        writer.expected = Math.max(batch.length, writer.expected - 1);
        await statement(batch.map((queued) => queued.item));
      } else {
        await db.transaction().execute((trx) => {
          // Taken once the transaction has begun: what arrived while it waited for the connection
          // and, on SQLite, for the other processes' write lock goes in too.
          batch = writer.queue.splice(0, maxItems);
          return write(
            trx,
            batch.map((queued) => queued.item),
          );
        });
      }
      for (const queued of batch) queued.done();
    } catch (error) {
      // A transaction that could not begin: the items that were next are tried one by one.
      if (batch.length === 0) batch = writer.queue.splice(0, maxItems);
      if (batch.length === 1) {
        batch[0]?.failed(error);
        return;
      }
      for (const queued of batch) {
        await writeAll(db, [queued.item]).then(queued.done, queued.failed);
      }
    }
  }

  async function drain(db: Db, writer: Writer<T>): Promise<void> {
    while (writer.queue.length > 0) await writeBatch(db, writer);
    writer.writing = false;
    writer.wroteAt = performance.now();
  }

  return (db, item) =>
    new Promise((done, failed) => {
      let writer = writers.get(db);
      if (!writer) {
        writer = {
          queue: [],
          writing: false,
          wroteAt: -Infinity,
          expected: 1,
          lingering: undefined,
        };
        writers.set(db, writer);
      }
      writer.queue.push({ item, done, failed });
      const started = writer;
      if (writer.lingering && writer.queue.length >= writer.expected) {
        clearTimeout(writer.lingering);
        writer.lingering = undefined;
        setImmediate(() => void drain(db, started));
        return;
      }
      if (writer.writing) return;
      writer.writing = true;
      if (single(db) && performance.now() - writer.wroteAt < backToBackMs) {
        writer.lingering = setTimeout(() => {
          started.lingering = undefined;
          void drain(db, started);
        }, lingerMs);
      } else {
        setImmediate(() => void drain(db, started));
      }
    });
}
