import { HDKey } from '@scure/bip32';
import { sql } from 'kysely';
import { ConfigError, loadConfig, type Env } from '../config';
import type { Db } from '../db/connection';
import { PAYMENT_METHODS } from '../domain/chain/paymentMethods';
import { openRuntime, type Runtime } from '../runtime';
import { withTestApp } from '../../test/withTestApp';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { COUNTRIES } from './countries.data';
import { DOCUMENT_TYPES } from './documentTypes.data';
import { PACKAGES } from './packages.data';
import { DEMO_ACCOUNT } from '.';
import { DEMO_TEST_KEY } from './demoTestMode';
import { checkPassword, findUserByLogin } from '../domain/account/auth';
import { verifySecret } from '../domain/account/passwords';
import { createSession } from '../domain/account/sessions';

// What a start leaves in a fresh database: the reference data everywhere, the demo merchant
// only in development (and tests), once however many servers start together.

const SECRET_KEY = 'seed-test-secret-0123456789abcdef0123456789';
const WALLET_XPUB = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive(
  "m/44'/60'/0'",
).publicExtendedKey;

let store: TestStore;
beforeEach(async () => {
  store = await freshTestStore('portal-seed-');
});
afterEach(() => store.close());

const start = (env: Env): Promise<Runtime> =>
  openRuntime(loadConfig({ ...store.env, SECRET_KEY, ...env }));

async function rows(db: Db, table: string, where = sql`true`): Promise<number> {
  const { rows: found } = await sql<{ n: number | string }>`
    select count(*) as n from ${sql.table(table)} where ${where}`.execute(db);
  return Number(found[0]?.n ?? 0);
}

const referenceRows = async (db: Db) => ({
  countries: await rows(db, 'countries'),
  packages: await rows(db, 'packages'),
  document_types: await rows(db, 'document_types'),
  payment_methods: await rows(db, 'payment_methods'),
});

const REFERENCE = {
  countries: COUNTRIES.length,
  packages: PACKAGES.length,
  document_types: DOCUMENT_TYPES.length,
  payment_methods: PAYMENT_METHODS.length,
};

/** The demo merchant's rows: each is there once or not at all. */
async function demoRows(db: Db) {
  return {
    users: await rows(db, 'users', sql`lower(username) = ${DEMO_ACCOUNT.username}`),
    apps: await rows(db, 'apps', sql`id = 'app_demo_store'`),
    subscriptions: await rows(db, 'subscriptions'),
    wallet_deposits: await rows(db, 'deposits', sql`id like 'dep_demo_wallet_%'`),
    kyc_uploads: await rows(db, 'kyc_uploads', sql`id = 'upl_demo_pan'`),
    api_keys: await rows(db, 'api_keys', sql`id = 'key_demo_checkout'`),
    invoices: await rows(db, 'invoices', sql`app_id = 'app_demo_store'`),
    test_apps: await rows(db, 'apps', sql`live_app_id = 'app_demo_store'`),
    test_keys: await rows(db, 'api_keys', sql`id = 'key_demo_test'`),
  };
}

const DEMO_ONCE = {
  users: 1,
  apps: 1,
  subscriptions: 1,
  wallet_deposits: 3,
  kyc_uploads: 1,
  api_keys: 1,
  invoices: 10,
  test_apps: 1,
  test_keys: 1,
};

