import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { addUser } from '../../test/accounts';
import { insertApp, insertReceive, insertSend } from '../../test/appRows';
import { createTestApp, type TestApp } from '../../test/testApp';
import { DB_FILE, hearOwnerChanges, openDb } from '../db/connection';
import type { Database } from '../db/schema';
import { recordAccountEvent } from '../domain/account/events';
import { dashboardOf } from '../domain/account/dashboard';
import { balanceMicro, postEntry } from '../domain/billing/ledger';
import { decimalToMicro } from '../domain/money';

// getDashboard and getBalance through HTTP on known data, and the proof that every query they
// run is an index search on a ledger of a million entries.

const NOW = new Date('2026-11-20T12:00:00.000Z');
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
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
      credited_at: created_at,
    });
    // Neither a deposit on its way nor a failed withdrawal counts.
    await insertReceive(t, {
      id: `${appId}_pending${i}`,
      app_id: appId,
      unique_id: `P${i}`,
      amount_micro: 1_000_000,
      deposit_status: 0,
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
    await insertSend(t, {
      id: `${appId}_failed${i}`,
      app_id: appId,
      amount_micro: 1_000_000,
      to_address: '0x0000000000000000000000000000000000000001',
      status: 6,
      created_at,
    });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  userId = await addUser(t, 'counter');
  // The sign-in before this session's own (the dashboard's last login).
  await recordAccountEvent(
    t.db,
    userId,
    'sign_in',
    {},
    {
      at: '2026-11-19T08:15:00.000Z',
      client: { ip: '198.51.100.7', userAgent: FIREFOX_LINUX },
    },
  );
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
      paid_micro: 10_000_000,
      credit_micro: 0,
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
    amountMicro: 5_000_000n,
    type: 'credit',
    source: 'deposit',
    createdAt: NOW.toISOString(),
  });
}, 60_000); // many inserts: slow on PostgreSQL on a busy machine
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
    last_login_ip: '198.51.100.7',
    last_login_device: 'Firefox on Linux',
    subscription: {
      expiry: '2026-12-05T00:00:00.000Z',
      transaction_limit: pkg.tnx_limit,
      // The plan counts the 4 deposits credited since Nov 5 and the 8 withdrawals made since
      // (completed, and Unsuccessful ones: not cancelled).
      transaction_used: 12,
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
    last_login_ip: null,
    last_login_device: null,
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

// The dashboard's answer is kept per session until the user's rows change
// (http/keptAnswers.ts); these read it twice on one session with no row changed in between (its
// last sign of life is written once a minute), so only the time can change what it says.
describe('the same session later, with no row changed', () => {
  afterEach(() => t.clock.set(NOW));

  test("today's count starts again at 00:00 UTC", async () => {
    t.clock.set(new Date('2026-11-20T23:59:40.000Z'));
    const session = await t.authHeader('counter');
    const read = async () => (await t.call('getDashboard', { headers: session })).json().data;
    expect(await read()).toMatchObject({ daily_transaction: 4, monthly_transaction: 10 });
    t.clock.advance(30_000);
    expect(await read()).toMatchObject({ daily_transaction: 0, monthly_transaction: 10 });
  });

  test('the plan is gone once it expires', async () => {
    const expiring = await addUser(t, 'expiring');
    await t.db
      .insertInto('subscriptions')
      .values({
        id: 'sub_expiring',
        user_id: expiring,
        package_id: 'pkg_starter',
        price_micro: 10_000_000,
        paid_micro: 10_000_000,
        credit_micro: 0,
        status: 1,
        invoice_id: 'INV-EXPIRING',
        remarks: null,
        start_date: '2026-10-20T12:00:20.000Z',
        end_date: '2026-11-20T12:00:20.000Z',
        canceled_at: null,
        replaced_at: null,
        created_at: '2026-10-20T12:00:20.000Z',
      })
      .execute();
    const session = await t.authHeader('expiring');
    const read = async () => (await t.call('getDashboard', { headers: session })).json().data;
    expect((await read()).subscription).toMatchObject({ expiry: '2026-11-20T12:00:20.000Z' });
    t.clock.advance(30_000);
    expect((await read()).subscription).toBeNull();
  });
});

describe('with a million ledger entries and gateway transactions', () => {
  const queries: CompiledQuery[] = [];
  let traced: Kysely<Database>;
  let planner: Planner;
  beforeAll(async () => {
    planner = t.config.databaseUrl
      ? await postgresPlanner(t.config.databaseUrl)
      : sqlitePlanner(path.join(t.dataDir, DB_FILE));
    traced = openDb(t.config, {
      log: (event) => {
        if (event.level === 'query') queries.push(event.query);
      },
    });
  }, 60_000);
  afterAll(() => Promise.all([traced.destroy(), planner.close()]));

  test("every dashboard and balance query searches an index (the engine's own EXPLAIN)", async () => {
    const dashboard = await dashboardOf(traced, userId, NOW);
    const balance = await balanceMicro(traced, userId);
    expect(dashboard.total_transaction).toBe(12);
    expect(balance).toBe(79_500_000n);
    expect(queries.length).toBeGreaterThanOrEqual(6);
    const plans: { sql: string; step: string }[] = [];
    for (const query of queries) {
      for (const step of await planner.planOf(query)) plans.push({ sql: query.sql, step });
    }
    for (const plan of plans.filter(({ step }) => BIG_TABLES.test(step))) {
      expect(plan).toEqual({ sql: plan.sql, step: expect.stringMatching(planner.indexed) });
    }
    const ledgerPlans: string[] = [];
    for (const query of queries.filter(({ sql }) => sql.includes('"ledger_entries"'))) {
      ledgerPlans.push((await planner.planOf(query)).join(' / '));
    }
    expect(ledgerPlans).toEqual(planner.ledgerPlans.map((plan) => expect.stringMatching(plan)));
  });
});

const BIG_TABLES =
  /\b(ledger_entries|receive_transactions|send_transactions|apps|subscriptions|users|packages)\b/;

/** How one engine loads the bulk rows, runs the traced queries and explains them. */
interface Planner {
  /** The plan's steps, one line each, naming the table. */
  planOf(query: CompiledQuery): Promise<string[]>;
  /** What a step on a big table must look like: an index lookup or range, never a full read. */
  indexed: RegExp;
  /** The two ledger queries' plans, their steps joined by ' / '. */
  ledgerPlans: RegExp[];
  close(): Promise<void>;
}

/**
 * SQLite: fifty thousand real entries over a thousand other accounts, analysed; then the
 * statistics are scaled to a million ledger entries and as many gateway transactions (a thousand
 * per account or app), so the planner decides as it would at that size without the test writing
 * them all.
 */
function sqlitePlanner(file: string): Planner {
  const sqlite = new SqliteDatabase(file);
  hearOwnerChanges(sqlite, () => {});
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
  return {
    close: async () => {
      sqlite.close();
    },
    planOf: async (query) =>
      (
        sqlite
          .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
          .all(...(query.parameters as unknown[])) as { detail: string }[]
      ).map((row) => row.detail),
    // SEARCH = an index lookup or range; a SCAN (of the table or of a whole index) reads every row.
    indexed: /^SEARCH \w+ USING (COVERING INDEX|INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)/,
    ledgerPlans: [
      // Recent Activity: walks the user's entries backwards, no sort.
      /^SEARCH ledger_entries USING INDEX ledger_entries_user_created \(user_id=\?\)$/,
      // Balance: sums type and amount straight from the index.
      /^SEARCH ledger_entries USING COVERING INDEX ledger_entries_user_created \(user_id=\?\)$/,
    ],
  };
}

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgPlanNode[];
}

