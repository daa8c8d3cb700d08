import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { DB_FILE, KEPT_STATEMENTS, openDb, reusingStatements, type Db } from './connection';

describe('reusingStatements (SQLite)', () => {
  let sqlite: InstanceType<typeof SqliteDatabase>;
  beforeEach(() => {
    sqlite = new SqliteDatabase(':memory:');
    sqlite.exec('create table t (a integer)');
  });
  afterEach(() => {
    if (sqlite.open) sqlite.close();
  });

  it('hands out the same statement for the same SQL, which runs again with new parameters', () => {
    const db = reusingStatements(sqlite);
    db.prepare('insert into t (a) values (?)').run([1]);
    db.prepare('insert into t (a) values (?)').run([2]);
    const first = db.prepare('select a from t where a >= ? order by a');
    expect(db.prepare('select a from t where a >= ? order by a')).toBe(first);
    expect(first.all([1])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(db.prepare('select a from t where a >= ? order by a').all([2])).toEqual([{ a: 2 }]);
  });

  it('a kept statement sees a schema change made after it was prepared', () => {
    const db = reusingStatements(sqlite);
    db.prepare('insert into t (a) values (?)').run([1]);
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1 }]);
    sqlite.exec('alter table t add column b text');
    sqlite.exec("update t set b = 'x'");
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1, b: 'x' }]);
  });

  it('keeps at most KEPT_STATEMENTS, dropping the least recently used', () => {
    const db = reusingStatements(sqlite);
    const sqlOf = (i: number) => `select ${i} as n`;
    const first = db.prepare(sqlOf(0));
    const second = db.prepare(sqlOf(1));
    for (let i = 2; i < KEPT_STATEMENTS; i += 1) db.prepare(sqlOf(i));
    // Used again: now the most recent, so the next one in drops sqlOf(1) instead.
    expect(db.prepare(sqlOf(0))).toBe(first);
    db.prepare(sqlOf(KEPT_STATEMENTS));
    expect(db.prepare(sqlOf(0))).toBe(first);
    expect(db.prepare(sqlOf(1))).not.toBe(second);
  });
});

// Another process writing to the file (a second server process, an admin command): here a
// connection of this process that Kysely does not know, as another process's would be.
describe('openDb on a SQLite file another connection is writing', () => {
  let dataDir: string;
  let db: Db;
  let other: InstanceType<typeof SqliteDatabase>;

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-busy-'));
    db = openDb({ dataDir }, { keptReads: false });
    await sql`create table t (a integer)`.execute(db);
    other = new SqliteDatabase(path.join(dataDir, DB_FILE));
    other.pragma('busy_timeout = 0');
  });

  afterEach(async () => {
    other.close();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const values = async () =>
    (await sql<{ a: number }>`select a from t order by a`.execute(db)).rows.map((row) => row.a);

  it('waits for its commit without stopping this process, then writes', async () => {
    other.exec('begin immediate');
    other.prepare('insert into t (a) values (1)').run();
    // A timer of this process commits: with a thread asleep in SQLite it could never run, and
    // the writes below would wait for ever.
    let committed = false;
    setTimeout(() => {
      other.exec('commit');
      committed = true;
    }, 150);
    await sql`insert into t (a) values (2)`.execute(db);
    expect(committed).toBe(true);
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (a) values (3)`.execute(trx);
    });
    expect(await values()).toEqual([1, 2, 3]);
  });

  it('a transaction holds the write lock from its start, reads alone included', async () => {
    await db.transaction().execute(async (trx) => {
      await sql`select a from t`.execute(trx);
      expect(() => other.prepare('insert into t (a) values (1)').run()).toThrow(
        expect.objectContaining({ code: 'SQLITE_BUSY' }),
      );
    });
    other.prepare('insert into t (a) values (1)').run();
    expect(await values()).toEqual([1]);
  });
});
