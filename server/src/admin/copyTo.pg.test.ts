import { REGISTER_KIND } from '../domain/apps/signerRegistration';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { runAdmin } from '../admin';
import { startWorker } from '../jobs/worker';
import { backgroundTasks } from '../jobs';
import { webhookDeps } from '../domain/webhooks/delivery';
import { sendTestEvent } from '../domain/webhooks/portal';
import { credit } from '../../test/moneyFixtures';
import { insertSend } from '../../test/appRows';
import { newApiKey } from '../domain/apps/apiKeys';
import { DB_FILE, openDb, type Db } from '../db/connection';
import { issueOtp } from '../domain/account/otp';
import { requestArchive } from '../domain/account/archives';
import { newTotpSecret, sealTotpSecret, totpCode } from '../domain/account/totp';
import { DEMO_ACCOUNT } from '../seed';
import { parseUnits } from 'viem';
import { chainAdapterFor } from '../domain/chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { createInvoice, getInvoice } from '../domain/invoices/invoices';
import {
  createPaymentLink,
  paymentLinkBySlug,
  payInvoice,
} from '../domain/paymentLinks/paymentLinks';
import { watchDeposits } from '../domain/payments/deposits';
import { RateBook } from '../domain/rates/rates';
import { setTableRate } from '../domain/rates/table';
import { createTestApp, type TestApp } from '../../test/testApp';
import { freshTestStore, type TestStore } from '../../test/testStore';

// `db copy-to` on a merchant's real data: a SQLite DATA_DIR filled through the app (demo seed,
// a registration, sign-ins, a deposit) is copied into a fresh PostgreSQL schema, which a server
// then runs on. Needs PostgreSQL, so it is a *.pg.test.ts: only `npm run test:pg` runs it
// (jest.config.ts). The tests build on each other in file order: refusals, the copy, a rerun.

const NEWCOMER = {
  name: 'Asha Verma',
  username: 'asha_v',
  email: 'asha@example.com',
  sponsor_id: DEMO_ACCOUNT.username,
  password: 'S3cure!pass',
  spassword: '4821',
  country: 'IN',
  phone: '919876543210',
  is_checked: 1,
};
const TOTP_SECRET = newTotpSecret();
// Two apps, password hashing and a whole database copied: more than Jest's 5 s on a busy machine.
jest.setTimeout(60_000);

let sqliteApp: TestApp;
let target: TestStore;
let targetUrl: string;

