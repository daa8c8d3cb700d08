import { sql } from 'kysely';
import { buildApp } from '../app';
import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { postEntry } from '../domain/billing/ledger';
import { createTestApp, type TestApp } from '../../test/testApp';
// PostgreSQL tells other processes on commit, a moment later: they wait for it.
import { until } from '../../test/until';
import { changesOf, engineOf, openDb, writerOf, type Db } from './connection';
import { LISTENER_NAME } from './listener';
import { OwnerChanges, tablesDependedOn } from './ownerChanges';
import { OWNER_CHANNELS } from './migrations/0240_owner_changes';
import { DERIVED_TABLES } from './migrations/0260_derived_owner_triggers';
import { INSERTS_NOTED_WITH } from './migrations/0690_inserts_noted_with';
import { keptQueryTables, prepared } from './prepared';
import { getInvoice, invoiceTables } from '../domain/invoices/invoices';
import { listDeposits, polledPageTables } from '../domain/payments/deposits';
import { planTables, refuseOverPlan } from '../domain/apps/plan';
import { recordEvent } from '../domain/webhooks/events';

// Two server processes of one deployment on one host: each its own connection to the database,
// so each its own kept reads (db/ownerChanges.ts).
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp({ beside: first });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
});

const sqlite = () => engineOf(first.db) === 'sqlite';
/**
 * A request that follows a commit of another process comes through the network, so a later turn
 * of the event loop reads it; `inject` would run it in the commit's own turn, which the server
 * checks for other processes' commits only once (app.ts).
 */
const fromTheNetwork = () => new Promise((resolve) => setImmediate(resolve));

/** The demo user's name, a read kept per process until the user changes. */
const nameOf = prepared(
  { id: '' },
  (db, p) => db.selectFrom('users').select(['id', 'username']).where('id', '=', p.id),
  { ownerOf: (p, rows) => (rows.length > 0 ? p.id : undefined) },
);

async function demoId(db: Db) {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'demo')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function nameNow(db: Db, id: string) {
  const [row] = await nameOf(db, { id });
  return row?.username;
}

/** Answers from what `db` kept (the very same rows) once the listener is on, if it ever is. */
async function keptOn(db: Db, id: string) {
  const before = await nameOf(db, { id });
  return (await nameOf(db, { id })) === before;
}

