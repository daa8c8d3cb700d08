import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { addUser } from '../../test/accounts';
import { insertApp, insertReceive, insertSend } from '../../test/appRows';
import { createTestApp, type TestApp } from '../../test/testApp';
import { DB_FILE } from '../db/connection';
import type { Database } from '../db/schema';
import { dashboardOf } from '../domain/dashboard';
import { balanceMicro, postEntry } from '../domain/ledger';
import { decimalToMicro } from '../domain/money';

// getDashboard and getBalance through HTTP on known data, and the proof that every query they
// run is an index search on a ledger of a million entries.

const NOW = new Date('2026-11-20T12:00:00.000Z');
let t: TestApp;
let userId: string;
let auth: { authorization: string };

async function addApp(owner: string, id: string) {
  await insertApp(t, { id, user_id: owner, created_at: NOW.toISOString() });
}

async function addTransactions(appId: string, times: string[]) {
  for (const [i, created_at] of times.entries()) {
    await insertReceive(t, {
      id: `${appId}_r${i}`,
      app_id: appId,
      unique_id: `C${i}`,
      amount_micro: 1_000_000,
      deposit_status: 1,
      created_at,
    });
    await insertSend(t, {
      id: `${appId}_s${i}`,
      app_id: appId,
      amount_micro: 1_000_000,
      to_address: '0x0000000000000000000000000000000000000001',
      status: 1,
      created_at,
    });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  userId = await addUser(t, 'counter', { last_login_at: '2026-11-19T08:15:00.000Z' });
  auth = await t.authHeader('counter');
  const other = await addUser(t, 'neighbour');

  await addApp(userId, 'app_a');
  await addApp(userId, 'app_b');
  await addApp(other, 'app_other');
  await addTransactions('app_a', [
    '2026-11-20T09:00:00.000Z', // today
    '2026-11-20T00:00:00.000Z', // today, first instant
    '2026-11-10T10:00:00.000Z', // this month, after the subscription started
    '2026-11-02T10:00:00.000Z', // this month, before it
    '2026-10-31T23:59:59.999Z', // last month
  ]);
  await addTransactions('app_b', ['2026-11-15T10:00:00.000Z']);
  await addTransactions('app_other', ['2026-11-20T10:00:00.000Z']);

  await t.db
    .insertInto('subscriptions')
    .values({
      id: 'sub_counter',
      user_id: userId,
      package_id: 'pkg_starter',
      price_micro: 10_000_000,
      status: 1,
      invoice_id: 'INV-COUNTER',
      remarks: null,
      start_date: '2026-11-05T00:00:00.000Z',
      end_date: '2026-12-05T00:00:00.000Z',
      canceled_at: null,
      replaced_at: null,
      created_at: '2026-11-05T00:00:00.000Z',
    })
    .execute();

  for (let i = 0; i < 12; i += 1) {
    await postEntry(t.db, {
      userId,
      tnx: `0xentry${String(i).padStart(2, '0')}${'f'.repeat(20)}`,
      amountMicro: decimalToMicro(i === 5 ? '30.5' : '10'),
      type: i === 5 ? 'debit' : 'credit',
      source: i === 5 ? 'subscription' : 'deposit',
      note: i === 5 ? 'Purchase of the Starter package' : null,
      createdAt: new Date(NOW.getTime() - (12 - i) * 60_000).toISOString(),
    });
  }
  await postEntry(t.db, {
    userId: other,
    tnx: 'neighbour-entry',
    amountMicro: 5_000_000,
    type: 'credit',
    source: 'deposit',
    createdAt: NOW.toISOString(),
  });
});
afterAll(() => t.close());

test('getDashboard counts the user’s apps’ transactions and lists its latest ledger entries', async () => {
  const pkg = await t.db
    .selectFrom('packages')
    .select('tnx_limit')
    .where('id', '=', 'pkg_starter')
    .executeTakeFirstOrThrow();
  const res = await t.call('getDashboard', { headers: auth });
  expect(res.statusCode).toBe(200);
  const { data } = res.json();
  expect(data).toMatchObject({
    last_login_at: '2026-11-19T08:15:00.000Z',
    subscription: {
      expiry: '2026-12-05T00:00:00.000Z',
      transaction_limit: pkg.tnx_limit,
      transaction_used: 8, // receive + send of 4 rows since Nov 5
    },
    daily_transaction: 4,
    monthly_transaction: 10,
    total_transaction: 12,
  });
  expect(data.latest_transacctions).toHaveLength(10);
  expect(data.latest_transacctions[0]).toEqual({
    tnx: `0xentry11${'f'.repeat(20)}`,
    amount: 10,
    type: 'credit',
    source: 'deposit',
    note: null,
    created_at: new Date(NOW.getTime() - 60_000).toISOString(),
  });
  expect(data.latest_transacctions[6]).toMatchObject({ amount: 30.5, type: 'debit' });
  expect(JSON.stringify(data)).not.toContain('neighbour');
});

