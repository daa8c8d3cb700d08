import { loadConfig } from '../config';
import { openRuntime, type Runtime } from '../runtime';
import { freshTestStore, type TestStore } from '../../test/testStore';
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

  it('refuses a query that leaves out one of its parameters', async () => {
    const careless = prepared({ name: '', unused: '' }, (db, p) =>
      db.selectFrom('countries').select('name').where('name', '=', p.name),
    );
    await expect(careless(runtime.db, { name: 'India', unused: 'x' })).rejects.toThrow(
      'Prepared query leaves out unused',
    );
  });
});