test('a process answers a kept read from memory until that user changes, from any process', async () => {
  const demo = await demoId(first.db);
  await until(() => keptOn(first.db, demo), 'the first process to keep reads');
  const kept = await nameOf(first.db, { id: demo });
  expect(Object.isFrozen(kept)).toBe(true);
  expect(kept.every((row) => Object.isFrozen(row))).toBe(true);

  // Another user's change leaves it kept.
  const other = await addUser(first, 'other');
  expect(await nameOf(first.db, { id: demo })).toBe(kept);

  // The user's change through this process: read again at once.
  await first.db.updateTable('users').set({ username: 'demo2' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo2');

  // Through the other process: on SQLite from the next request on (each reads data_version as
  // it arrives), on PostgreSQL once the notification is in.
  await second.db.updateTable('users').set({ username: 'demo3' }).where('id', '=', demo).execute();
  if (sqlite()) {
    expect(await nameNow(first.db, demo)).toBe('demo2');
    changesOf(first.db)?.requestsArrived();
    expect(await nameNow(first.db, demo)).toBe('demo3');
  }
  await until(
    async () => (await nameNow(first.db, demo)) === 'demo3',
    'the change to reach the first process',
  );
  await first.db.updateTable('users').set({ username: 'demo' }).where('id', '=', demo).execute();
  await first.db.deleteFrom('users').where('id', '=', other).execute();
});

/** An app's name, a read kept under the app until one of its rows changes. */
const appNameOf = prepared(
  { id: '' },
  (db, p) => db.selectFrom('apps').select(['id', 'app_name']).where('id', '=', p.id),
  { ownerOf: (p, rows) => (rows.length > 0 ? p.id : undefined) },
);

/** An app's API log rows, kept under the app until one of them (or the app) changes. */
const appLogsOf = prepared(
  { id: '' },
  (db, p) =>
    db
      .selectFrom('api_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', p.id),
  { ownerOf: (p) => p.id },
);

/** A user's API log rows, of all their apps. */
const userLogsOf = prepared(
  { id: '' },
  (db, p) =>
    db
      .selectFrom('api_logs')
      .innerJoin('apps', 'apps.id', 'api_logs.app_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('apps.user_id', '=', p.id),
  { ownerOf: (p) => p.id },
);

test('one statement writing rows of several apps names each app and its user, and no one else', async () => {
  const stamp = first.clock().toISOString();
  const users = [await addUser(first, 'logs_a'), await addUser(first, 'logs_b')];
  const bystander = await addUser(first, 'logs_c');
  const apps = ['app_logs_a1', 'app_logs_a2', 'app_logs_b'];
  const owners = [users[0], users[0], users[1]];
  for (const [i, id] of apps.entries()) {
    await insertApp(first, { id, user_id: owners[i] ?? '', created_at: stamp });
  }
  await insertApp(first, { id: 'app_logs_c', user_id: bystander, created_at: stamp });
  const reads = [
    ...[...users, bystander].map((id) => () => userLogsOf(first.db, { id })),
    ...[...apps, 'app_logs_c'].map((id) => () => appLogsOf(first.db, { id })),
    // Their rows of other tables: no API log row changes them.
    ...users.map((id) => () => nameOf(first.db, { id })),
    ...apps.map((id) => () => appNameOf(first.db, { id })),
  ];
  const keptNow = async () => {
    const before = await Promise.all(reads.map((read) => read()));
    const after = await Promise.all(reads.map((read) => read()));
    return before.map((rows, i) => rows === after[i]);
  };
  await until(
    async () => (await keptOn(first.db, bystander)) && (await keptNow()).every(Boolean),
    'every read to be kept',
  );
  const kept = await Promise.all(reads.map((read) => read()));

  // Many rows of each app in one statement, as an API log flush writes them. Through this process:
  // another SQLite process's commit names tables, not owners.
  await first.db
    .insertInto('api_logs')
    .values(
      Array.from({ length: 30 }, (_, i) => ({
        id: `log_owners_${i}`,
        app_id: apps[i % apps.length] ?? '',
        method: 'GET',
        route: '/gateway/v1/deposits',
        ip: '127.0.0.1',
        status: 200,
        created_at: stamp,
      })),
    )
    .execute();
  const voided = async () =>
    (await Promise.all(reads.map((read) => read()))).map((rows, i) => rows !== kept[i]);
  // Users a and b and their three apps read again; the bystander and its app stay kept, and so
  // do the names of a, b and their apps.
  const expected = [true, true, false, true, true, true, false, false, false, false, false, false];
  await until(async () => (await voided()).slice(0, 2).every(Boolean), 'the change to be heard');
  expect(await voided()).toEqual(expected);
});

test('the IPN log of one process shows a delivery recorded through the other', async () => {
  const userId = await addUser(first, 'ipn');
  const at = first.clock();
  await insertApp(first, {
    id: 'app_ipn',
    user_id: userId,
    created_at: at.toISOString(),
    callback_url: 'https://shop.example.com/hooks',
  });
  const auth = await first.authHeader('ipn');
  const ipnLog = async () =>
    (
      await first.call('getAppDetails', {
        headers: auth,
        params: { id: 'app_ipn' },
        query: { callback_data: 1 },
      })
    ).json<{ data: { callback_data: { total: number } } }>().data.callback_data.total;
  expect(await ipnLog()).toBe(0);
  expect(await ipnLog()).toBe(0);

  // The event's own insert names no one (migration 0690): its delivery's does.
  await second.db.transaction().execute((trx) =>
    recordEvent(trx, {
      appId: 'app_ipn',
      type: 'invoice.created',
      resourceId: 'inv_ipn',
      uniqueId: null,
      data: { id: 'inv_ipn' },
      now: at,
    }),
  );
  await fromTheNetwork();
  if (sqlite()) expect(await ipnLog()).toBe(1);
  await until(async () => (await ipnLog()) === 1, 'the delivery');
});

test('a session signed out through one process is refused by the other', async () => {
  const auth = await first.authHeader();
  const getApps = (app: TestApp) => app.call('getApps', { headers: auth });
  expect((await getApps(second)).statusCode).toBe(200);
  expect((await getApps(second)).statusCode).toBe(200);

  expect((await first.call('logout', { headers: auth })).statusCode).toBe(200);
  expect((await getApps(first)).statusCode).toBe(401);
  await fromTheNetwork();
  if (sqlite()) expect((await getApps(second)).statusCode).toBe(401);
  await until(async () => (await getApps(second)).statusCode === 401, 'the sign-out to reach it');
});

test('an app created through one process is listed by the other', async () => {
  await addUser(first, 'shopper');
  const auth = await first.authHeader('shopper');
  const names = async (app: TestApp) =>
    (await app.call('getApps', { headers: auth }))
      .json<{ data: { app_name: string }[] }>()
      .data.map((a) => a.app_name);
  const before = await names(second);
  expect(await names(second)).toEqual(before);

  const created = await first.call('createApp', {
    headers: auth,
    body: { app_name: 'Kept Shop', project_url: 'https://shop.example.com' },
  });
  expect(created.json()).toMatchObject({ status: true });
  expect(await names(first)).toEqual([...before, 'Kept Shop']);
  await fromTheNetwork();
  if (sqlite()) expect(await names(second)).toEqual([...before, 'Kept Shop']);
  await until(async () => (await names(second)).includes('Kept Shop'), 'the new app');
});

test('the dashboard of one process shows a ledger entry written through the other at once', async () => {
  const auth = await first.authHeader();
  const latest = async (app: TestApp) =>
    (await app.call('getDashboard', { headers: auth }))
      .json<{ data: { latest_transacctions: { note: string | null }[] } }>()
      .data.latest_transacctions.map((entry) => entry.note);
  const before = await latest(first);
  expect(await latest(first)).toEqual(before);

  await postEntry(second.db, {
    userId: await demoId(first.db),
    tnx: 'TNXKEPT1',
    amountMicro: 1_000_000n,
    type: 'credit',
    source: 'deposit',
    note: 'Kept entry',
    createdAt: new Date(Date.now() + 60_000).toISOString(),
  });
  await fromTheNetwork();
  if (sqlite()) expect((await latest(first))[0]).toBe('Kept entry');
  await until(async () => (await latest(first))[0] === 'Kept entry', 'the new entry');
});

test('an API key revoked in the portal of one process no longer opens the gateway of the other', async () => {
  const userId = await addUser(first, 'integrator');
  await insertSubscription(first, userId);
  await insertApp(first, {
    id: 'app_kept',
    user_id: userId,
    created_at: first.clock().toISOString(),
  });
  await insertAppMethod(first, { id: 'apm_kept', app_id: 'app_kept' });
  const key = await insertApiKey(first, {
    id: 'key_kept',
    app_id: 'app_kept',
    abilities: ['methods:read'],
  });
  const methods = (app: TestApp) =>
    app.inject({ method: 'GET', url: '/gateway/v1/methods', headers: { 'x-api-key': key } });
  expect((await methods(second)).statusCode).toBe(200);
  expect((await methods(second)).statusCode).toBe(200);

  const revoked = await first.call('revokeToken', {
    params: { tokenId: 'key_kept', appid: 'app_kept' },
    headers: await first.authHeader('integrator'),
  });
  expect(revoked.json()).toMatchObject({ status: true });
  expect((await methods(first)).statusCode).toBe(401);
  await fromTheNetwork();
  if (sqlite()) expect((await methods(second)).statusCode).toBe(401);
  await until(async () => (await methods(second)).statusCode === 401, 'the revocation');
});

test('a read that began before its user changed is not kept', () => {
  const changes = new OwnerChanges();
  changes.attach({ live: () => true, catchUp: () => {}, close: async () => {} });
  const mark = changes.begin();
  expect(mark).not.toBeNull();
  changes.changed('usr_a');
  changes.keep('k', 'usr_a', mark ?? 0, [{ n: 1 }], ['users']);
  expect(changes.kept('k')).toBeUndefined();

  // Another user's change does not void it; voiding everything does.
  const again = changes.begin() ?? 0;
  changes.keep('k', 'usr_a', again, [{ n: 2 }], ['users']);
  changes.changed('usr_b');
  expect(changes.kept('k')).toEqual([{ n: 2 }]);
  changes.changed('*');
  expect(changes.kept('k')).toBeUndefined();
});

test("a change voids what was read of its table for its owner, and an answer of the owner's", () => {
  const changes = new OwnerChanges();
  changes.attach({ live: () => true, catchUp: () => {}, close: async () => {} });
  const keepAll = () => {
    const mark = changes.begin() ?? 0;
    changes.keep('plan', 'usr_a', mark, [{ n: 1 }], ['receive_transactions', 'subscriptions']);
    changes.keep('name', 'usr_a', mark, [{ n: 2 }], ['users']);
    changes.keepAnswer('dashboard', 'usr_a', mark, { n: 3 }, Infinity);
  };
  keepAll();
  // A row of another table of theirs (an API log row): the reads of other tables hold.
  changes.changed('usr_a', 'api_logs');
  expect(changes.kept('plan')).toEqual([{ n: 1 }]);
  expect(changes.kept('name')).toEqual([{ n: 2 }]);
  // An answer may be made of any of their tables.
  expect(changes.keptAnswer('dashboard', 0)).toBeUndefined();

  keepAll();
  changes.changed('usr_a', 'users');
  expect(changes.kept('name')).toBeUndefined();
  expect(changes.kept('plan')).toEqual([{ n: 1 }]);
  changes.changed('usr_b', 'subscriptions');
  expect(changes.kept('plan')).toEqual([{ n: 1 }]);

  // A change that names no table (a trigger from before tables were named) voids all of theirs.
  keepAll();
  changes.changed('usr_a');
  expect(changes.kept('plan')).toBeUndefined();
  expect(changes.kept('name')).toBeUndefined();
});

test('an answer that names the tables it read holds through changes of the others', () => {
  const changes = new OwnerChanges();
  changes.attach({ live: () => true, catchUp: () => {}, close: async () => {} });
  const keepInvoice = () =>
    changes.keepAnswer('invoice', 'app_a', changes.begin() ?? 0, { n: 1 }, Infinity, [
      'invoice_payments',
      'invoices',
    ]);
  keepInvoice();
  // The API log row of the request that read it, here or in another process.
  changes.changed('app_a', 'api_logs');
  changes.tableChanged('api_logs');
  expect(changes.keptAnswer('invoice', 0)).toEqual({ n: 1 });
  // A payment of the app's: here, or in another process (SQLite names the table only).
  changes.changed('app_a', 'invoice_payments');
  expect(changes.keptAnswer('invoice', 0)).toBeUndefined();
  keepInvoice();
  changes.tableChanged('invoices');
  expect(changes.keptAnswer('invoice', 0)).toBeUndefined();
  // A change that names no table may be of any.
  keepInvoice();
  changes.changed('app_a');
  expect(changes.keptAnswer('invoice', 0)).toBeUndefined();
});

test("another process's change of a table voids what was read of it, whoever's, and every answer", () => {
  const changes = new OwnerChanges();
  changes.attach({ live: () => true, catchUp: () => {}, close: async () => {} });
  const mark = changes.begin() ?? 0;
  changes.keep('plan', 'usr_a', mark, [{ n: 1 }], ['subscriptions']);
  changes.keep('name', 'usr_b', mark, [{ n: 2 }], ['users']);
  changes.keepAnswer('dashboard', 'usr_a', mark, { n: 3 }, Infinity);
  changes.tableChanged('users');
  expect(changes.kept('name')).toBeUndefined();
  expect(changes.kept('plan')).toEqual([{ n: 1 }]);
  expect(changes.keptAnswer('dashboard', 0)).toBeUndefined();
  // Read again after the change: kept again.
  changes.keep('name', 'usr_b', changes.begin() ?? 0, [{ n: 4 }], ['users']);
  expect(changes.kept('name')).toEqual([{ n: 4 }]);
});

test("other processes' commits are heard of when something kept is used after requests came", () => {
  let heard = 0;
  const changes = new OwnerChanges();
  changes.attach({ live: () => true, catchUp: () => (heard += 1), close: async () => {} });
  changes.keep('k', 'usr_a', changes.begin() ?? 0, [{ n: 1 }], ['users']);
  expect(heard).toBe(1);

  // A request that uses nothing kept (the countries, a page) costs no check.
  changes.requestsArrived();
  expect(heard).toBe(1);
  // The first use after requests came checks, once.
  expect(changes.kept('k')).toEqual([{ n: 1 }]);
  expect(changes.keptAnswer('a', 0)).toBeUndefined();
  expect(heard).toBe(2);
  changes.requestsArrived();
  expect(changes.keptAnswer('a', 0)).toBeUndefined();
  expect(heard).toBe(3);
});

test('nothing is kept while changes could go unheard', () => {
  let live = false;
  const changes = new OwnerChanges();
  changes.attach({ live: () => live, catchUp: () => {}, close: async () => {} });
  expect(changes.begin()).toBeNull();
  live = true;
  changes.keep('k', 'usr_a', changes.begin() ?? 0, [{ n: 1 }], ['users']);
  expect(changes.kept('k')).toEqual([{ n: 1 }]);
  live = false;
  expect(changes.kept('k')).toBeUndefined();
});

test('PostgreSQL: a process whose listening connection drops keeps nothing until it listens again', async () => {
  if (sqlite()) return; // SQLite hears its own connection's writes and checks data_version.
  const demo = await demoId(first.db);
  await until(() => keptOn(first.db, demo), 'the listener');
  const { n } = await sql<{ n: number }>`
    select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
    where datname = current_database() and application_name = ${LISTENER_NAME}`
    .execute(first.db)
    .then(({ rows }) => rows[0] ?? { n: 0 });
  expect(n).toBeGreaterThan(0);
  // Dropped: every read goes to the database, and a change made meanwhile is seen.
  await until(async () => !(await keptOn(first.db, demo)), 'the drop to be noticed');
  await second.db.updateTable('users').set({ username: 'demo4' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo4');
  await until(() => keptOn(first.db, demo), 'the listener to be back');
  await first.db.updateTable('users').set({ username: 'demo' }).where('id', '=', demo).execute();
});

test('PostgreSQL: a process hears of its own write before the write returns, listening to nothing', async () => {
  if (sqlite()) return; // SQLite hears its own connection's writes inside the statement.
  const demo = await demoId(first.db);
  await until(() => keptOn(first.db, demo), 'the listener');
  // No wait between the write and the read: the writing connection was told of it before its
  // COMMIT returned.
  await first.db.updateTable('users').set({ username: 'demo6' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo6');
  await first.db.updateTable('users').set({ username: 'demo' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo');
  // A pool connection listens to nothing: no process's commits wake it.
  const { rows } = await sql<{ channels: string[] }>`
    select array(select pg_listening_channels()) as channels`.execute(first.db);
  expect(rows).toEqual([{ channels: [] }]);
});

test('PostgreSQL: a process hears of a write on its shared writer’s connection before it returns', async () => {
  if (sqlite()) return; // SQLite has one connection.
  const demo = await demoId(first.db);
  const writer = writerOf(first.db);
  if (!writer) throw new Error('a PostgreSQL process has a writer connection');
  await until(() => keptOn(first.db, demo), 'the listener');
  await writer.updateTable('users').set({ username: 'demo7' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo7');
  await writer.updateTable('users').set({ username: 'demo' }).where('id', '=', demo).execute();
  expect(await nameNow(first.db, demo)).toBe('demo');
});

test('PostgreSQL: what another request of the process read while a write was uncommitted is not kept past its commit', async () => {
  if (sqlite()) return; // SQLite's writer holds the file's lock: no read sees it half done.
  const demo = await demoId(first.db);
  await until(() => keptOn(first.db, demo), 'the listener');
  // The listening connection often hears of the commit before the read below: only repeated
  // does a read kept meanwhile reach it.
  for (let round = 1; round <= 30; round++) {
    const name = `demo_r${round}`;
    await first.db.transaction().execute(async (trx) => {
      // The writing connection is told of the change now, before its commit...
      await trx.updateTable('users').set({ username: name }).where('id', '=', demo).execute();
      // ...and another connection of the process reads the row as it still is, and keeps it.
      expect(await nameNow(first.db, demo)).toBe('demo');
      expect(await keptOn(first.db, demo)).toBe(true);
    });
    // Committed: no wait for the listening connection, what was kept meanwhile is void.
    expect(await nameNow(first.db, demo)).toBe(name);
    await first.db.updateTable('users').set({ username: 'demo' }).where('id', '=', demo).execute();
    await until(() => keptOn(first.db, demo), 'the read to be kept again');
  }
});

test('with KEPT_READS off every read asks the database', async () => {
  const uncached = await createTestApp({ env: { KEPT_READS: 'off' } });
  try {
    expect(changesOf(uncached.db)).toBeUndefined();
    const demo = await demoId(uncached.db);
    const before = await nameOf(uncached.db, { id: demo });
    expect(await nameOf(uncached.db, { id: demo })).not.toBe(before);
    expect(
      (await uncached.call('getApps', { headers: await uncached.authHeader() })).statusCode,
    ).toBe(200);
  } finally {
    await uncached.close();
  }
});

test('a transaction keeps nothing: it may read its own writes before they commit', () => {
  expect(changesOf(first.db)).toBeDefined();
  return first.db.transaction().execute(async (trx) => {
    expect(changesOf(trx)).toBeUndefined();
  });
});

/**
 * The tables of `read` whose inserts name no owner (migration 0690) read without the table whose
 * inserts name the change for them: a read of them alone would miss new rows.
 */
function insertsUnnoted(read: readonly string[]): string[] {
  return Object.entries(INSERTS_NOTED_WITH)
    .filter(([table, notedWith]) => read.includes(table) && !read.includes(notedWith))
    .map(([table]) => table);
}

/**
 * The tables whose changes name their owners: those with owner triggers (migrations 0240, 0250),
 * and the counts and totals that only such tables' triggers write (migration 0260).
 */
async function triggeredTables(db: Db): Promise<Set<string>> {
  const triggers = sqlite()
    ? await sql<{ t: string; body: string }>`
        select tbl_name as t, sql as body from sqlite_master where type = 'trigger'`.execute(db)
    : await sql<{ t: string; body: string }>`
        select c.relname as t, pg_get_functiondef(p.oid) as body
        from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
          join pg_namespace n on n.oid = c.relnamespace join pg_proc p on p.oid = tg.tgfoid
        where not tg.tgisinternal and n.nspname = current_schema()`.execute(db);
  const covered = new Set(
    triggers.rows
      .filter((row) => /_owner_changed|owner_changed\(/.test(row.body))
      .map((row) => row.t),
  );
  for (const derived of DERIVED_TABLES) {
    const writers = triggers.rows
      .filter((row) => row.t !== derived && new RegExp(`\\b${derived}\\b`).test(row.body))
      .map((row) => row.t);
    expect(writers.length).toBeGreaterThan(0);
    // A read of the counts depends on the changes of the tables whose triggers write them.
    expect(tablesDependedOn([derived])).toEqual([...new Set(writers)].sort());
    if (writers.every((table) => covered.has(table))) covered.add(derived);
  }
  return covered;
}

test('every kept query reads only tables whose triggers name the changed rows’ user', async () => {
  // Importing the app registers every kept query of the server.
  expect(buildApp).toBeDefined();
  const { db } = first;
  const covered = await triggeredTables(db);
  const tables = keptQueryTables(db);
  expect(tables.length).toBeGreaterThan(1);
  for (const read of tables) {
    expect(read.filter((table) => !covered.has(table))).toEqual([]);
    expect(insertsUnnoted(read)).toEqual([]);
  }
});

test('every owner trigger names its table with the owner (SQLite: and counts its changes)', async () => {
  const { db } = first;
  const triggers = sqlite()
    ? await sql<{ t: string; body: string }>`
        select tbl_name as t, sql as body from sqlite_master
        where type = 'trigger' and sql like '%owner_changed(%'`.execute(db)
    : await sql<{ t: string; body: string }>`
        select c.relname as t, pg_get_functiondef(p.oid) as body
        from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
          join pg_namespace n on n.oid = c.relnamespace join pg_proc p on p.oid = tg.tgfoid
        where not tg.tgisinternal and n.nspname = current_schema()
          and p.proname like '%\_owner\_changed'`.execute(db);
  expect(triggers.rows.length).toBeGreaterThan(40);
  const unnamed = triggers.rows.filter(({ t, body }) =>
    sqlite()
      ? !body.includes(`owner_changed(o, '${t}')`) ||
        !body.includes(`VALUES ('${t}', 1)`) ||
        body.includes('owner_changed(o)')
      : !body.includes("owner_note(channel, o || ' ' || TG_TABLE_NAME)") ||
        !body.includes(OWNER_CHANNELS),
  );
  expect(unnamed.map(({ t }) => t)).toEqual([]);
});

test("another process's write voids only what was read of the tables it wrote", async () => {
  const userId = await addUser(first, 'tables');
  await insertApp(first, {
    id: 'app_tables',
    user_id: userId,
    created_at: first.clock().toISOString(),
  });
  const reads = async () => [
    await nameOf(first.db, { id: userId }),
    await appLogsOf(first.db, { id: 'app_tables' }),
  ];
  const kept = async () => {
    const before = await reads();
    return (await reads()).every((rows, i) => rows === before[i]);
  };
  await until(kept, 'the reads to be kept');
  const [name, logs] = await reads();

  await second.db
    .insertInto('api_logs')
    .values({
      id: 'log_tables',
      app_id: 'app_tables',
      method: 'GET',
      route: '/gateway/v1/deposits',
      ip: '127.0.0.1',
      status: 200,
      created_at: first.clock().toISOString(),
    })
    .execute();
  await fromTheNetwork();
  changesOf(first.db)?.requestsArrived();
  if (sqlite()) expect(await appLogsOf(first.db, { id: 'app_tables' })).toEqual([{ n: 1 }]);
  await until(
    async () => (await appLogsOf(first.db, { id: 'app_tables' }))[0]?.n === 1,
    'the log row to be heard of',
  );
  expect(logs).toEqual([{ n: 0 }]);
  // The user's name, of another table, is still the very rows kept before.
  expect(await nameOf(first.db, { id: userId })).toBe(name);
});

let invoicesInserted = 0;

/** An invoice of `appId` with one payment option and one payment, its rows written directly. */
async function insertInvoice(db: Db, appId: string): Promise<string> {
  const n = invoicesInserted++;
  const id = `inv_traced_${n}`;
  const at = '2026-01-02T03:04:05.000Z';
  await db
    .insertInto('invoices')
    .values({
      id,
      app_id: appId,
      order_id: null,
      amount: '10',
      currency: 'USD',
      status: 'new',
      invalid_reason: null,
      mark_reason: null,
      description: null,
      buyer_email: null,
      metadata: null,
      redirect_url: null,
      checkout_url: `https://pay.example.com/pay/${id}`,
      underpayment_tolerance: '0',
      late_window_minutes: 60,
      derivation_index: 1_000_000 + n,
      created_at: at,
      expires_at: at,
      updated_at: at,
      settled_at: null,
    })
    .execute();
  const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  await db
    .insertInto('invoice_payment_options')
    .values({
      invoice_id: id,
      payment_method_id: 'pm_usdt_bsc',
      position: 0,
      chain_id: 56,
      address,
      token_contract: null,
      amount_due_raw: '10000000000000000000',
      rate: '1',
      rate_source: 'peg:USDT/USD',
      rate_at: at,
    })
    .execute();
  await db
    .insertInto('invoice_payments')
    .values({
      id: `ipay_traced_${n}`,
      invoice_id: id,
      app_id: appId,
      payment_method_id: 'pm_usdt_bsc',
      chain_id: 56,
      tx_hash: `0x${'cd'.repeat(32)}`,
      log_index: n,
      block_number: 1,
      amount_raw: '1000000000000000000',
      value: '1',
      confirmations: 0,
      status: 'pending',
      late: 0,
      created_at: at,
      seen_at: at,
    })
    .execute();
  return id;
}

/** The first app's database keeping nothing, so that every read reaches it: each query to `seen`. */
function tracedDb(seen: (query: string) => void): Db {
  return openDb(
    { dataDir: first.dataDir, databaseUrl: first.storeEnv.DATABASE_URL },
    {
      keptReads: false,
      log: (event) => {
        if (event.level === 'query') seen(event.query.sql);
      },
    },
  );
}

/** The names of the database's tables. */
async function allTables(db: Db): Promise<string[]> {
  const all = sqlite()
    ? await sql<{ t: string }>`select name as t from sqlite_master where type = 'table'`.execute(db)
    : await sql<{ t: string }>`
        select table_name as t from information_schema.tables
        where table_schema = current_schema()`.execute(db);
  return all.rows.map((row) => row.t);
}

test('every kept answer reads only tables whose triggers name the changed rows’ user', async () => {
  // The operations whose whole answer is kept (http/keptAnswers.ts), answered with nothing kept
  // so that every read reaches the database, where it is traced.
  const reads: string[] = [];
  const read = new Set<string>();
  const traced = tracedDb((query) => {
    if (/^\s*(select|with)\b/i.test(query)) reads.push(query);
  });
  const key = await insertApiKey(first, {
    id: 'key_traced',
    app_id: 'app_demo_store',
    abilities: ['deposits:read', 'invoices:read'],
  });
  const invoiceId = await insertInvoice(first.db, 'app_demo_store');
  const app = await buildApp({ config: first.config, db: traced, clock: first.clock });
  try {
    const portal = await first.authHeader();
    const answers = [
      { url: '/api/dashboard', headers: portal, answer: 'last_login_at' },
      { url: '/api/cryptosafelock/get-apps', headers: portal, answer: 'app_name' },
      {
        url: '/api/cryptosafelock/app-details/app_demo_store',
        headers: portal,
        answer: 'all_payment_methods',
      },
      { url: '/gateway/v1/deposits', headers: { 'x-api-key': key }, answer: 'next_cursor' },
      {
        url: `/gateway/v1/invoices/${invoiceId}`,
        headers: { 'x-api-key': key },
        answer: 'payment_options',
      },
    ];
    const all = await allTables(first.db);
    for (const { url, headers, answer } of answers) {
      reads.length = 0;
      // An address of the demo app's IP whitelist.
      const res = await app.inject({ url, headers, remoteAddress: '203.0.113.10' });
      expect(res.body).toContain(answer);
      const tables = all.filter((t) => reads.some((q) => q.includes(`"${t}"`)));
      expect({ url, unnoted: insertsUnnoted(tables) }).toEqual({ url, unnoted: [] });
      for (const table of tables) read.add(table);
    }
  } finally {
    await app.close();
    await traced.destroy();
  }
  expect([...read]).toEqual(
    expect.arrayContaining([
      'ledger_entries',
      'app_daily_usage',
      'invoices',
      'invoice_payment_options',
      'invoice_payments',
    ]),
  );
  const covered = await triggeredTables(first.db);
  expect([...read].filter((table) => !covered.has(table))).toEqual([]);
});

test('the gateway answers kept by their tables name every table their builds read', async () => {
  let reads: string[] = [];
  const traced = tracedDb((query) => reads.push(query));
  const invoiceId = await insertInvoice(first.db, 'app_demo_store');
  const all = await allTables(first.db);
  const readSince = () => {
    const tables = all.filter((t) => reads.some((q) => q.includes(`"${t}"`)));
    reads = [];
    return tablesDependedOn(tables);
  };
  try {
    readSince();
    await getInvoice(traced, 'app_demo_store', invoiceId);
    const invoice = readSince();
    expect(invoice).toEqual(expect.arrayContaining(['invoice_payments', 'invoices']));
    expect(invoiceTables(traced)).toEqual(expect.arrayContaining(invoice));
    // Not the API log every request writes.
    expect(invoiceTables(traced)).not.toContain('api_logs');
    expect(insertsUnnoted(invoiceTables(traced))).toEqual([]);

    await listDeposits(traced, 'app_demo_store', {}, { cursor: undefined, limit: 20 });
    const deposits = readSince();
    expect(deposits).toContain('receive_transactions');
    expect(polledPageTables(traced)).toEqual(expect.arrayContaining(deposits));
    expect(polledPageTables(traced)).not.toContain('api_logs');
    expect(insertsUnnoted(polledPageTables(traced))).toEqual([]);

    // The plan check's verdict, kept per app: a live app whose merchant has a package.
    await refuseOverPlan(traced, 'app_demo_store', first.clock(), 'account');
    const plan = readSince();
    // The daily totals stand for the rows they count (tablesDependedOn).
    expect(plan).toEqual(expect.arrayContaining(['apps', 'receive_transactions', 'subscriptions']));
    expect(planTables(traced)).toEqual(expect.arrayContaining(plan));
    expect(planTables(traced)).not.toContain('api_logs');
    expect(planTables(traced)).not.toContain('app_accounts');
    expect(insertsUnnoted(planTables(traced))).toEqual([]);
  } finally {
    await traced.destroy();
  }
});