beforeAll(async () => {
  // SQLite in its DATA_DIR even though this run sets TEST_DATABASE_URL: the merchant's start.
  sqliteApp = await createTestApp({ env: { DATABASE_URL: '' } });
  target = await freshTestStore('portal-copy-target-');
  if (!target.databaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  targetUrl = target.databaseUrl;
  await fillEveryTable(sqliteApp);
});
afterAll(async () => {
  await sqliteApp.close();
  await target.close();
});

async function copyTo(url: string, env: Record<string, string | undefined> = {}) {
  const lines: string[] = [];
  const code = await runAdmin(
    ['db', 'copy-to', url],
    { out: (line) => lines.push(line) },
    {
      DATA_DIR: sqliteApp.dataDir,
      NODE_ENV: 'test',
      SECRET_KEY: sqliteApp.config.secretKey,
      ...env,
    },
  );
  return { code, lines, text: lines.join('\n') };
}

/** What a merchant's database holds after a while, through the app's own code paths. */
async function fillEveryTable(t: TestApp): Promise<void> {
  // A name that matches no account: login_failures and login_unknown_names.
  const ghost = await t.call('preLogin', { body: { username: 'ghost', password: 'Nope@1234' } });
  expect(ghost.statusCode).toBe(422);
  expect((await t.call('register', { body: NEWCOMER })).statusCode).toBe(200);
  const newcomer = await t.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', NEWCOMER.username)
    .executeTakeFirstOrThrow();
  // The newcomer signs in with an authenticator (its secret is encrypted with SECRET_KEY) and has
  // an e-mailed code pending (otp_codes).
  await t.db
    .updateTable('users')
    .set({
      auth_type: 'authenticator',
      totp_enabled: 1,
      totp_secret_enc: sealTotpSecret(t.config.secretKey, newcomer.id, TOTP_SECRET),
    })
    .where('id', '=', newcomer.id)
    .execute();
  await issueOtp(t.db, t.config.secretKey, newcomer.id, 'auth-switch', async () => {}, t.clock);
  // A row may reference a younger row of its own table: the copy cannot rely on insert order.
  await t.db
    .updateTable('users')
    .set({ sponsor_id: newcomer.id })
    .where('username', '=', DEMO_ACCOUNT.username)
    .execute();
  // The demo merchant signs in (sessions, spent_step_tokens) and is paid 12.5 USDT on the local
  // chain: an 18-decimal amount past int64 in chain_transfers, credited by Check Balance.
  const signedIn = await signIn(t, DEMO_ACCOUNT.username, DEMO_ACCOUNT.password, {
    mpin: DEMO_ACCOUNT.pin,
  });
  expect(signedIn.statusCode).toBe(200);
  const sent = await runAdmin(
    ['deposit', 'demo', '12.5'],
    { out: () => {} },
    {
      DATA_DIR: t.dataDir,
      NODE_ENV: 'test',
      SECRET_KEY: t.config.secretKey,
    },
  );
  expect(sent).toBe(0);
  const synced = await t.call('syncBalance', { headers: await t.authHeader() });
  expect(synced.json()).toMatchObject({ is_new: true });
  // A purchase sent with an Idempotency-Key (idempotency_keys), and one turn of each recurring
  // job (jobs; the watcher's cursor and the local chain's mined head).
  await credit(t, newcomer.id, '19');
  const bought = await t.call('purchasePackage', {
    headers: { ...(await t.authHeader(NEWCOMER.username)), 'idempotency-key': 'first-plan' },
    body: { package_id: 'pkg_starter' },
  });
  expect(bought.statusCode).toBe(200);
  const tasks = backgroundTasks(t.config, t.db);
  const worker = await startWorker({
    db: t.db,
    tasks,
    log: { error: () => {}, warn: () => {} },
    pollMs: 0,
  });
  // One turn of each recurring task (webhook deliveries run only when an event queues one), and
  // the demo store's registrations with the signer that its seed queued.
  const registrations = await t.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', REGISTER_KIND)
    .executeTakeFirstOrThrow();
  expect(Number(registrations.n)).toBeGreaterThan(0);
  // At least: a local chain's new block also asks its watcher to run again at once.
  expect(await worker.drain()).toBeGreaterThanOrEqual(
    tasks.filter((task) => task.everyMs !== undefined).length + Number(registrations.n),
  );

  // The demo store's server calls the gateway with a key of its own (api_logs, written by the
  // batch writer within a second), and a withdrawal row (send_transactions) until the
  // withdrawals issue makes real ones.
  const key = newApiKey();
  await t.db
    .insertInto('api_keys')
    .values({
      id: 'key_copy_to',
      app_id: 'app_demo_store',
      token_name: 'Copy test',
      token_hash: key.hash,
      token_prefix: key.prefix,
      abilities: JSON.stringify(['methods:read']),
      created_at: t.clock().toISOString(),
    })
    .execute();
  const called = await t.inject({
    method: 'GET',
    url: '/gateway/v1/methods',
    headers: { authorization: `Bearer ${key.key}` },
    remoteAddress: '203.0.113.10', // in the demo store's whitelist
  });
  expect(called.statusCode).toBe(200);
  await insertSend(t, {
    id: 'wd_copy_to',
    app_id: 'app_demo_store',
    amount_micro: 3_000_000,
    to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    status: 1,
    created_at: t.clock().toISOString(),
  });
  for (let waited = 0; (await countRows(t.db, 'api_logs')) === 0 && waited < 10_000;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    waited += 100;
  }

  // The demo app's test event, its delivery and a refused first attempt (webhook_*), signed with
  // a sealed secret (app_webhooks).
  const demoApp = await t.db
    .selectFrom('apps')
    .innerJoin('users', 'users.id', 'apps.user_id')
    .select(['apps.id', 'apps.user_id'])
    .where('users.username', '=', DEMO_ACCOUNT.username)
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('apps')
    .set({ callback_url: 'http://127.0.0.1:9/hooks' })
    .where('id', '=', demoApp.id)
    .execute();
  const pinged = await sendTestEvent(
    webhookDeps(t.config, t.db, t.clock),
    demoApp.user_id,
    demoApp.id,
  );
  expect(pinged.attemptsMade).toHaveLength(1);

  // A transaction the signer signed and its log line (chain_txs, signer_log).
  await t.db
    .insertInto('chain_txs')
    .values({
      id: 'ctx_copy_to',
      chain_id: 56,
      from_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      key_path: '1/0/0',
      nonce: 0,
      purpose: 'withdrawal',
      ref_id: 'wd_copy_to',
      to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      token_contract: null,
      amount_raw: '3000000000000000000',
      gas_price: '1000000000',
      raw_tx: '0x02',
      tx_hash: `0x${'ab'.repeat(32)}`,
      status: 'mined',
      block_number: 7,
      error: null,
      created_at: t.clock().toISOString(),
      sent_at: t.clock().getTime(),
    })
    .execute();
  await t.db
    .insertInto('signer_log')
    .values({
      id: 'slog_copy_to',
      request: 'withdrawal',
      ref_id: 'wd_copy_to',
      chain_id: 56,
      from_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      nonce: 0,
      tx_hash: `0x${'ab'.repeat(32)}`,
      reason: 'withdrawal wd_copy_to',
      created_at: t.clock().toISOString(),
    })
    .execute();
  // The addresses' next indexes (derivation_counters), and a reorg of the local chain the reorg
  // scenario made (local_chain_reorgs).
  await t.db
    .insertInto('derivation_counters')
    .values({ branch: 'accounts', next_index: 40 })
    .onConflict((oc) => oc.column('branch').doUpdateSet({ next_index: 40 }))
    .execute();
  // An address derived ahead of need (address_pool).
  await t.db
    .insertInto('address_pool')
    .values({ parent: 'copied-parent', derivation_index: 41, address: `0x${'ef'.repeat(20)}` })
    .execute();
  await t.db
    .insertInto('local_chain_reorgs')
    .values({
      tx_hash: `0x${'cd'.repeat(32)}`,
      chain_id: 97,
      block_number: 3,
      reorged_at: t.clock().toISOString(),
    })
    .execute();
  // The newcomer asks for an archive of the account (account_archives), still being prepared.
  await requestArchive(t.db, newcomer.id, t.clock());
  // A request the signer refused (signer_refusals).
  await t.db
    .insertInto('signer_refusals')
    .values({
      id: 'srf_copy_to',
      request: 'withdrawal',
      ref_id: 'wd_copy_to',
      app_id: 'app_demo_store',
      reason: 'The withdrawal does not match the MAC the web process made when it accepted it.',
      created_at: t.clock().toISOString(),
    })
    .execute();
  // A settled invoice paid in two methods (the demo store's invoices are seeded too), and the
  // operator's rate it was priced with (rate_table).
  await settledInvoiceInTwoMethods(t);
  // A payment link and the invoice a visit of its page made (payment_links, payment_link_visits).
  await linkPaidOnce(t);
  const empty: string[] = [];
  for (const table of await userTables(t.db)) {
    if ((await countRows(t.db, table)) === 0) empty.push(table);
  }
  expect(empty).toEqual([]);
}

/**
 * The demo store's invoice paid part in USDT, part in BNB on the local chain and settled
 * (invoices, invoice_payment_options, invoice_payments, rate_table): two credited deposits, one
 * transaction (tnx_count 1 and 0), which the target's triggers must count as SQLite's do.
 */
async function settledInvoiceInTwoMethods(t: TestApp): Promise<void> {
  await t.db
    .insertInto('app_payment_methods')
    .values({
      id: 'upm_copy_to_bnb',
      app_id: 'app_demo_store',
      payment_method_id: 'pm_bnb',
      collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      gas_address: null,
      gas_index: null,
      deposit_status: 1,
      withdraw_status: 0,
      created_at: t.clock().toISOString(),
    })
    .execute();
  await setTableRate(t.db, { pair: 'BNB/USD', rate: '600', maxAgeHours: 24, now: t.clock() });
  const chain = chainAdapterFor(t.config, t.db, 56);
  const invoice = await createInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      appId: 'app_demo_store',
      amount: '30',
      currency: 'USD',
      methods: ['USDT-BEP20', 'BNB-BSC'],
      expiresIn: 900,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
    },
  );
  const address = invoice.payment_options[0]?.address ?? '';
  const usdt = invoice.payment_options.find((o) => o.method === 'USDT-BEP20')?.token_contract;
  for (const [token, amount] of [
    [usdt ?? null, '10'],
    [null, '0.04'], // 24 USD
  ] as const) {
    await recordLocalChainTransfer(t.db, {
      chainId: 56,
      token,
      to: address,
      amount: parseUnits(amount, 18),
      createdAt: t.clock().toISOString(),
    });
  }
  await watchDeposits(t.db, chain, t.clock());
  await mineLocalBlocks(t.db, 20);
  await watchDeposits(t.db, chain, t.clock());
  expect(await getInvoice(t.db, 'app_demo_store', invoice.id)).toMatchObject({
    status: 'settled',
  });
  const counted = await t.db
    .selectFrom('receive_transactions')
    .select('tnx_count')
    .where('unique_id', '=', invoice.id)
    .execute();
  expect(counted.map((r) => r.tnx_count).sort()).toEqual([0, 1]);
}

