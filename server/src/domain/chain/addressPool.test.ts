import { insertMerchantApp } from '../../../test/appRows';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf, openDb, type Db } from '../../db/connection';
import {
  fillAddressPool,
  handOutAddress,
  POOLED_BRANCHES,
  poolParent,
  pooledCounts,
  TAKEN_AHEAD,
} from './addressPool';
import { tronAddressFromEvm } from './addresses';
import { BRANCH_PATHS, nextIndexOf, takeIndexes } from './derivationCounters';
import { deriveEvmAddress } from './hdWallet';
import { resolveWalletXpub } from './walletKey';

// Deposit and invoice addresses derived ahead of need: a creation takes the pool's address at the
// index it hands out, or derives it when the pool lacks it, and either way the address is the
// one its index derives to. Two processes creating at once while the pool fills, and a restart,
// never hand out an index or an address twice.

const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
let xpub = '';
let key = '';

beforeAll(async () => {
  xpub = resolveWalletXpub(t.config);
  ({ key } = await insertMerchantApp(t, 'pool', ['accounts:write', 'invoices:write']));
});

let serial = 0;

/** A new deposit account or invoice through the gateway, as a merchant's server makes one. */
async function create(app: TestApp, kind: 'accounts' | 'invoices'): Promise<string> {
  serial += 1;
  const res = await app.inject({
    method: 'POST',
    url: `/gateway/v1/${kind}`,
    headers: { authorization: `Bearer ${key}` },
    payload:
      kind === 'accounts'
        ? { unique_id: `customer-${serial}`, method: 'USDT-BEP20' }
        : { amount: '10.00', currency: 'USD', methods: ['USDT-BEP20'], order_id: `o-${serial}` },
  });
  expect(res.statusCode).toBe(201);
  return kind === 'accounts'
    ? (res.json() as { address: string }).address
    : (res.json() as { payment_options: { address: string }[] }).payment_options[0]!.address;
}

/**
 * Every account's and invoice's index, each address checked against what its index derives to
 * (a Tron method's the same key's Tron form): indexes never twice means addresses never twice.
 */
async function handedOut(db: Db) {
  const derives = (address: string, index: number, path: number) => {
    const evm = deriveEvmAddress(xpub, index, [path]);
    expect([evm, tronAddressFromEvm(evm)]).toContain(address);
  };
  const accounts = await db
    .selectFrom('app_accounts')
    .select(['derivation_index', 'address'])
    .where('derivation_index', 'is not', null)
    .execute();
  for (const row of accounts) derives(row.address, Number(row.derivation_index), 2);
  const options = await db
    .selectFrom('invoice_payment_options as o')
    .innerJoin('invoices as i', 'i.id', 'o.invoice_id')
    .select(['i.derivation_index', 'o.address'])
    .execute();
  for (const row of options) derives(row.address, row.derivation_index, 3);
  const invoices = await db.selectFrom('invoices').select('derivation_index').execute();
  return {
    accounts: accounts.map((r) => Number(r.derivation_index)),
    invoices: invoices.map((r) => r.derivation_index),
    addresses: accounts.map((r) => r.address),
  };
}

const poolRows = (db: Db, branch: 'accounts' | 'invoices') =>
  db
    .selectFrom('address_pool')
    .select(['derivation_index', 'address'])
    .where('parent', '=', poolParent(xpub, BRANCH_PATHS[branch]))
    .orderBy('derivation_index')
    .execute();

it('derives each branch ahead, and a creation takes the address at its index', async () => {
  await fillAddressPool(t.db, xpub, POOLED_BRANCHES, 5);
  for (const branch of ['accounts', 'invoices'] as const) {
    const rows = await poolRows(t.db, branch);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.address).toBe(
        deriveEvmAddress(xpub, row.derivation_index, [BRANCH_PATHS[branch]]),
      );
    }
  }
  await expect(pooledCounts(t.db, xpub, POOLED_BRANCHES)).resolves.toEqual({
    accounts: 5,
    invoices: 5,
  });
  const [firstAccount] = await poolRows(t.db, 'accounts');
  const [firstInvoice] = await poolRows(t.db, 'invoices');
  expect(await create(t, 'accounts')).toBe(firstAccount!.address);
  expect(await create(t, 'invoices')).toBe(firstInvoice!.address);
  // Taken: four are ready; a fill drops the taken one's row and tops the pool up to five again.
  await expect(pooledCounts(t.db, xpub, POOLED_BRANCHES)).resolves.toEqual({
    accounts: 4,
    invoices: 4,
  });
  await fillAddressPool(t.db, xpub, POOLED_BRANCHES, 5);
  expect((await poolRows(t.db, 'accounts')).map((r) => r.derivation_index)).not.toContain(
    firstAccount!.derivation_index,
  );
  expect(await poolRows(t.db, 'accounts')).toHaveLength(5);
  expect((await poolRows(t.db, 'invoices'))[0]!.derivation_index).toBe(
    firstInvoice!.derivation_index + 1,
  );
});