/**
 * PostgreSQL keeps no editable statistics, so the rows are real: a thousand other accounts with
 * an app each, fifty thousand ledger entries and as many receives and sends, analysed.
 */
async function postgresPlanner(url: string): Promise<Planner> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`
    INSERT INTO users (id, username, email, name, password_hash, pin_hash, created_at)
    SELECT 'usr_bulk_' || i, 'bulk' || i, 'bulk' || i || '@example.com', 'Bulk', 'x', 'x',
           timestamptz '2026-01-01T00:00:00Z'
    FROM generate_series(0, 999) AS i;
    INSERT INTO apps (id, user_id, app_name, project_url, status, created_at, updated_at)
    SELECT 'app_bulk_' || i, 'usr_bulk_' || i, 'Bulk', 'https://example.com', 1,
           timestamptz '2026-01-01T00:00:00Z', timestamptz '2026-01-01T00:00:00Z'
    FROM generate_series(0, 999) AS i;
    INSERT INTO ledger_entries (id, user_id, tnx, amount_micro, type, source, note, created_at)
    SELECT 'bulk_' || i, 'usr_bulk_' || (i % 1000), 'tnx' || i, 1000000,
           CASE WHEN i % 7 = 0 THEN 'debit' ELSE 'credit' END, 'deposit', NULL,
           timestamptz '2026-01-01T00:00:00Z' + (i % 300) * interval '1 day'
    FROM generate_series(1, 50000) AS i;
    INSERT INTO receive_transactions
      (id, app_id, payment_method_id, unique_id, amount_micro, deposit_status, created_at)
    SELECT 'rcv_bulk_' || i, 'app_bulk_' || (i % 1000), 'pm_usdt_bsc', 'u' || i, 1000000, 3,
           timestamptz '2026-01-01T00:00:00Z' + (i % 300) * interval '1 day'
    FROM generate_series(1, 50000) AS i;
    INSERT INTO send_transactions
      (id, app_id, payment_method_id, amount_micro, to_address, status, created_at)
    SELECT 'snd_bulk_' || i, 'app_bulk_' || (i % 1000), 'pm_usdt_bsc', 1000000, '0x0', 1,
           timestamptz '2026-01-01T00:00:00Z' + (i % 300) * interval '1 day'
    FROM generate_series(1, 50000) AS i;
  `);
  // VACUUM also fills the visibility map, which lets an index answer alone as it would in use.
  await pool.query('VACUUM ANALYZE');
  // A step that reads a table or an index, e.g. 'Index Scan on t using i', 'Bitmap Index Scan using i'.
  const steps = (node: PgPlanNode): string[] => [
    ...(node['Relation Name'] || node['Index Name']
      ? [
          [
            node['Node Type'],
            node['Relation Name'] && `on ${node['Relation Name']}`,
            node['Index Name'] && `using ${node['Index Name']}`,
          ]
            .filter(Boolean)
            .join(' '),
        ]
      : []),
    ...(node.Plans ?? []).flatMap(steps),
  ];
  return {
    close: () => pool.end(),
    async planOf(query) {
      const { rows } = await pool.query<{ 'QUERY PLAN': { Plan: PgPlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${query.sql}`,
        query.parameters as unknown[],
      );
      return rows[0]?.['QUERY PLAN'].flatMap((entry) => steps(entry.Plan)) ?? [];
    },
    // A small table (packages, subscriptions) is cheaper read whole and may be; a big one never.
    indexed:
      /^(Index Scan|Index Only Scan|Bitmap Heap Scan) on |^Bitmap Index Scan using |^Seq Scan on (packages|subscriptions)$/,
    ledgerPlans: [
      // Recent Activity: walks the user's entries backwards, no sort.
      /^Index Scan on ledger_entries using ledger_entries_user_created$/,
      // Balance: the user's entries found through the same index, read alone or through a bitmap
      // (PostgreSQL picks by its visibility map, which varies from run to run).
      /^(Index Only Scan on ledger_entries using ledger_entries_user_created|Bitmap Heap Scan on ledger_entries \/ Bitmap Index Scan using ledger_entries_user_created)$/,
    ],
  };
}
