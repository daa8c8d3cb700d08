import { requestSigner } from '../signer/client/requestMac';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hashApiKey } from '../domain/apps/apiKeys';
import { LIST_NAMES } from '../domain/apps/appDetails';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { gasProvisioningTask } from '../jobs';
import { startWorker } from '../jobs/worker';
import { newId } from '../domain/ids';
import { seed } from '../seed';
import { addUser as addAccount } from '../../test/accounts';
import { insertApp, insertAppMethod, insertReceive, insertSend } from '../../test/appRows';
import type { CallOptions } from '../../test/operations';
import type { TestApp } from '../../test/testApp';
import { coded, expectFieldErrors, expectRefusal } from '../../test/expectations';
import { testAppPerBlock, withTestApp } from '../../test/withTestApp';

// The Apps operations through HTTP (app.inject) on a fresh seeded database.

const TEST_XPUB = HDKey.fromMasterSeed(
  mnemonicToSeedSync('test test test test test test test test test test test junk'),
).derive("m/44'/60'/0'").publicExtendedKey;

const addUser = (t: TestApp, username: string) =>
  addAccount(t, username, { name: username, phone: null, country: 'IN' });

async function subscribe(t: TestApp, userId: string, packageId?: string): Promise<number> {
  const pkg = await t.db
    .selectFrom('packages')
    .selectAll()
    .$if(packageId !== undefined, (q) => q.where('id', '=', packageId ?? ''))
    .orderBy('app_count', 'desc')
    .executeTakeFirstOrThrow();
  const now = t.clock();
  await t.db
    .insertInto('subscriptions')
    .values({
      id: newId('sub'),
      user_id: userId,
      package_id: pkg.id,
      price_micro: pkg.price_micro,
      paid_micro: pkg.price_micro,
      credit_micro: 0,
      status: 1,
      invoice_id: newId('inv'),
      remarks: null,
      start_date: now.toISOString(),
      end_date: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      canceled_at: null,
      replaced_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return pkg.app_count;
}

describe('getApps and createApp', () => {
  const t = testAppPerBlock();
  let auth: { authorization: string };

  beforeAll(async () => {
    await addUser(t, 'fresh');
    auth = await t.authHeader('fresh');
  });

  const create = (body: Record<string, unknown>, headers = auth) =>
    t.call('createApp', { headers, body });

  it('lists no apps for a new account', async () => {
    const res = await t.call('getApps', { headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: true, data: [] });
  });

  it('refuses bad URLs and whitelist entries with field messages, creating nothing', async () => {
    const res = await create({
      app_name: ' ',
      project_url: 'ftp://shop.example.com',
      callback_url: 'not a url',
      whitelist_ip: '10.0.0.1, 300.1.1.1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(
      coded({
        status: false,
        msg: 'App Name is required',
        errors: {
          app_name: ['App Name is required'],
          project_url: ['Please Enter Valid URl'],
          callback_url: ['Please Enter Valid URl'],
          whitelist_ip: ["'300.1.1.1' is not a valid IP address or CIDR range."],
        },
      }),
    );
    const list = await t.call('getApps', { headers: auth });
    expect(list.json().data).toEqual([]);
  });

  it('creates an app, normalises the whitelist and answers the refreshed list', async () => {
    const res = await create({
      app_name: 'Shop Checkout',
      project_url: 'https://shop.example.com',
      whitelist_ip: '203.0.113.10, 198.51.100.7/24\n2001:DB8:0:0::1, 203.0.113.10',
      callback_url: '',
      info: 'Checkout',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.msg).toBe('App created successfully');
    expect(body.app).toMatchObject({
      app_name: 'Shop Checkout',
      project_url: 'https://shop.example.com',
      whitelist_ip: '203.0.113.10\n198.51.100.0/24\n2001:db8::1',
      callback_url: null,
      info: 'Checkout',
      status: 0,
    });
    expect(body.data).toEqual([body.app]);
  });

  it('refuses a second app without a subscription, with a clear message', async () => {
    const res = await create({ app_name: 'Second', project_url: 'https://two.example.com' });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe(
      'Without a subscription you can create 1 app. Subscribe to a package to create more.',
    );
  });

  it("allows up to the package's app_count, oldest first, then refuses", async () => {
    const userId = await addUser(t, 'subscriber');
    const headers = await t.authHeader('subscriber');
    const count = await subscribe(t, userId);
    for (let i = 0; i < count; i += 1) {
      t.clock.advance(1000);
      const res = await create({ app_name: `App ${i}`, project_url: 'http://x.example' }, headers);
      expect(res.statusCode).toBe(200);
    }
    const refused = await create(
      { app_name: 'One more', project_url: 'http://x.example' },
      headers,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().msg).toMatch(/Your package allows \d+ apps?\. Upgrade/);
    const list = await t.call('getApps', { headers });
    expect(list.json().data.map((a: { app_name: string }) => a.app_name)).toEqual(
      Array.from({ length: count }, (_, i) => `App ${i}`),
    );
  });
});

/** An app of `userId` with one method in use and one row of each kind, straight in the DB. */
async function makeAppWithRows(t: TestApp, userId: string, tag: string) {
  const now = t.clock().toISOString();
  const appId = `app_${tag}`;
  await insertApp(t, {
    id: appId,
    user_id: userId,
    app_name: `App ${tag}`,
    project_url: 'https://x.example',
    status: 1,
    created_at: now,
  });
  await insertAppMethod(t, { id: `upm_${tag}`, app_id: appId });
  await t.db
    .insertInto('api_keys')
    .values({
      id: `key_${tag}`,
      app_id: appId,
      token_name: 'Server',
      token_hash: hashApiKey(`secret-${tag}`),
      token_prefix: 'csl_live_abc',
      abilities: JSON.stringify(['deposits:read']),
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  await insertReceive(t, {
    id: `dep_${tag}`,
    app_id: appId,
    unique_id: 'CUST-1',
    amount_micro: 12_500_000,
    deposit_status: 5,
    process_datetime: now,
    created_at: now,
  });
  await insertSend(t, {
    id: `wd_${tag}`,
    app_id: appId,
    amount_micro: 3_000_000,
    to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    status: 6,
    created_at: now,
  });
  return appId;
}

/** A new merchant `username` with an app of rows (makeAppWithRows): its header and the app id. */
async function merchantWithAppRows(t: TestApp, username: string, tag: string) {
  const userId = await addUser(t, username);
  return { headers: await t.authHeader(username), appId: await makeAppWithRows(t, userId, tag) };
}

/** Everything an app-scoped operation could change, to compare before and after. */
async function snapshot(t: TestApp) {
  const [apps, methods, keys, receives, sends] = await Promise.all([
    t.db.selectFrom('apps').selectAll().orderBy('id').execute(),
    t.db.selectFrom('app_payment_methods').selectAll().orderBy('id').execute(),
    t.db.selectFrom('api_keys').selectAll().orderBy('id').execute(),
    t.db.selectFrom('receive_transactions').selectAll().orderBy('id').execute(),
    t.db.selectFrom('send_transactions').selectAll().orderBy('id').execute(),
  ]);
  return { apps, methods, keys, receives, sends };
}

describe('ownership: another account gets 404 and changes nothing', () => {
  const t = testAppPerBlock();
  let owner: string;
  let intruder: { authorization: string };
  let appId: string;

  beforeAll(async () => {
    owner = await addUser(t, 'owner');
    await addUser(t, 'intruder');
    intruder = await t.authHeader('intruder');
    appId = await makeAppWithRows(t, owner, 'own');
    await provisionGasAddresses(t.db, TEST_XPUB);
  });

  const gasOf = async (tag: string) =>
    (
      await t.db
        .selectFrom('app_payment_methods')
        .select('gas_address')
        .where('id', '=', `upm_${tag}`)
        .executeTakeFirstOrThrow()
    ).gas_address ?? '';

  const payout = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  // Each case is an operationId and its request naming the rows of makeAppWithRows(tag).
  const cases: [string, (tag: string) => Promise<CallOptions>][] = [
    [
      'updateApp',
      async (tag) => ({
        body: {
          app_id: `app_${tag}`,
          app_name: 'Mine',
          project_url: 'https://m.example',
          status: 0,
        },
      }),
    ],
    ['getAppDetails', async (tag) => ({ params: { id: `app_${tag}` } })],
    ['listTokens', async (tag) => ({ params: { appid: `app_${tag}` } })],
    [
      'generateApiKey',
      async (tag) => ({
        body: { token_name: 'x', app_id: `app_${tag}`, abilities: ['deposits:read'] },
      }),
    ],
    ['revokeToken', async (tag) => ({ params: { tokenId: `key_${tag}`, appid: `app_${tag}` } })],
    [
      'updatePermissions',
      async (tag) => ({
        params: { tokenId: `key_${tag}` },
        body: { app_id: `app_${tag}`, abilities: ['balances:read'] },
      }),
    ],
    [
      'fetchBalance',
      async (tag) => ({
        params: {
          paymentMethodId: 'pm_usdt_bsc',
          gasAddress: await gasOf(tag),
          appDataId: `app_${tag}`,
        },
      }),
    ],
    [
      'usePaymentMethod',
      async (tag) => ({
        body: {
          payment_method_id: 'pm_bnb',
          collect_address: payout,
          user_app_id: `app_${tag}`,
        },
      }),
    ],
    [
      'updatePaymentMethod',
      async (tag) => ({
        body: { id: `upm_${tag}`, user_app_id: `app_${tag}`, type: 'deposit_status', status: 0 },
      }),
    ],
    ['requeueDeposit', async (tag) => ({ params: { id: `dep_${tag}` } })],
    ['cancelWithdraw', async (tag) => ({ params: { id: `wd_${tag}` } })],
    ['requeueWithdraw', async (tag) => ({ params: { id: `wd_${tag}` } })],
  ];

  it.each(cases)('%s', async (operationId, request) => {
    const before = await snapshot(t);
    const res = await t.call(operationId, { ...(await request('own')), headers: intruder });
    expectRefusal(res, 404, 'Record not found.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('the owner gets 200 for each of the same requests', async () => {
    const headers = await t.authHeader('owner');
    for (const [index, [operationId, request]] of cases.entries()) {
      const tag = `mine${index}`;
      await makeAppWithRows(t, owner, tag);
      await provisionGasAddresses(t.db, TEST_XPUB);
      const res = await t.call(operationId, { ...(await request(tag)), headers });
      expect([operationId, res.statusCode]).toEqual([operationId, 200]);
    }
  });

  it('a key id of one app is unknown under another app of the same owner', async () => {
    const headers = await t.authHeader('owner');
    const other = await makeAppWithRows(t, owner, 'two');
    const res = await t.call('revokeToken', {
      params: { tokenId: 'key_two', appid: appId },
      headers,
    });
    expect(res.statusCode).toBe(404);
    const upm = await t.call('updatePaymentMethod', {
      headers,
      body: { id: 'upm_two', user_app_id: appId, type: 'withdraw_status', status: 0 },
    });
    expect(upm.statusCode).toBe(404);
    expect(other).toBe('app_two');
  });
});

describe('API keys', () => {
  const t = testAppPerBlock();
  let headers: { authorization: string };
  let appId: string;

  beforeAll(async () => {
    ({ headers, appId } = await merchantWithAppRows(t, 'keys', 'k'));
  });

  const generate = (body: object) => t.call('generateApiKey', { headers, body });
  const list = async () =>
    (await t.call('listTokens', { params: { appid: appId }, headers })).json();

  it('lists the available permissions', async () => {
    const res = await t.call('listTokenPermissions', { headers });
    expect(res.json()).toEqual({
      status: true,
      data: [
        { title: 'Read payment methods', value: 'methods:read' },
        { title: 'Read deposit accounts', value: 'accounts:read' },
        { title: 'Create deposit accounts', value: 'accounts:write' },
        { title: 'Read deposits', value: 'deposits:read' },
        { title: 'Read withdrawals', value: 'withdrawals:read' },
        { title: 'Create withdrawals', value: 'withdrawals:write' },
        { title: 'Read balances', value: 'balances:read' },
        { title: 'Manage webhooks', value: 'webhooks:write' },
        { title: 'Read operational wallets', value: 'wallets:read' },
        { title: 'Read invoices', value: 'invoices:read' },
        { title: 'Create invoices', value: 'invoices:write' },
        { title: 'Read refunds', value: 'refunds:read' },
        { title: 'Create refunds', value: 'refunds:write' },
        { title: 'Read logs', value: 'logs:read' },
      ],
    });
  });

  it('refuses a missing name, no permission and unknown permissions', async () => {
    const empty = await generate({ token_name: '', app_id: appId, abilities: [] });
    expectFieldErrors(empty, {
      token_name: ['Key Name is required'],
      abilities: ['Min One Permission is required'],
    });
    const blank = await generate({ token_name: '  ', app_id: appId, abilities: ['root'] });
    expect(blank.json().errors).toEqual({
      token_name: ['Key Name is required'],
      abilities: ["'root' is not an available permission."],
    });
    expect((await list()).data).toHaveLength(1);
  });

  it('shows the key once and stores only its hash', async () => {
    t.clock.advance(1000); // newer than the key the fixture made, so it lists first
    const res = await generate({
      token_name: 'Checkout server',
      app_id: appId,
      abilities: ['deposits:read', 'accounts:write'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: true,
      msg: 'API key generated successfully',
      data: { token_name: 'Checkout server', abilities: ['accounts:write', 'deposits:read'] },
    });
    const token: string = body.token;
    expect(token).toMatch(/^csl_live_/);

    const row = await t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashApiKey(token));
    expect(token.startsWith(row.token_prefix)).toBe(true);
    // The plaintext is in no column of any row of the table.
    const everything = JSON.stringify(await t.db.selectFrom('api_keys').selectAll().execute());
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.slice(row.token_prefix.length));

    const listed = await list();
    expect(listed.data[0]).toEqual(body.data);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('replaces permissions, then revokes; a revoked key is gone', async () => {
    const { data } = await list();
    const keyId: string = data[0].id;
    const refused = await t.call('updatePermissions', {
      params: { tokenId: keyId },
      headers,
      body: { app_id: appId, abilities: [] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().msg).toBe('Min One Permission is required');
    const updated = await t.call('updatePermissions', {
      params: { tokenId: keyId },
      headers,
      body: { app_id: appId, abilities: ['balances:read', 'withdrawals:read'] },
    });
    expect(updated.json()).toEqual(
      coded({ status: true, msg: 'Permissions updated successfully' }),
    );
    expect((await list()).data[0].abilities).toEqual(['withdrawals:read', 'balances:read']);

    const revoke = () =>
      t.call('revokeToken', { params: { tokenId: keyId, appid: appId }, headers });
    expect((await revoke()).json()).toEqual(
      coded({ status: true, msg: 'API key revoked successfully' }),
    );
    expect((await list()).data.map((k: { id: string }) => k.id)).not.toContain(keyId);
    expect((await revoke()).statusCode).toBe(404);
  });
});

describe('transaction state rules', () => {
  const t = testAppPerBlock();
  let headers: { authorization: string };
  let appId: string;

  beforeAll(async () => {
    ({ headers, appId } = await merchantWithAppRows(t, 'states', 's'));
  });

  const setDeposit = (status: 0 | 1 | 2 | 3 | 4 | 5) =>
    t.db
      .updateTable('receive_transactions')
      .set({ deposit_status: status })
      .where('id', '=', 'dep_s')
      .execute();
  const setSend = (status: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7) =>
    t.db.updateTable('send_transactions').set({ status }).where('id', '=', 'wd_s').execute();
  const depositStatus = async () =>
    (
      await t.db
        .selectFrom('receive_transactions')
        .select('deposit_status')
        .where('id', '=', 'dep_s')
        .executeTakeFirstOrThrow()
    ).deposit_status;
  const sendStatus = async () =>
    (
      await t.db
        .selectFrom('send_transactions')
        .select('status')
        .where('id', '=', 'wd_s')
        .executeTakeFirstOrThrow()
    ).status;
  /** One of the operations on a transaction, by its id. */
  const act = (operationId: string, id: string) => t.call(operationId, { params: { id }, headers });

  it.each([0, 1, 2, 3, 4] as const)(
    'refuses to re-initiate a deposit in status %i',
    async (status) => {
      await setDeposit(status);
      const res = await act('requeueDeposit', 'dep_s');
      expect(res.statusCode).toBe(409);
      expect(res.json().msg).toBe('Only a Failed deposit can be re-initiated.');
      expect(await depositStatus()).toBe(status);
    },
  );

  it('re-initiates a Failed deposit to Queued for Verification', async () => {
    await setDeposit(5);
    const res = await act('requeueDeposit', 'dep_s');
    expect(res.json()).toEqual(coded({ status: true, msg: 'Deposit re-initiated successfully' }));
    expect(await depositStatus()).toBe(2);
  });

  it.each([0, 1, 2, 4, 5, 7] as const)(
    'refuses cancel and requeue of a withdrawal in status %i',
    async (status) => {
      await setSend(status);
      const cancel = await act('cancelWithdraw', 'wd_s');
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json().msg).toBe(
        'Only a withdrawal in Processing Transfer or Unsuccessful status can be cancelled.',
      );
      const requeue = await act('requeueWithdraw', 'wd_s');
      expect(requeue.statusCode).toBe(409);
      expect(requeue.json().msg).toBe(
        'Only a withdrawal in Processing Transfer or Unsuccessful status can be re-initiated.',
      );
      expect(await sendStatus()).toBe(status);
    },
  );

  it.each([3, 6] as const)(
    'cancels (7) and re-queues (2) a withdrawal in status %i',
    async (status) => {
      await setSend(status);
      expect((await act('cancelWithdraw', 'wd_s')).json()).toEqual(
        coded({
          status: true,
          msg: 'Withdrawal cancelled successfully',
        }),
      );
      expect(await sendStatus()).toBe(7);
      await setSend(status);
      expect((await act('requeueWithdraw', 'wd_s')).json()).toEqual(
        coded({
          status: true,
          msg: 'Withdrawal re-initiated successfully',
        }),
      );
      expect(await sendStatus()).toBe(2);
    },
  );

  it('answers 404 for unknown ids', async () => {
    expect((await act('requeueDeposit', 'dep_nope')).statusCode).toBe(404);
    expect((await act('cancelWithdraw', 'wd_nope')).statusCode).toBe(404);
    expect(appId).toBe('app_s');
  });
});

describe('payment methods and the operational wallet job', () => {
  const t = testAppPerBlock();
  let headers: { authorization: string };
  let appId: string;

  beforeAll(async () => {
    await addUser(t, 'pay');
    headers = await t.authHeader('pay');
    const res = await t.call('createApp', {
      headers,
      body: { app_name: 'Pay', project_url: 'https://pay.example' },
    });
    appId = res.json().app.id;
  });

  const use = (payment_method_id: string, collect_address: string) =>
    t.call('usePaymentMethod', {
      headers,
      body: { payment_method_id, collect_address, user_app_id: appId },
    });
  const update = (body: object) =>
    t.call('updatePaymentMethod', { headers, body: { user_app_id: appId, ...body } });
  const details = async () =>
    (await t.call('getAppDetails', { params: { id: appId }, headers })).json().data;

  it('refuses missing and invalid payout addresses per network', async () => {
    const missing = await use('pm_usdt_bsc', '');
    expectFieldErrors(missing, { collect_address: ['Payout addrress is required'] });
    for (const [method, address] of [
      ['pm_usdt_bsc', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'], // bad EIP-55 checksum
      ['pm_usdt_bsc', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['pm_trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'], // bad base58check checksum
      ['pm_trx', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ]) {
      const res = await use(method ?? '', address ?? '');
      expect([address, res.statusCode, res.json().msg]).toEqual([
        address,
        422,
        'Please Enter valid Address',
      ]);
    }
    expect((await details()).user_payment_methods).toEqual([]);
    expect((await use('pm_nope', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).statusCode).toBe(
      404,
    );
  });

  it('refuses a payout address where the money is lost: the zero address, the token contract', async () => {
    const zero = 'The payout address is the zero address: payouts sent there are lost.';
    for (const [method, address, message] of [
      ['pm_usdt_bsc', '0x0000000000000000000000000000000000000000', zero],
      ['pm_usdt_bsc', '0000000000000000000000000000000000000000', zero],
      ['pm_usdt_tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', zero],
      [
        'pm_usdt_bsc',
        '0x55d398326f99059ff775485246999027b3197955',
        "The payout address is USDT-BEP20's own token contract: tokens sent there are lost.",
      ],
      [
        'pm_usdt_tron',
        'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        "The payout address is USDT-TRC20's own token contract: tokens sent there are lost.",
      ],
    ]) {
      const res = await use(method ?? '', address ?? '');
      expect([address, res.statusCode, res.json()]).toEqual([
        address,
        422,
        coded({ status: false, msg: message, errors: { collect_address: [message] } }),
      ]);
    }
    expect((await details()).user_payment_methods).toEqual([]);
  });

  it('enables a method with a checksummed address; the job then provisions its gas wallet', async () => {
    const res = await use('pm_usdt_bsc', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
    expect(res.json()).toEqual(coded({ status: true, msg: 'Payment method added successfully' }));
    const before = await details();
    expect(before.app_data.status).toBe(1);
    expect(before.user_payment_methods).toEqual([
      {
        id: expect.any(String),
        payment_method_id: 'pm_usdt_bsc',
        gas_address: null,
        collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        deposit_status: 1,
        withdraw_status: 1,
      },
    ]);
    expect(
      (await use('pm_usdt_bsc', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).statusCode,
    ).toBe(409);

    expect(await use('pm_trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toHaveProperty(
      'statusCode',
      200,
    );
    const { n: pending } = await t.db
      .selectFrom('app_payment_methods')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('gas_address', 'is', null)
      .executeTakeFirstOrThrow();
    expect(pending).toBeGreaterThanOrEqual(2);
    const log = { error: jest.fn(), warn: jest.fn() };
    const worker = await startWorker({
      db: t.db,
      tasks: [gasProvisioningTask(t.db, TEST_XPUB)],
      log,
      pollMs: 0,
    });
    // One run of the recurring job serves every waiting method, the seeded demo app's too.
    expect(await worker.drain()).toBe(1);
    expect(log.error).not.toHaveBeenCalled();
    const { n: left } = await t.db
      .selectFrom('app_payment_methods')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('gas_address', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(left)).toBe(0);
    const after: { payment_method_id: string; gas_address: string }[] = (await details())
      .user_payment_methods;
    const gas = (id: string) => after.find((m) => m.payment_method_id === id)?.gas_address;
    expect(gas('pm_usdt_bsc')).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(gas('pm_trx')).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  it('switches deposit and withdraw and changes the payout address with the same checks', async () => {
    const used = (await details()).user_payment_methods.find(
      (m: { payment_method_id: string }) => m.payment_method_id === 'pm_usdt_bsc',
    );
    expect((await update({ id: used.id, type: 'deposit_status', status: 0 })).json()).toEqual(
      coded({
        status: true,
        msg: 'Payment method updated successfully',
      }),
    );
    await update({ id: used.id, type: 'withdraw_status', status: 0 });
    const missingStatus = await update({ id: used.id, type: 'withdraw_status' });
    expect(missingStatus.statusCode).toBe(422);
    const bad = await update({
      id: used.id,
      type: 'address',
      collect_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    expect(bad.json().errors).toEqual({ collect_address: ['Please Enter valid Address'] });
    const missing = await update({ id: used.id, type: 'address' });
    expect(missing.json().errors).toEqual({ collect_address: ['Payout addrress is required'] });
    const zero = await update({
      id: used.id,
      type: 'address',
      collect_address: '0x0000000000000000000000000000000000000000',
    });
    expect(zero.json().errors).toEqual({
      collect_address: ['The payout address is the zero address: payouts sent there are lost.'],
    });
    await update({
      id: used.id,
      type: 'address',
      collect_address: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
    });
    expect(
      (await details()).user_payment_methods.find((m: { id: string }) => m.id === used.id),
    ).toMatchObject({
      deposit_status: 0,
      withdraw_status: 0,
      collect_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    });
  });
});

describe('updateApp and getAppDetails', () => {
  const t = testAppPerBlock();
  let headers: { authorization: string };

  beforeAll(async () => {
    const userId = await addUser(t, 'upd');
    headers = await t.authHeader('upd');
    await subscribe(t, userId);
    await makeAppWithRows(t, userId, 'u');
  });

  const update = (body: object) => t.call('updateApp', { headers, body });

  it('saves the settings with the create rules and answers the app', async () => {
    const bad = await update({
      app_id: 'app_u',
      app_name: 'X',
      project_url: 'x',
      whitelist_ip: '1.2.3',
      status: 1,
    });
    expect(bad.json().errors).toEqual({
      project_url: ['Please Enter Valid URl'],
      whitelist_ip: ["'1.2.3' is not a valid IP address or CIDR range."],
    });
    const res = await update({
      app_id: 'app_u',
      app_name: 'Renamed',
      project_url: 'https://new.example',
      callback_url: 'https://new.example/hook',
      whitelist_ip: '10.0.0.0/8',
      info: 'About',
      status: 0,
    });
    expect(res.json()).toMatchObject({
      status: true,
      msg: 'App updated successfully',
      data: {
        id: 'app_u',
        app_name: 'Renamed',
        callback_url: 'https://new.example/hook',
        whitelist_ip: '10.0.0.0/8',
        info: 'About',
        status: 0,
      },
    });
  });

  it('refuses Ready without a payment method in use', async () => {
    const created = await t.call('createApp', {
      headers,
      body: { app_name: 'Bare', project_url: 'https://bare.example' },
    });
    const res = await update({
      app_id: created.json().app.id,
      app_name: 'Bare',
      project_url: 'https://bare.example',
      status: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe('Add a payment method before marking the app Ready.');
  });

  it('pages each list by its own query parameter', async () => {
    const now = Date.now();
    await t.db
      .insertInto('api_logs')
      .values(
        Array.from({ length: 23 }, (_, i) => ({
          id: `log_${String(i).padStart(2, '0')}`,
          app_id: 'app_u',
          method: 'GET',
          route: `/gateway/v1/r${i}`,
          ip: '203.0.113.1',
          created_at: new Date(now + i * 1000).toISOString(),
        })),
      )
      .execute();
    const res = await t.call('getAppDetails', {
      params: { id: 'app_u' },
      query: { api_logs: 3 },
      headers,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.api_logs).toMatchObject({
      current_page: 3,
      last_page: 3,
      from: 21,
      to: 23,
      total: 23,
    });
    expect(data.api_logs.first_page_url).toBe(
      t.urlOf('getAppDetails', { params: { id: 'app_u' }, query: { api_logs: 1 } }),
    );
    // Newest first: page 3 holds the three oldest.
    expect(data.api_logs.data.map((l: { route: string }) => l.route)).toEqual([
      '/gateway/v1/r2',
      '/gateway/v1/r1',
      '/gateway/v1/r0',
    ]);
    expect(data.receive).toMatchObject({
      current_page: 1,
      total: 1,
      first_page_url: t.urlOf('getAppDetails', { params: { id: 'app_u' }, query: { receive: 1 } }),
    });
    expect(data.receive.data[0]).toMatchObject({
      amount: 12.5,
      name: 'USDT',
      network_name: 'BNB Smart Chain',
      chain_id: 56,
      deposit_status: 5,
    });
    // Usage counts credited deposits and completed withdrawals: a Failed one and an
    // Unsuccessful one are listed, never counted.
    expect(data.total_transaction).toEqual({ incoming: 0, outgoing: 0, refunds: 0 });
    expect(data.all_payment_methods.map((m: { id: string }) => m.id)).toContain('pm_trx');
  });
  it('refuses a page number past 1000000 for every list (422), never a 500', async () => {
    const url = t.urlOf('getAppDetails', { params: { id: 'app_u' } });
    for (const list of LIST_NAMES) {
      for (const page of ['1e19', '1e308', '922337203685477581', '1000001']) {
        const res = await t.inject({ method: 'GET', url: `${url}?${list}=${page}`, headers });
        expect([list, page, res.statusCode]).toEqual([list, page, 422]);
        expect(res.json()).toEqual({
          status: false,
          msg: `The ${list} page may not be greater than 1000000.`,
          errors: { [list]: [`The ${list} page may not be greater than 1000000.`] },
        });
      }
      const last = await t.inject({ method: 'GET', url: `${url}?${list}=1000000`, headers });
      expect(last.statusCode).toBe(200);
      expect(last.json().data[list]).toMatchObject({ current_page: 1000000, data: [] });
    }
  });
});

describe('demo data', () => {
  it("gives the demo account an app whose tabs agree, made by the gateway's own code", async () => {
    // With a fee address, sweeps take the fee leg, which Usage shows.
    const env = { GATEWAY_FEE_ADDRESS: '0x000000000000000000000000000000000000fEe5' };
    await withTestApp({ env }, async (t) => {
      const headers = await t.authHeader();
      const apps = (await t.call('getApps', { headers })).json().data;
      expect(apps).toHaveLength(1);
      const appId: string = apps[0].id;
      const details = (query: Record<string, number> = {}) =>
        t.call('getAppDetails', { params: { id: appId }, query, headers });
      const { data } = (await details()).json();
      expect(apps[0].status).toBe(1);

      // Accounts opened through the domain, payments the watcher found on the local chain.
      const receives = await t.db
        .selectFrom('receive_transactions')
        .select([
          'deposit_status',
          'amount_micro',
          'amount_raw',
          'tx_hash',
          'failure_reason',
          'fee_percent',
          'fee_raw',
        ])
        .where('app_id', '=', appId)
        .execute();
      expect(new Set(receives.map((r) => r.deposit_status))).toEqual(new Set([3, 5]));
      const onChain = await t.db.selectFrom('chain_transfers').select('tx_hash').execute();
      const hashes = new Set(onChain.map((c) => c.tx_hash));
      expect(receives.every((r) => r.tx_hash !== null && hashes.has(r.tx_hash))).toBe(true);
      expect(receives.filter((r) => r.deposit_status === 5)).toEqual([
        expect.objectContaining({ failure_reason: 'below_minimum', fee_raw: null }),
      ]);
      const creditedRows = receives.filter((r) => r.deposit_status === 3);
      expect(creditedRows.length).toBeGreaterThanOrEqual(8);
      for (const row of creditedRows) {
        // The demo plan (Starter) takes 1 %.
        expect(row).toMatchObject({
          fee_percent: '1',
          fee_raw: (BigInt(row.amount_raw ?? '') / 100n).toString(),
        });
      }
      const accounts = await t.db
        .selectFrom('app_accounts')
        .select('derivation_index')
        .where('app_id', '=', appId)
        .execute();
      expect(accounts.every((a) => a.derivation_index !== null)).toBe(true);
      expect(data.generated_deposit_address).toBe(accounts.length);
      // Nothing the gateway did not do: no withdrawals, no API calls yet.
      expect(data.send.total).toBe(0);
      expect(data.api_logs.total).toBe(0);

      // Usage == the Daily Logs summed == the credited receives, and again the same.
      const days: { deposit_count: number; deposit_volume: number; withdraw_count: number }[] = [];
      for (let page = 1; page <= data.daily_logs.last_page; page += 1) {
        days.push(...(await details({ daily_logs: page })).json().data.daily_logs.data);
      }
      expect(days).toHaveLength(data.daily_logs.total);
      expect(data.daily_logs.total).toBeGreaterThanOrEqual(3);
      const creditedMicro = creditedRows.reduce((sum, r) => sum + r.amount_micro, 0);
      const micro = (amount: number) => Math.round(amount * 1e6);
      expect(data.total_transaction).toEqual({
        incoming: creditedRows.length,
        outgoing: 0,
        refunds: 0,
      });
      expect(days.reduce((sum, d) => sum + d.deposit_count, 0)).toBe(creditedRows.length);
      expect(days.reduce((sum, d) => sum + micro(d.deposit_volume), 0)).toBe(creditedMicro);
      expect(days.every((d) => d.withdraw_count === 0)).toBe(true);
      const usdt = data.all_payment_methods.find((m: { id: string }) => m.id === 'pm_usdt_bsc');
      expect(micro(usdt.total_amount)).toBe(creditedMicro);
      // The split of the sweep: the package's fee (recorded at credit) and the rest, summed
      // exactly in base units (18 decimals), shown truncated to micro-USDT.
      const rawSum = (pick: (r: (typeof creditedRows)[number]) => string | null) =>
        creditedRows.reduce((sum, r) => sum + BigInt(pick(r) ?? '0'), 0n);
      const feeRaw = rawSum((r) => r.fee_raw);
      expect(feeRaw).toBeGreaterThan(0n);
      expect(BigInt(micro(usdt.total_gateway_fee))).toBe(feeRaw / 10n ** 12n);
      expect(BigInt(micro(usdt.total_payout_amount))).toBe(
        (rawSum((r) => r.amount_raw) - feeRaw) / 10n ** 12n,
      );
      const again = (await details()).json().data;
      expect(again.daily_logs).toEqual(data.daily_logs);
      expect(again.total_transaction).toEqual(data.total_transaction);
      const dashboard = (await t.call('getDashboard', { headers })).json().data;
      expect(dashboard.subscription.transaction_used).toBe(creditedRows.length);

      expect(data.user_payment_methods).toHaveLength(2);
      await provisionGasAddresses(t.db, TEST_XPUB);
      const after = (await details()).json().data;
      expect(
        after.user_payment_methods.every((m: { gas_address: string | null }) => m.gas_address),
      ).toBe(true);
      const keys = (await t.call('listTokens', { params: { appid: appId }, headers })).json().data;
      expect(keys).toHaveLength(1);
      // Seeding again (every start) neither duplicates nor overwrites the demo app.
      await seed(t.db, { demo: true, sign: requestSigner(t.config.signerRequestKey) });
      const apps2 = await t.db.selectFrom('apps').select('id').where('id', '=', appId).execute();
      expect(apps2).toHaveLength(1);
      expect(
        await t.db
          .selectFrom('receive_transactions')
          .select('id')
          .where('app_id', '=', appId)
          .execute(),
      ).toHaveLength(receives.length);
    });
  });
});