it('derives on the spot when the pool is empty: a cache, never a limit', async () => {
  await t.db.deleteFrom('address_pool').execute();
  const address = await create(t, 'accounts');
  const { addresses } = await handedOut(t.db);
  expect(addresses).toContain(address);
  expect(await create(t, 'invoices')).toMatch(/^0x[0-9a-fA-F]{40}$/);
});

it('drops what no creation can take: indexes already handed out, another xpub', async () => {
  await fillAddressPool(t.db, xpub, POOLED_BRANCHES, 3);
  // Old wallets' parents that sort before, between and after this wallet's two.
  const [low, high] = POOLED_BRANCHES.map(({ path }) => poolParent(xpub, path)).sort();
  const oldParents = ['0', `${low}-old`, `${high}-old`];
  expect(oldParents[1]! < high!).toBe(true);
  await t.db
    .insertInto('address_pool')
    .values(oldParents.map((parent) => ({ parent, derivation_index: 1_000, address: '0xold' })))
    .execute();
  // A branch's counter past the pool's rows (other processes handed those indexes out).
  await t.db
    .insertInto('derivation_counters')
    .values({ branch: 'accounts', next_index: 500 })
    .onConflict((oc) => oc.column('branch').doUpdateSet({ next_index: 500 }))
    .execute();
  await fillAddressPool(t.db, xpub, POOLED_BRANCHES, 3);
  expect((await poolRows(t.db, 'accounts')).map((r) => r.derivation_index)).toEqual([
    500, 501, 502,
  ]);
  const old = await t.db
    .selectFrom('address_pool')
    .select('parent')
    .where('parent', 'in', oldParents)
    .execute();
  expect(old).toEqual([]);
  expect(await poolRows(t.db, 'invoices')).toHaveLength(3);
  // A process with no index taken ahead (this one may have some from the tests before) hands out
  // the counter's.
  const fresh = openDb({ dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL });
  try {
    await expect(handOutAddress(fresh, xpub, 'accounts')).resolves.toEqual({
      index: 500,
      evm: deriveEvmAddress(xpub, 500, [2]),
    });
  } finally {
    await fresh.destroy();
  }
});