/** A payment link of the demo store, and the invoice one visit of its page made. */
async function linkPaidOnce(t: TestApp): Promise<void> {
  const link = await createPaymentLink(t.db, {
    appId: 'app_demo_store',
    title: 'Gift card',
    amountMin: '5',
    currency: 'USD',
    methods: ['USDT-BEP20'],
    origin: 'https://pay.example.com',
    now: t.clock(),
  });
  const found = await paymentLinkBySlug(t.db, link.url.split('/').pop() ?? '', t.clock());
  if (!found) throw new Error('the link has no page');
  const chain = chainAdapterFor(t.config, t.db, 56);
  await payInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      link: found.link,
      amount: '12,50',
      visit: 'v'.repeat(22),
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
    },
  );
}

async function signIn(
  t: TestApp,
  username: string,
  password: string,
  code: Record<string, string>,
) {
  const step = await t.call('preLogin', { body: { username, password } });
  expect(step.statusCode).toBe(200);
  return t.call('login', {
    headers: { authorization: `Bearer ${step.json().token as string}` },
    body: { username, password, ...code },
  });
}

/**
 * The SQLite file's tables, Kysely's migration bookkeeping aside, and SQLite's own counts of
 * changes for the kept reads (migration 0630), which PostgreSQL has no table for.
 */