test('without a subscription in force the licence is null', async () => {
  await addUser(t, 'newcomer');
  const res = await t.call('getDashboard', { headers: await t.authHeader('newcomer') });
  expect(res.json().data).toEqual({
    last_login_at: null,
    subscription: null,
    daily_transaction: 0,
    monthly_transaction: 0,
    total_transaction: 0,
    latest_transacctions: [],
  });
});

test('getBalance is credits minus debits of the user’s own ledger', async () => {
  const res = await t.call('getBalance', { headers: auth });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: true, data: { payInBalance: 79.5 } }); // 11 x 10 - 30.5
  const anonymous = await t.call('getBalance');
  expect(anonymous.statusCode).toBe(401);
});

describe('with a million ledger entries and gateway transactions', () => {
  let sqlite: InstanceType<typeof SqliteDatabase>;
  let traced: Kysely<Database>;
  const queries: CompiledQuery[] = [];

  /**
   * Rewrites the planner statistics of `table` as if it held `rows` rows, `perKey` of them for
   * each value of an index's first column (primary keys stay unique).
   */
  function scaleStatistics(table: string, rows: number, perKey: number) {
    const indexes = sqlite
      .prepare('SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?')
      .all(table) as { idx: string | null; stat: string }[];
    expect(indexes.length).toBeGreaterThan(0);
    for (const { idx, stat } of indexes) {
      const columns = stat.split(' ').length - 1;
      const unique = idx === null || idx.startsWith('sqlite_autoindex');
      const spread = unique ? [1] : [perKey, ...Array<number>(columns - 1).fill(1)];
      sqlite
        .prepare('UPDATE sqlite_stat1 SET stat = ? WHERE tbl = ? AND idx IS ?')
        .run([rows, ...spread.slice(0, columns)].join(' '), table, idx);
    }
  }

  beforeAll(() => {
    sqlite = new SqliteDatabase(path.join(t.dataDir, DB_FILE));
    // Fifty thousand real entries over a thousand other accounts, analysed; then the statistics
    // are scaled to a million ledger entries and as many gateway transactions (a thousand per
    // account or app), so the planner decides as it would at that size without the test
    // writing them all.
    sqlite.exec(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
      INSERT INTO users (id, username, email, name, password_hash, pin_hash, created_at)
      SELECT 'usr_bulk_' || i, 'bulk' || i, 'bulk' || i || '@example.com', 'Bulk', 'x', 'x',
             '2026-01-01T00:00:00.000Z'
      FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
      INSERT INTO ledger_entries (id, user_id, tnx, amount_micro, type, source, note, created_at)
      SELECT 'bulk_' || i, 'usr_bulk_' || (i % 1000), 'tnx' || i, 1000000,
             CASE WHEN i % 7 = 0 THEN 'debit' ELSE 'credit' END, 'deposit', NULL,
             strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i % 300) || ' days')
      FROM n;
      ANALYZE;
    `);
    scaleStatistics('ledger_entries', 1_000_000, 1_000);
    scaleStatistics('apps', 100_000, 100);
    scaleStatistics('receive_transactions', 1_000_000, 1_000);
    scaleStatistics('send_transactions', 1_000_000, 1_000);
    sqlite.exec('ANALYZE sqlite_schema'); // reloads the statistics
    traced = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === 'query') queries.push(event.query);
      },
    });
  }, 60_000);
  afterAll(() => traced.destroy());

  const planOf = (query: CompiledQuery) =>
    (
      sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as {
        detail: string;
      }[]
    ).map((row) => row.detail);

  test('every dashboard and balance query searches an index (EXPLAIN QUERY PLAN)', async () => {
    const dashboard = await dashboardOf(traced, userId, NOW);
    const balance = await balanceMicro(traced, userId);
    expect(dashboard.total_transaction).toBe(12);
    expect(balance).toBe(79_500_000);
    expect(queries.length).toBeGreaterThanOrEqual(6);

    const TABLES =
      /\b(ledger_entries|receive_transactions|send_transactions|apps|subscriptions|users|packages)\b/;
    for (const query of queries) {
      for (const detail of planOf(query).filter((line) => TABLES.test(line))) {
        // SEARCH = an index lookup or range; a SCAN (of the table or of a whole index) reads
        // every row.
        expect({ sql: query.sql, detail }).toEqual({
          sql: query.sql,
          detail: expect.stringMatching(
            /^SEARCH \w+ USING (COVERING INDEX|INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)/,
          ),
        });
      }
    }
    const ledgerPlans = queries
      .filter((query) => query.sql.includes('"ledger_entries"'))
      .flatMap(planOf);
    expect(ledgerPlans).toEqual([
      // Recent Activity: walks the user's entries backwards, no sort.
      'SEARCH ledger_entries USING INDEX ledger_entries_user_created (user_id=?)',
      // Balance: sums type and amount straight from the index.
      'SEARCH ledger_entries USING COVERING INDEX ledger_entries_user_created (user_id=?)',
    ]);
  });
});
