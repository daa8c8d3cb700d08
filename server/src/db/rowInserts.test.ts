import { freshTestStore, type TestStore } from '../../test/testStore';
import { engineOf, openDb, type Db } from './connection';
import { migrateToLatest } from './migrate';
import { insertRows, runNamed } from './rowInserts';

// Rows written by insertRows read back exactly as given, whatever their text holds, and on
// PostgreSQL any number of them is one statement text (parsed and planned once per connection).

let store: TestStore;
let db: Db;
const statements: string[] = [];

beforeAll(async () => {
  store = await freshTestStore('portal-rows-');
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

const row = (pair: string, maxAge: number) => ({
  pair,
  rate: '1234.5',
  set_at: '2026-12-04T06:00:00.000Z',
  max_age_seconds: maxAge,
});

test('rows read back as given, quotes, backslashes and any script included', async () => {
  const rows = [row(`it's "quoted" \\ {x}`, 60), row('日本語/ÜSD 🚀', 0), row('plain', 2_000_000)];
  await runNamed(db, insertRows(db, db, 'rate_table', rows));
  const read = await db
    .selectFrom('rate_table')
    .select(['pair', 'rate', 'set_at', 'max_age_seconds'])
    .where(
      'pair',
      'in',
      rows.map((r) => r.pair),
    )
    .orderBy('max_age_seconds')
    .execute();
  expect(read.map((r) => ({ ...r, set_at: new Date(r.set_at).toISOString() }))).toEqual([
    rows[1],
    rows[0],
    rows[2],
  ]);
});

test('an insert keeps its conflict clause and answers what it returns', async () => {
  const returned = await runNamed(
    db,
    insertRows(db, db, 'rate_table', [row('plain', 5), row('fresh', 5)])
      .onConflict((oc) => oc.column('pair').doNothing())
      .returning('pair'),
  );
  expect(returned).toEqual([{ pair: 'fresh' }]);
});

test('on PostgreSQL one text for any number of rows; on SQLite a VALUES list', async () => {
  statements.length = 0;
  await runNamed(db, insertRows(db, db, 'rate_table', [row('one', 1)]));
  await runNamed(db, insertRows(db, db, 'rate_table', [row('two', 1), row('three', 1)]));
  const [first, second] = statements;
  if (engineOf(db) === 'postgres') {
    expect(second).toBe(first);
  } else {
    expect(second).not.toBe(first);
    expect(second).toContain('values');
  }
});
