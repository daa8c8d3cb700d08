import { freshTestStore, type TestStore } from '../../test/testStore';
import { sql } from 'kysely';
import { engineOf, openDb, type Db } from './connection';
import { migrateToLatest } from './migrate';
import type { Executor } from './prepared';
import { sharedTransactions } from './sharedTransactions';

// A group commit: what one process asks to write while its last transaction is under way goes in
// the next one together, and each caller still learns its own outcome.

let store: TestStore;
let db: Db;
const statements: string[] = [];

beforeAll(async () => {
  store = await freshTestStore('portal-shared-');
  db = openDb(
    { dataDir: store.dataDir, databaseUrl: store.databaseUrl },
    { log: (event) => void statements.push(event.query.sql) },
  );
  await migrateToLatest(db);
});

afterAll(async () => {
  await db.destroy();
  await store.close();
});

beforeEach(() => {
  statements.length = 0;
});

/** Called as each transaction of store1 starts writing. */
let writing: () => void = () => {};

/** Stores each key as a rate_limits row, all in one insert. */
async function insertKeys(executor: Executor, keys: readonly string[]): Promise<void> {
  await executor
    .insertInto('rate_limits')
    .values(keys.map((key) => ({ key, count: 1, reset_at: 0 })))
    .execute();
}

/** Each transaction's keys in one insert. */
const store1 = sharedTransactions<string>(async (trx, keys) => {
  writing();
  await insertKeys(trx, keys);
}, 3);

const inserts = () => statements.filter((q) => /^insert into "rate_limits"/.test(q)).length;

async function stored(prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('rate_limits')
    .select('key')
    .where('key', 'like', `${prefix}%`)
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}

it('writes what is asked for together in one transaction', async () => {
  await Promise.all(['sale-a', 'sale-b', 'sale-c'].map((key) => store1(db, key)));

  expect(inserts()).toBe(1);
  expect(await stored('sale-')).toEqual(['sale-a', 'sale-b', 'sale-c']);
});

it('writes what arrives during a transaction in the next, at most its cap in each', async () => {
  const begun = new Promise<void>((resolve) => {
    writing = resolve;
  });
  const first = store1(db, 'rush-0');
  // Asked for once the first one's transaction is writing.
  await begun;
  writing = () => {};
  const rest = ['rush-1', 'rush-2', 'rush-3', 'rush-4'].map((key) => store1(db, key));
  await Promise.all([first, ...rest]);

  // rush-0 alone, then rush-1..3 (the cap), then rush-4.
  expect(inserts()).toBe(3);
  expect(await stored('rush-')).toEqual(['rush-0', 'rush-1', 'rush-2', 'rush-3', 'rush-4']);
});

it('takes in what arrives while its transaction waits to begin', async () => {
  // Another transaction of this process holds a connection (on SQLite its only one), so the
  // first item's transaction waits for its own; on PostgreSQL it waits for its BEGIN's answer.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holding = db.transaction().execute(() => released);
  const first = store1(db, 'wait-0');
  await new Promise((resolve) => setImmediate(resolve));
  const rest = ['wait-1', 'wait-2'].map((key) => store1(db, key));
  release();
  await Promise.all([holding, first, ...rest]);

  expect(inserts()).toBe(1);
  expect(await stored('wait-')).toEqual(['wait-0', 'wait-1', 'wait-2']);
});

it('fails only the caller whose item is refused, and writes the others', async () => {
  await store1(db, 'dup-taken');
  statements.length = 0;

  const outcomes = await Promise.allSettled(
    ['dup-a', 'dup-taken', 'dup-b'].map((key) => store1(db, key)),
  );

  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  // The shared insert, refused as a whole, then each alone.
  expect(inserts()).toBe(4);
  expect(await stored('dup-')).toEqual(['dup-a', 'dup-b', 'dup-taken']);
});

/** store1's writes, on PostgreSQL as one statement that waits 300 ms for company. */
const lingering = sharedTransactions<string>(insertKeys, 10, insertKeys, {
  lingerMs: 300,
  backToBackMs: 60_000,
});

it('on PostgreSQL, waits for company when writing back to back, never for a lone item', async () => {
  const began = performance.now();
  await lingering(db, 'linger-lone');
  // The first write of the process: at once, not after the 300 ms.
  expect(performance.now() - began).toBeLessThan(300);
  // Idle again (the writer has ended), then two items a turn of the event loop apart.
  await new Promise((resolve) => setImmediate(resolve));
  const first = lingering(db, 'linger-a');
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([first, lingering(db, 'linger-b')]);

  // PostgreSQL: the lone one, then a and b together; SQLite: each alone.
  expect(inserts()).toBe(engineOf(db) === 'postgres' ? 2 : 3);
  expect(await stored('linger-')).toEqual(['linger-a', 'linger-b', 'linger-lone']);
});

it('on PostgreSQL, stops waiting for company once as many have come as went in the last write', async () => {
  if (engineOf(db) !== 'postgres') return; // SQLite writes at once.
  await Promise.all(['last-1', 'last-2', 'last-3'].map((key) => lingering(db, key)));
  statements.length = 0;
  // Back to back: the first waits; the third makes as many as the last write's three.
  const began = performance.now();
  const first = lingering(db, 'next-a');
  await new Promise((resolve) => setImmediate(resolve));
  const second = lingering(db, 'next-b');
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([first, second, lingering(db, 'next-c')]);

  expect(performance.now() - began).toBeLessThan(300);
  expect(inserts()).toBe(1);
  expect(await stored('next-')).toEqual(['next-a', 'next-b', 'next-c']);
});

it('on PostgreSQL, writes its statements on one connection of their own, and a transaction’s in it', async () => {
  if (engineOf(db) !== 'postgres') return; // SQLite has one connection.
  const backendOf = async (executor: Executor) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor)).rows[0]?.pid;
  const backends: (number | undefined)[] = [];
  const onItsConnection = sharedTransactions<string>(insertKeys, 10, async (executor, keys) => {
    backends.push(await backendOf(executor));
    await insertKeys(executor, keys);
  });
  await onItsConnection(db, 'own-a');
  // A transaction holds a connection of the pool, the one last used if the pool took turns,
  // while the next statement is written.
  const held = await db.transaction().execute(async (trx) => {
    await onItsConnection(db, 'own-b');
    return backendOf(trx);
  });
  expect(backends).toHaveLength(2);
  expect(backends[1]).toBe(backends[0]);
  expect(held).not.toBe(backends[0]);

  // Inside a transaction the statement runs on the transaction's connection (it may need what
  // the transaction wrote or locked), not the writer's.
  const [inside, own] = await db.transaction().execute(async (trx) => {
    await onItsConnection(trx, 'own-in');
    return [backends[2], await backendOf(trx)];
  });
  expect(inside).toBe(own);
  expect(await stored('own-')).toEqual(['own-a', 'own-b', 'own-in']);
});