async function userTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from sqlite_master
     where type = 'table' and name not like 'sqlite%' and name not like 'kysely%'
       and name <> 'kept_table_changes'
     order by name`.execute(db);
  return rows.map((r) => r.name);
}

async function countRows(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.id(table)}`.execute(db);
  return Number(rows[0]?.n);
}

async function countAll(db: Db, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await countRows(db, table);
  return counts;
}

/**
 * Every row of a table as the domain reads it (both engines give the same shapes, connection.ts),
 * JSON compared by value (jsonb rewrites the text's spacing), in a fixed order.
 */
async function rowsOf(db: Db, table: string, jsonColumns: string[]): Promise<unknown[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.id(table)}`.execute(db);
  return rows
    .map((row) => {
      const normalised = { ...row };
      for (const column of jsonColumns) {
        const value = normalised[column];
        if (typeof value === 'string') normalised[column] = JSON.parse(value);
      }
      return normalised;
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

async function pgJsonColumns(db: Db): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
     where table_schema = current_schema() and data_type = 'jsonb'`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of rows)
    byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  return byTable;
}

it('refuses a target that is not PostgreSQL, a configuration on PostgreSQL, a DATA_DIR without SQLite', async () => {
  const mysql = await copyTo('mysql://shop@db/shop');
  expect(mysql.code).toBe(2);
  expect(mysql.text).toContain('The target must be a postgres:// or postgresql:// URL.');

  const onPostgres = await copyTo(targetUrl, { DATABASE_URL: targetUrl });
  expect(onPostgres.code).toBe(1);
  expect(onPostgres.text).toContain('DATABASE_URL is set');

  const emptyDir = mkdtempSync(path.join(tmpdir(), 'portal-copy-empty-'));
  try {
    const missing = await copyTo(targetUrl, { DATA_DIR: emptyDir });
    expect(missing.code).toBe(1);
    expect(missing.text).toContain(
      `There is no SQLite database at ${path.join(emptyDir, DB_FILE)}`,
    );
    expect(existsSync(path.join(emptyDir, DB_FILE))).toBe(false);
  } finally {
    rmSync(emptyDir, { recursive: true, force: true });
  }
});