it('two processes creating while the pool fills, then a restart: no index or address twice', async () => {
  const before = await handedOut(t.db);
  const second = await createTestApp({
    beside: t,
    env: { GATEWAY_RATE_LIMIT_MAX: '100000' },
  });
  const filler = openDb({ dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL });
  try {
    const work: Promise<unknown>[] = [
      fillAddressPool(filler, xpub, POOLED_BRANCHES, 40),
      fillAddressPool(t.db, xpub, POOLED_BRANCHES, 40),
    ];
    for (let i = 0; i < 30; i += 1) {
      for (const app of [t, second]) {
        work.push(create(app, 'accounts'), create(app, 'invoices'));
      }
    }
    await Promise.all(work);
  } finally {
    await filler.destroy();
    await second.close();
  }
  // A restart: a new process on the same store, its pool left from before.
  const restarted = await createTestApp({ beside: t, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  try {
    await fillAddressPool(restarted.db, xpub, POOLED_BRANCHES, 10);
    for (let i = 0; i < 10; i += 1) {
      await create(restarted, 'accounts');
      await create(restarted, 'invoices');
    }
  } finally {
    await restarted.close();
  }
  const { accounts, invoices } = await handedOut(t.db);
  for (const indexes of [accounts, invoices]) expect(new Set(indexes).size).toBe(indexes.length);
  expect(accounts.length - before.accounts.length).toBe(70);
  expect(invoices.length - before.invoices.length).toBe(70);
});

it('one customer asked for by two processes at once: one account, and both answers name it', async () => {
  const second = await createTestApp({ beside: t, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  try {
    const ask = (app: TestApp, customer: string) =>
      app.inject({
        method: 'POST',
        url: '/gateway/v1/accounts',
        headers: { authorization: `Bearer ${key}` },
        payload: { unique_id: customer, method: 'USDT-BEP20' },
      });
    for (let i = 0; i < 10; i += 1) {
      const customer = `both-at-once-${i}`;
      const answers = await Promise.all([ask(t, customer), ask(second, customer)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 201]);
      const [one, other] = answers.map((a) => (a.json() as { address: string }).address);
      expect(other).toBe(one);
      const rows = await t.db
        .selectFrom('app_accounts')
        .select('address')
        .where('unique_id', '=', customer)
        .execute();
      expect(rows).toEqual([{ address: one }]);
    }
  } finally {
    await second.close();
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Hands out accounts' indexes as a burst of creations would, `perSecond` of them for `ms`: every
 * 10 ms, in one raise of the counter, those due by then. The rate is the clock's, whatever a
 * round trip to the database takes.
 */
async function burst(ms: number, perSecond: number): Promise<void> {
  const start = Date.now();
  let taken = 0;
  for (let now = start; now < start + ms; now = Date.now()) {
    const due = Math.floor(((now - start) * perSecond) / 1000) - taken;
    if (due > 0) {
      await takeIndexes(t.db, 'accounts', due);
      taken += due;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const accountsOnly = POOLED_BRANCHES.filter((b) => b.branch === 'accounts');
const pooled = async () => (await poolRows(t.db, 'accounts')).length;

it('a fill waits out a burst of creations while a quarter of the pool is ready', async () => {
  await t.db.deleteFrom('address_pool').execute();
  await fillAddressPool(t.db, xpub, accountsOnly, 300);
  const filling = fillAddressPool(t.db, xpub, accountsOnly, 600);
  try {
    const on = burst(900, 150);
    // By 300 ms the fill has judged the burst (over its first 40 ms) and stopped deriving; the
    // second look is well before the burst ends.
    await sleep(300);
    const midway = await pooled();
    await sleep(300);
    const later = await pooled();
    await on;
    expect(midway).toBeLessThan(600);
    expect(later).toBe(midway);
  } finally {
    await filling;
  }
  expect(await pooled()).toBe(600);
});

it('a fill keeps a quarter of the pool ready through a burst', async () => {
  await t.db.deleteFrom('address_pool').execute();
  const filling = fillAddressPool(t.db, xpub, accountsOnly, 100);
  try {
    await burst(800, 60);
    const ready = await t.db
      .selectFrom('address_pool')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('parent', '=', poolParent(xpub, BRANCH_PATHS.accounts))
      .where('derivation_index', '>=', await nextIndexOf(t.db, 'accounts'))
      .executeTakeFirstOrThrow();
    // A quarter, less what the burst took since the fill last looked.
    expect(Number(ready.n)).toBeGreaterThanOrEqual(20);
    expect(Number(ready.n)).toBeLessThan(100);
  } finally {
    await filling;
  }
  expect(await pooled()).toBe(100);
});

it('creations waiting at once share one raise of the counter and one read of the pool; a burst takes a few ahead', async () => {
  await fillAddressPool(t.db, xpub, accountsOnly, 30);
  const statements: string[] = [];
  const db = openDb(
    { dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL },
    { log: (event) => void statements.push(event.query.sql) },
  );
  try {
    const first = await nextIndexOf(db, 'accounts');
    statements.length = 0;
    const handed = await Promise.all(
      Array.from({ length: 20 }, () => handOutAddress(db, xpub, 'accounts')),
    );
    // The first asked alone and took one index; the 19 that asked while it was on were served by
    // the next turn, a burst's, which took TAKEN_AHEAD more for the creations to come.
    const raises = () =>
      statements.filter((q) => q.includes('insert into "derivation_counters"')).length;
    const reads = () => statements.filter((q) => q.includes('address_pool')).length;
    expect([raises(), reads()]).toEqual([2, 2]);
    // On PostgreSQL a turn's raise and read are one statement: one round trip, not two.
    expect(statements).toHaveLength(engineOf(db) === 'postgres' ? 2 : 4);
    expect(handed.map((h) => h.index)).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
    for (const { index, evm } of handed) expect(evm).toBe(deriveEvmAddress(xpub, index, [2]));
    await expect(nextIndexOf(db, 'accounts')).resolves.toBe(first + 20 + TAKEN_AHEAD);

    // The next creations are served from those, with no statement, in order; then a raise again.
    const after = [];
    for (let i = 0; i <= TAKEN_AHEAD; i += 1)
      after.push(await handOutAddress(db, xpub, 'accounts'));
    expect(after.map((h) => h.index)).toEqual(
      Array.from({ length: TAKEN_AHEAD + 1 }, (_, i) => first + 20 + i),
    );
    for (const { index, evm } of after) expect(evm).toBe(deriveEvmAddress(xpub, index, [2]));
    expect([raises(), reads()]).toEqual([3, 3]);
  } finally {
    await db.destroy();
  }
});
