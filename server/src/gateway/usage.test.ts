import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertReceive, insertSubscription } from '../../test/appRows';
import { testAppPerBlock, withTestApp } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import { mineLocalBlocks, recordLocalTransfer } from '../domain/chain/localAdapter';
import { watchDeposits } from '../domain/payments/deposits';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// What the gateway's use leaves in the portal: API Logs rows (no key, no body), the plan's
// limits on new deposit accounts, and the fee a credited deposit records.

const BASE = '/gateway/v1';
const DAY = 86_400_000;

describe('gateway usage', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });
  let serial = 0;

  /** A merchant (on `plan` unless null) with an app, USDT (BEP20) on and a key with `abilities`. */
  async function merchant(
    abilities: string[],
    plan: { packageId?: string; startDate?: string; endDate?: string } | null = {},
  ) {
    serial += 1;
    const tag = `use${serial}`;
    const now = t.clock().toISOString();
    const userId = await addUser(t, `merchant_${tag}`);
    if (plan) await insertSubscription(t, userId, plan);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: now });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${tag}`,
        app_id: appId,
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(abilities),
        created_at: now,
      })
      .execute();
    return { userId, appId, key: key.key };
  }

  const open = (key: string, uniqueId: string, remoteAddress = '203.0.113.7') =>
    t.inject({
      method: 'POST',
      url: `${BASE}/accounts`,
      headers: { authorization: `Bearer ${key}` },
      payload: { unique_id: uniqueId, method: 'USDT-BEP20' },
      remoteAddress,
    });

  /** A package of our own, small enough to reach its limits. */
  async function tinyPackage(id: string, limits: { tnx: number; daily: number; fees: number }) {
    await t.db
      .insertInto('packages')
      .values({
        id,
        name: `Tiny ${id}`,
        price_micro: 1_000_000,
        duration_days: 30,
        fees: limits.fees,
        tnx_limit: limits.tnx,
        daily_tnx_limit: limits.daily,
        app_count: 1,
        sort_order: 9,
        is_active: 0,
      })
      .execute();
  }

  /** A deposit the watcher credited `msAgo`. */
  const credited = (appId: string, n: number, msAgo: number) =>
    insertReceive(t, {
      id: `rcv_${appId}_${n}`,
      app_id: appId,
      unique_id: `old-${n}`,
      amount_micro: 1_000_000,
      deposit_status: 3,
      created_at: new Date(t.clock().getTime() - msAgo - 60_000).toISOString(),
      credited_at: new Date(t.clock().getTime() - msAgo).toISOString(),
    });

  const logsOf = (appId: string) =>
    t.db
      .selectFrom('api_logs')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .execute();

  /** The batch writer flushes every second: wait for `n` rows. */
  async function flushedLogs(appId: string, n: number) {
    const deadline = Date.now() + 10_000;
    let rows = await logsOf(appId);
    while (rows.length < n && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await logsOf(appId);
    }
    return rows;
  }

  it('logs every request of a known app, refusals included, never its key or body', async () => {
    const { appId, key } = await merchant(['accounts:write']);
    expect((await open(key, 'secret-order-42')).statusCode).toBe(201);
    t.clock.advance(1_000);
    const account = await t.inject({
      method: 'GET',
      url: `${BASE}/accounts/secret-order-42?limit=5`,
      headers: { 'x-api-key': key },
      remoteAddress: '2001:db8::7',
    });
    expect(account.statusCode).toBe(200);
    t.clock.advance(1_000);
    const refused = await t.inject({
      method: 'GET',
      url: `${BASE}/deposits`,
      headers: { authorization: `Bearer ${key}` },
      remoteAddress: '203.0.113.7',
    });
    expect(refused.statusCode).toBe(403);
    // Nothing is written on the request's path.
    expect(await logsOf(appId)).toEqual([]);
    const rows = await flushedLogs(appId, 3);
    expect(rows.map(({ method, route, ip, status }) => ({ method, route, ip, status }))).toEqual([
      { method: 'POST', route: '/gateway/v1/accounts', ip: '203.0.113.7', status: 201 },
      { method: 'GET', route: '/gateway/v1/accounts/{unique_id}', ip: '2001:db8::7', status: 200 },
      { method: 'GET', route: '/gateway/v1/deposits', ip: '203.0.113.7', status: 403 },
    ]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(9, 25));
    expect(stored).not.toContain('secret-order-42');
    expect(stored).not.toContain('USDT-BEP20');

    // The portal's API Logs tab reads these rows.
    const owner = await t.db
      .selectFrom('apps')
      .innerJoin('users', 'users.id', 'apps.user_id')
      .select('users.username')
      .where('apps.id', '=', appId)
      .executeTakeFirstOrThrow();
    const details = await t.call('getAppDetails', {
      params: { id: appId },
      headers: await t.authHeader(owner.username),
    });
    expect(details.json().data.api_logs).toMatchObject({
      total: 3,
      data: [
        { method: 'GET', route: '/gateway/v1/deposits', ip: '203.0.113.7' },
        { method: 'GET', route: '/gateway/v1/accounts/{unique_id}', ip: '2001:db8::7' },
        { method: 'POST', route: '/gateway/v1/accounts', ip: '203.0.113.7' },
      ],
    });
  });

  it('logs nothing for a key no app owns', async () => {
    const before = await t.db
      .selectFrom('api_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await t.inject({
      method: 'GET',
      url: `${BASE}/methods`,
      headers: { authorization: `Bearer ${newApiKey().key}` },
    });
    expect(res.statusCode).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const after = await t.db
      .selectFrom('api_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a new account without a package in force, naming it (402 no_package)', async () => {
    const none = await merchant(['accounts:write'], null);
    const res = await open(none.key, 'order-1');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: {
        code: 'no_package',
        doc_url: docUrl('no_package'),
        message:
          'The merchant has no active package: subscribe to a package to create deposit accounts. Deposits to existing addresses are still credited.',
        request_id: REQUEST_ID,
      },
    });
    const expired = await merchant(['accounts:write'], {
      startDate: new Date(t.clock().getTime() - 40 * DAY).toISOString(),
    });
    expect((await open(expired.key, 'order-1')).json().error.code).toBe('no_package');
  });

  it('refuses new accounts once tnx_limit credited deposits are reached; the rest works', async () => {
    await tinyPackage('pkg_tiny_total', { tnx: 2, daily: 100, fees: 0.75 });
    const { appId, key } = await merchant(['accounts:write'], {
      packageId: 'pkg_tiny_total',
      startDate: new Date(t.clock().getTime() - 10 * DAY).toISOString(),
    });
    const first = await open(key, 'order-1');
    expect(first.statusCode).toBe(201);
    // Before the subscription: not counted; within it, two days ago: counted.
    await credited(appId, 0, 12 * DAY);
    await credited(appId, 1, 2 * DAY);
    expect((await open(key, 'order-2')).statusCode).toBe(201);
    await credited(appId, 2, 2 * DAY);
    const refused = await open(key, 'order-3');
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toEqual({
      request_id: REQUEST_ID,
      code: 'tnx_limit',
      doc_url: docUrl('tnx_limit'),
      message:
        "The Tiny pkg_tiny_total package's transaction limit (tnx_limit 2) is used up: 2 transactions (credited deposits and withdrawals) this subscription. Upgrade the package to create deposit accounts; deposits to existing addresses are still credited.",
    });
    // An account handed out is still answered, and a payment to it is still credited, with
    // the package's fee.
    const again = await open(key, 'order-1');
    expect(again.statusCode).toBe(200);
    const { address } = again.json() as { address: string };
    const paid = await recordLocalTransfer(t.db, {
      to: address,
      amountMicro: 33_333_333n,
      createdAt: t.clock().toISOString(),
    });
    const chain = chainAdapterFor(t.config, t.db);
    await watchDeposits(t.db, chain, t.clock());
    await mineLocalBlocks(t.db, 15);
    await watchDeposits(t.db, chain, t.clock());
    const row = await t.db
      .selectFrom('receive_transactions')
      .select(['deposit_status', 'amount_raw', 'fee_percent', 'fee_raw'])
      .where('tx_hash', '=', paid.txHash)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      deposit_status: 3,
      amount_raw: '33333333000000000000',
      fee_percent: '0.75',
      // 0.75 % of 33.333333 USDT, exact in base units (18 decimals), rounded down.
      fee_raw: '249999997500000000',
    });
    // The dashboard shows what the plan counts.
    const owner = await t.db
      .selectFrom('apps')
      .innerJoin('users', 'users.id', 'apps.user_id')
      .select('users.username')
      .where('apps.id', '=', appId)
      .executeTakeFirstOrThrow();
    const dashboard = await t.call('getDashboard', {
      headers: await t.authHeader(owner.username),
    });
    expect(dashboard.json().data.subscription).toMatchObject({
      transaction_used: 3,
      transaction_limit: 2,
    });
  });

  it('refuses new accounts once daily_tnx_limit is reached today (UTC), not yesterday', async () => {
    await tinyPackage('pkg_tiny_daily', { tnx: 100, daily: 1, fees: 1 });
    const { appId, key } = await merchant(['accounts:write'], {
      packageId: 'pkg_tiny_daily',
      startDate: new Date(t.clock().getTime() - 10 * DAY).toISOString(),
    });
    const now = t.clock();
    const sinceMidnight =
      now.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    await credited(appId, 0, sinceMidnight + 60_000); // yesterday
    expect((await open(key, 'order-1')).statusCode).toBe(201);
    await credited(appId, 1, 0); // today
    const refused = await open(key, 'order-2');
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toEqual({
      request_id: REQUEST_ID,
      code: 'daily_tnx_limit',
      doc_url: docUrl('daily_tnx_limit'),
      message:
        "The Tiny pkg_tiny_daily package's daily transaction limit (daily_tnx_limit 1) is used up for today (UTC). Try again tomorrow or upgrade the package; deposits to existing addresses are still credited.",
    });
    expect((await open(key, 'order-1')).statusCode).toBe(200);
  });

  it('refuses new accounts once the package ends, though the last check refused nothing', async () => {
    const ends = new Date(t.clock().getTime() + 60_000).toISOString();
    const { key } = await merchant(['accounts:write'], {
      startDate: new Date(t.clock().getTime() - 10 * DAY).toISOString(),
      endDate: ends,
    });
    expect((await open(key, 'order-1')).statusCode).toBe(201);
    expect((await open(key, 'order-2')).statusCode).toBe(201);
    const at = t.clock();
    t.clock.advance(60_000);
    try {
      const refused = await open(key, 'order-3');
      expect(refused.statusCode).toBe(402);
      expect(refused.json().error.code).toBe('no_package');
    } finally {
      t.clock.set(at);
    }
  });

  it('records no fee for a deposit credited without a package (credited all the same)', async () => {
    const { userId, appId, key } = await merchant(['accounts:write']);
    const { address } = (await open(key, 'order-1')).json() as { address: string };
    await t.db.deleteFrom('subscriptions').where('user_id', '=', userId).execute();
    const paid = await recordLocalTransfer(t.db, {
      to: address,
      amountMicro: 10_000_000n,
      createdAt: t.clock().toISOString(),
    });
    const chain = chainAdapterFor(t.config, t.db);
    await watchDeposits(t.db, chain, t.clock());
    await mineLocalBlocks(t.db, 15);
    await watchDeposits(t.db, chain, t.clock());
    expect(
      await t.db
        .selectFrom('receive_transactions')
        .select(['app_id', 'deposit_status', 'fee_percent', 'fee_raw'])
        .where('tx_hash', '=', paid.txHash)
        .executeTakeFirstOrThrow(),
    ).toEqual({ app_id: appId, deposit_status: 3, fee_percent: null, fee_raw: null });
  });
});

describe('gateway usage past the rate limit', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '2' } });

  it("logs a 429 under the key's app once the key is known", async () => {
    const userId = await addUser(t, 'limited');
    const now = t.clock().toISOString();
    await insertApp(t, { id: 'app_limited', user_id: userId, created_at: now });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: 'key_limited',
        app_id: 'app_limited',
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['methods:read']),
        created_at: now,
      })
      .execute();
    const get = () =>
      t.inject({
        method: 'GET',
        url: `${BASE}/methods`,
        headers: { authorization: `Bearer ${key.key}` },
      });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await get()).statusCode);
      t.clock.advance(1_000);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const deadline = Date.now() + 10_000;
    let rows: { status: number | null }[] = [];
    while (rows.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await t.db
        .selectFrom('api_logs')
        .select('status')
        .where('app_id', '=', 'app_limited')
        .orderBy('created_at')
        .execute();
    }
    expect(rows.map((r) => r.status)).toEqual([200, 200, 429]);
  });
});

describe('gateway usage at shutdown', () => {
  it('writes the buffered API log rows when the server closes', async () => {
    await withTestApp({}, async (t) => {
      const userId = await addUser(t, 'closing');
      const now = t.clock().toISOString();
      await insertApp(t, { id: 'app_closing', user_id: userId, created_at: now });
      const key = newApiKey();
      await t.db
        .insertInto('api_keys')
        .values({
          id: 'key_closing',
          app_id: 'app_closing',
          token_name: 'Server',
          token_hash: key.hash,
          token_prefix: key.prefix,
          abilities: JSON.stringify(['methods:read']),
          created_at: now,
        })
        .execute();
      const res = await t.inject({
        method: 'GET',
        url: `${BASE}/methods`,
        headers: { authorization: `Bearer ${key.key}` },
      });
      expect(res.statusCode).toBe(200);
      // Closed at once, before the timer's second: onClose writes the row.
      await t.app.close();
      const rows = await t.db
        .selectFrom('api_logs')
        .select(['route', 'status'])
        .where('app_id', '=', 'app_closing')
        .execute();
      expect(rows).toEqual([{ route: '/gateway/v1/methods', status: 200 }]);
    });
  });
});