it('stops without writing a row when SQLite holds a table the target lacks', async () => {
  // A table no migration creates (say, added by hand): it must not be left behind silently.
  await sql`create table counters (id integer primary key, label text not null)`.execute(
    sqliteApp.db,
  );
  await sql`insert into counters (id, label) values (1, 'one'), (5, 'five')`.execute(sqliteApp.db);

  const run = await copyTo(targetUrl);
  expect(run.code).toBe(1);
  expect(run.text).toContain("The target has no table 'counters'");
  expect(run.text).toContain('No rows were written');
  const pg = openDb({ dataDir: sqliteApp.dataDir, databaseUrl: targetUrl });
  try {
    const tables = (await userTables(sqliteApp.db)).filter((t) => t !== 'counters');
    expect(Object.values(await countAll(pg, tables)).every((n) => n === 0)).toBe(true);
  } finally {
    await pg.destroy();
  }
});

it('copies every row exactly; a server on the copy signs in and reads the same figures', async () => {
  // The same table on the target, with an identity column whose sequence must follow the copy.
  const pg = openDb({ dataDir: sqliteApp.dataDir, databaseUrl: targetUrl });
  try {
    await sql`create table counters (id integer generated always as identity primary key, label text not null)`.execute(
      pg,
    );
  } finally {
    await pg.destroy();
  }
  const tables = await userTables(sqliteApp.db);
  const sqliteCounts = await countAll(sqliteApp.db, tables);

  const run = await copyTo(targetUrl);
  expect(run.code).toBe(0);
  // The kept counts and daily totals (migration 0230) are not copied: the target's triggers make
  // them from the rows copied, and the comparisons below find them equal to SQLite's.
  const copied = tables.filter((table) => !['row_counts', 'app_daily_usage'].includes(table));
  expect(run.text).toContain(`Copied ${copied.length} tables into`);
  expect(run.lines).toContainEqual(expect.stringMatching(/^table\s+sqlite\s+postgresql$/));
  for (const table of copied) {
    const n = sqliteCounts[table];
    expect(run.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${table}\\s+${n}\\s+${n}$`)),
    );
  }
  expect(run.text).toContain('Every row count matches.');
  expect(run.text).toContain('keep SECRET_KEY set to the same value');

  // The server on the copy: the same DATA_DIR and secret, DATABASE_URL set. Its start migrates and
  // seeds, as `npm start` does, and must find nothing to add.
  const pgApp = await createTestApp({
    env: { DATA_DIR: sqliteApp.dataDir, DATABASE_URL: targetUrl },
  });
  try {
    expect(await countAll(pgApp.db, tables)).toEqual(sqliteCounts);
    const json = await pgJsonColumns(pgApp.db);
    for (const table of tables) {
      const columns = json.get(table) ?? [];
      expect({ table, rows: await rowsOf(pgApp.db, table, columns) }).toEqual({
        table,
        rows: await rowsOf(sqliteApp.db, table, columns),
      });
    }

    // Spot checks of the engine-specific types: an amount past int64 into numeric(78,0), an ISO
    // time into timestamptz, JSON text into jsonb.
    // (The newest transfer but the invoice's: the demo store's seeded payments came before.)
    const transfer = await sql<{ amount: string; type: string }>`select amount_raw::text as amount,
        pg_typeof(amount_raw)::text as type from chain_transfers
        where lower(to_address) not in (select lower(address) from invoice_payment_options)
        order by block_number desc limit 1`.execute(pgApp.db);
    expect(transfer.rows).toEqual([{ amount: '12500000000000000000', type: 'numeric' }]);
    const { created_at: createdAt } = await sqliteApp.db
      .selectFrom('users')
      .select('created_at')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const time = await sql<{ type: string; ms: number }>`select pg_typeof(created_at)::text as type,
        (extract(epoch from created_at) * 1000)::bigint as ms
      from users where username = 'demo'`.execute(pgApp.db);
    expect(time.rows).toEqual([{ type: 'timestamp with time zone', ms: Date.parse(createdAt) }]);
    const jsonb = await sql<{ type: string }>`select distinct pg_typeof(payload)::text as type
      from jobs`.execute(pgApp.db);
    expect(jsonb.rows).toEqual([{ type: 'jsonb' }]);

    // The identity column continues after the highest copied id.
    const next = await sql<{
      id: number;
    }>`insert into counters (label) values ('six') returning id`.execute(pgApp.db);
    expect(next.rows).toEqual([{ id: 6 }]);

    // The merchant's figures, before anyone signs in on the copy (the dashboard shows the last login).
    for (const operationId of ['getDashboard', 'getBalance']) {
      const [onSqlite, onPg] = await Promise.all([
        sqliteApp.call(operationId, { headers: await sqliteApp.authHeader() }),
        pgApp.call(operationId, { headers: await pgApp.authHeader() }),
      ]);
      expect(onPg.statusCode).toBe(200);
      expect(onPg.json()).toEqual(onSqlite.json());
    }

    // Signing in: the demo's hashes, and the newcomer's authenticator secret sealed with SECRET_KEY.
    const demo = await signIn(pgApp, DEMO_ACCOUNT.username, DEMO_ACCOUNT.password, {
      mpin: DEMO_ACCOUNT.pin,
    });
    expect(demo.statusCode).toBe(200);
    const newcomer = await signIn(pgApp, NEWCOMER.username, NEWCOMER.password, {
      authenticator: await totpCode(TOTP_SECRET, pgApp.clock()),
    });
    expect(newcomer.statusCode).toBe(200);
  } finally {
    await pgApp.close();
  }
});

it('refuses a second run into the now non-empty target, writing nothing', async () => {
  const pg = openDb({ dataDir: sqliteApp.dataDir, databaseUrl: targetUrl });
  try {
    const tables = await userTables(sqliteApp.db);
    const before = await countAll(pg, tables);
    const run = await copyTo(targetUrl);
    expect(run.code).toBe(1);
    expect(run.text).toContain('The target already holds data (');
    expect(run.text).toContain('No rows were written');
    expect(await countAll(pg, tables)).toEqual(before);
  } finally {
    await pg.destroy();
  }
});