describe('the seed', () => {
  it('puts the reference data and no demo account into a production database', async () => {
    // In production the signer makes the request key; the web process only reads it.
    const runtime = await start({
      NODE_ENV: 'production',
      WALLET_XPUB,
      SIGNER_REQUEST_KEY: '5e'.repeat(32),
    });
    try {
      expect(await referenceRows(runtime.db)).toEqual(REFERENCE);
      expect(await demoRows(runtime.db)).toEqual({
        users: 0,
        apps: 0,
        subscriptions: 0,
        wallet_deposits: 0,
        kyc_uploads: 0,
        api_keys: 0,
        invoices: 0,
        test_apps: 0,
        test_keys: 0,
      });
      expect(await rows(runtime.db, 'users')).toBe(0);
      expect(await rows(runtime.db, 'ledger_entries')).toBe(0);
    } finally {
      await runtime.close();
    }
  });

  it('retires the published demo password and pin of a database an earlier version seeded, keeping its data', async () => {
    const dev = await start({ NODE_ENV: 'development' });
    const demo = await findUserByLogin(dev.db, DEMO_ACCOUNT.username);
    await createSession(dev.db, demo?.id ?? '');
    expect(await checkPassword(demo, DEMO_ACCOUNT.password)).toBe(true);
    await dev.close();

    const production = await start({ NODE_ENV: 'production', WALLET_XPUB });
    try {
      const retired = await findUserByLogin(production.db, DEMO_ACCOUNT.username);
      expect(await checkPassword(retired, DEMO_ACCOUNT.password)).toBe(false);
      expect(await verifySecret(retired?.pin_hash ?? '', DEMO_ACCOUNT.pin)).toBe(false);
      expect(await rows(production.db, 'sessions', sql`revoked_at is null`)).toBe(0);
      expect(
        await rows(production.db, 'api_keys', sql`id = 'key_demo_test' and revoked_at is null`),
      ).toBe(0);
      expect(await demoRows(production.db)).toEqual(DEMO_ONCE);
    } finally {
      await production.close();
    }
  });

  it('refuses SEED_DEMO=1 with NODE_ENV=production', () => {
    const env = { ...store.env, SECRET_KEY, NODE_ENV: 'production', WALLET_XPUB, SEED_DEMO: '1' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      'SEED_DEMO seeds the demo account (demo / Demo@12345, a made-up ledger, a plan and the' +
        ' Demo Store): it is for development and tests, not NODE_ENV=production',
    );
  });

  it('adds the demo merchant in development, and nothing twice on a second start', async () => {
    const first = await start({ NODE_ENV: 'development' });
    await first.close();
    const again = await start({ NODE_ENV: 'development' });
    try {
      expect(await referenceRows(again.db)).toEqual(REFERENCE);
      expect(await demoRows(again.db)).toEqual(DEMO_ONCE);
    } finally {
      await again.close();
    }
  });

  it('gives the demo store invoices in every status, as the watcher and the expiry job left them, and a refund', async () => {
    const runtime = await start({ NODE_ENV: 'development' });
    try {
      const invoices = await runtime.db
        .selectFrom('invoices')
        .select(['id', 'order_id', 'status', 'paid_partial', 'paid_over', 'paid_late', 'marked'])
        .where('app_id', '=', 'app_demo_store')
        .orderBy('created_at')
        .execute();
      const flags = (i: (typeof invoices)[number]) =>
        (['paid_partial', 'paid_over', 'paid_late', 'marked'] as const).filter((f) => i[f] === 1);
      expect(invoices.map((i) => [i.order_id, i.status, ...flags(i)])).toEqual([
        ['ORD-5001', 'settled'],
        ['ORD-5002', 'settled'],
        ['ORD-5003', 'settled', 'paid_over'],
        ['ORD-5004', 'settled', 'paid_late'],
        ['ORD-5005', 'expired', 'paid_partial'],
        ['ORD-5006', 'expired'],
        ['ORD-5007', 'settled', 'paid_partial', 'marked'],
        ['ORD-5008', 'invalid'],
        ['ORD-5009', 'new', 'paid_partial'],
        ['ORD-5010', 'new'],
      ]);
      // Each settled invoice was credited once, as a deposit at its own address (the marked one
      // with what was paid on chain).
      const credited = await runtime.db
        .selectFrom('receive_transactions')
        .select('unique_id')
        .where('app_id', '=', 'app_demo_store')
        .where('unique_id', 'like', 'inv_%')
        .execute();
      const byOrder = new Map(invoices.map((i) => [i.id, i.order_id]));
      expect(credited.map((c) => byOrder.get(c.unique_id)).sort()).toEqual([
        'ORD-5001',
        'ORD-5002',
        'ORD-5003',
        'ORD-5004',
        'ORD-5007',
      ]);
      // Their story is in the app's event outbox, as the Invoices tab's timeline reads it.
      const settledEvents = await rows(
        runtime.db,
        'webhook_events',
        sql`app_id = 'app_demo_store' and type = 'invoice.settled'`,
      );
      expect(settledEvents).toBe(5);
      // The overpaid one's excess is being given back: its claim link waits for the shopper.
      const refunds = await runtime.db
        .selectFrom('refunds')
        .select(['invoice_id', 'status', 'amount_kind', 'amount_raw'])
        .where('app_id', '=', 'app_demo_store')
        .execute();
      const overpaid = invoices.find((i) => i.order_id === 'ORD-5003')?.id;
      expect(refunds).toEqual([
        {
          invoice_id: overpaid,
          status: 'pending_claim',
          amount_kind: 'overpaid',
          amount_raw: (5n * 10n ** 17n).toString(),
        },
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('leaves the demo out in development with SEED_DEMO=0', async () => {
    const runtime = await start({ NODE_ENV: 'development', SEED_DEMO: '0' });
    try {
      expect(await referenceRows(runtime.db)).toEqual(REFERENCE);
      expect(await rows(runtime.db, 'users')).toBe(0);
    } finally {
      await runtime.close();
    }
  });

  it('seeds a fresh database once when two servers start on it at the same time', async () => {
    const started = await Promise.allSettled([
      start({ NODE_ENV: 'development' }),
      start({ NODE_ENV: 'development' }),
    ]);
    const opened = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      expect(started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason)))).toEqual(
        ['started', 'started'],
      );
      const [one] = opened;
      if (!one) throw new Error('no server started');
      expect(await referenceRows(one.db)).toEqual(REFERENCE);
      expect(await demoRows(one.db)).toEqual(DEMO_ONCE);
      expect(await rows(one.db, 'app_accounts', sql`app_id = 'app_demo_store'`)).toBe(5);
    } finally {
      for (const runtime of opened) await runtime.close();
    }
  }, 60_000); // two whole seeds, one after the other
});

describe('the demo store on this machine (the quick start of docs/gateway.md)', () => {
  it('answers a key made for it from 127.0.0.1 and ::1, its whitelist held by nothing', async () => {
    await withTestApp({}, async (t) => {
      const headers = await t.authHeader();
      const generated = await t.call('generateApiKey', {
        headers,
        body: {
          token_name: 'Quick start',
          app_id: 'app_demo_store',
          abilities: ['accounts:write', 'deposits:read'],
        },
      });
      expect(generated.statusCode).toBe(200);
      const key = generated.json().token as string;
      const gateway = (method: 'GET' | 'POST', url: string, remoteAddress: string, body?: object) =>
        t.inject({
          method,
          url: `/gateway/v1${url}`,
          headers: { authorization: `Bearer ${key}` },
          remoteAddress,
          ...(body ? { payload: body } : {}),
        });

      const opened = await gateway('POST', '/accounts', '127.0.0.1', {
        unique_id: 'order-1',
        method: 'USDT-BEP20',
      });
      expect([opened.statusCode, opened.json()]).toEqual([
        201,
        expect.objectContaining({ unique_id: 'order-1', method: 'USDT-BEP20', chain_id: 56 }),
      ]);
      const again = await gateway('POST', '/accounts', '::1', {
        unique_id: 'order-1',
        method: 'USDT-BEP20',
      });
      expect([again.statusCode, again.json().address]).toEqual([200, opened.json().address]);
      const deposits = await gateway('GET', '/deposits?unique_id=order-1', '127.0.0.1');
      expect([deposits.statusCode, deposits.json()]).toEqual([
        200,
        { data: [], next_cursor: null },
      ]);
      // Elsewhere the whitelist still applies.
      const outside = await gateway('GET', '/deposits', '192.0.2.44');
      expect([outside.statusCode, outside.json().error.code]).toEqual([403, 'ip_not_allowed']);

      const listed = (await t.call('getApps', { headers })).json().data;
      expect(listed).toEqual([
        expect.objectContaining({
          id: 'app_demo_store',
          whitelist_ip: '203.0.113.10\n198.51.100.0/24\n127.0.0.1\n::1',
        }),
      ]);
      // A whitelist seeded with the app is its first one: no hold on the app's withdrawals.
      expect(listed[0]).not.toHaveProperty('whitelist_hold_until');
    });
  }, 60_000); // the file's first seeded app seeds its template: slow on a busy machine
});

describe('the demo store’s test mode (docs/gateway.md, Test mode)', () => {
  it('answers the published test key with test objects: a settled test invoice, an open one, and pays a new one', async () => {
    await withTestApp({}, async (t) => {
      const gateway = (method: 'GET' | 'POST', url: string, body?: object) =>
        t.inject({
          method,
          url: `/gateway/v1${url}`,
          headers: { authorization: `Bearer ${DEMO_TEST_KEY}` },
          ...(body ? { payload: body } : {}),
        });
      const listed = await gateway('GET', '/invoices');
      expect(listed.statusCode).toBe(200);
      expect(
        listed
          .json()
          .data.map((i: { order_id: string; status: string; livemode: boolean }) => [
            i.order_id,
            i.status,
            i.livemode,
          ]),
      ).toEqual([
        ['TEST-1002', 'new', false],
        ['TEST-1001', 'settled', false],
      ]);
      // The quick start, as written.
      const made = await gateway('POST', '/invoices', {
        amount: '10',
        currency: 'USD',
        methods: ['USDT-BEP20'],
      });
      expect(made.statusCode).toBe(201);
      const paid = await gateway('POST', '/test/payments', {
        invoice_id: made.json().id,
        scenario: 'full',
      });
      expect(paid.json()).toMatchObject({ chain_id: 97, amount: '10', livemode: false });
      const confirmed = await gateway('POST', '/test/confirm', { payment: paid.json().tx_hash });
      expect(confirmed.statusCode).toBe(200);
      // The live store sees none of it.
      const live = await t.db
        .selectFrom('invoices')
        .select('order_id')
        .where('app_id', '=', 'app_demo_store')
        .where('order_id', 'like', 'TEST-%')
        .execute();
      expect(live).toEqual([]);
    });
  }, 60_000);
});
