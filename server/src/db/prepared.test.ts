import { loadConfig } from '../config';
import { openRuntime, type Runtime } from '../runtime';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { sql } from 'kysely';
import { engineOf } from './connection';
import { prepared } from './prepared';

describe('prepared queries', () => {
  let store: TestStore;
  let runtime: Runtime;

  beforeAll(async () => {
    store = await freshTestStore('portal-prepared-');
    runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
  });

  afterAll(async () => {
    await runtime.close();
    await store.close();
  });

  // The seed's countries: a table every database has, with known rows.
  const countries = prepared({ from: '', limit: 0 }, (db, p) =>
    db
      .selectFrom('countries')
      .select('name')
      .where('name', '>=', p.from)
      .orderBy('name')
      .limit(p.limit),
  );

  it('binds each call its own values, strings and numbers, outside and inside a transaction', async () => {
    const { db } = runtime;
    const names = async (from: string, limit: number) =>
      (await countries(db, { from, limit })).map((row) => row.name);
    expect(await names('Ind', 2)).toEqual(['India', 'Indonesia']);
    expect(await names('Swe', 1)).toEqual(['Sweden']);
    expect(await names('Zam', 2)).toEqual(['Zambia', 'Zimbabwe']);
    const inside = await db
      .transaction()
      .execute(async (trx) =>
        (await countries(trx, { from: 'Norw', limit: 1 })).map((r) => r.name),
      );
    expect(inside).toEqual(['Norway']);
  });

  it('runs as a named statement on PostgreSQL, parsed once per connection; other queries do not', async () => {
    const { db } = runtime;
    // SQLite keeps statements by their text (connection.test.ts); `npm test`'s unit:pg step runs this.
    if (engineOf(db) !== 'postgres') return;
    // One transaction: one connection, whose session holds its named statements.
    const kept = await db.transaction().execute(async (trx) => {
      await countries(trx, { from: 'Ind', limit: 1 });
      await countries(trx, { from: 'Swe', limit: 1 });
      await trx.selectFrom('countries').select('name').where('name', '=', 'Chad').execute();
      const { rows } = await sql<{ statement: string }>`
        select statement from pg_prepared_statements where not from_sql`.execute(trx);
      return rows.map((row) => row.statement);
    });
    expect(kept.filter((text) => text.includes('"countries"'))).toEqual([
      expect.stringContaining('"name" >= $1'),
    ]);
  });

  it('refuses a query that leaves out one of its parameters', async () => {
    const careless = prepared({ name: '', unused: '' }, (db, p) =>
      db.selectFrom('countries').select('name').where('name', '=', p.name),
    );
    await expect(careless(runtime.db, { name: 'India', unused: 'x' })).rejects.toThrow(
      'Prepared query leaves out unused',
    );
  });
});
