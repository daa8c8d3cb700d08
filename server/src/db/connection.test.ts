import SqliteDatabase from 'better-sqlite3';
import { KEPT_STATEMENTS, reusingStatements } from './connection';

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
