import { createHash } from 'node:crypto';
import { newApiKey } from '../domain/apps/apiKeys';
import { recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';
import { IDEMPOTENCY_IN_FLIGHT, IDEMPOTENCY_KEY_REUSED } from '../domain/payments/idempotency';
import { FAILED_ON_CHAIN, moveWithdrawal, WITHDRAWAL_MSG } from '../domain/payments/withdrawals';
import { addUser } from '../../test/accounts';
import { eventTypesOf, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { coded } from '../../test/expectations';

// Withdrawals through the gateway over HTTP: the checks and their messages, Idempotency-Key,
// reservations in the operational wallet (the local chain holds its balances), the plan, the
// webhook events, and the portal's Cancel and Reinitiate on the same rows.

const BASE = '/gateway/v1';
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;
const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** TO with one letter's case flipped: its EIP-55 checksum no longer holds. */
const TO_BAD_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAEd';
const USDT = 10n ** 18n;
const BNB = 10n ** 18n;
const GAS_RESERVE = 5n * 10n ** 14n;
const DAY = 86_400_000;

describe('gateway withdrawals', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  async function tinyPackage(id: string, tnx: number) {
    await t.db
      .insertInto('packages')
      .values({
        id,
        name: `Tiny ${id}`,
        price_micro: 1_000_000,
        duration_days: 30,
        fees: 0.5,
        tnx_limit: tnx,
        daily_tnx_limit: 100,
        app_count: 1,
        sort_order: 9,
        is_active: 0,
      })
      .execute();
  }

  /**
   * A merchant's app with USDT (BEP20) enabled for withdrawals, an operational wallet of its
   * own, a whitelist holding the test client's address and a key with `withdrawals:write`.
   */
  async function merchant(
    options: {
      whitelist?: string | null;
      withdrawOn?: boolean;
      wallet?: boolean;
      packageId?: string;
      abilities?: string[];
    } = {},
  ) {
    serial += 1;
    const tag = `wd${serial}`;
    const now = t.clock().toISOString();
    const username = `merchant_${tag}`;
    const userId = await addUser(t, username);
    await insertSubscription(t, userId, {
      packageId: options.packageId,
      startDate: new Date(t.clock().getTime() - DAY).toISOString(),
    });
    const appId = `app_${tag}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: now,
      whitelist_ip: options.whitelist === undefined ? '127.0.0.1' : options.whitelist,
    });
    // A wallet address of this app alone (the gas job derives real ones).
    const wallet = `0x${serial.toString(16).padStart(40, '0')}`;
    await insertAppMethod(t, {
      id: `apm_${tag}`,
      app_id: appId,
      withdraw_status: options.withdrawOn === false ? 0 : 1,
    });
    if (options.wallet !== false) {
      await t.db
        .updateTable('app_payment_methods')
        .set({ gas_address: wallet, gas_index: 1000 + serial })
        .where('id', '=', `apm_${tag}`)
        .execute();
    }
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${tag}`,
        app_id: appId,
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(options.abilities ?? ['withdrawals:write', 'accounts:write']),
        created_at: now,
      })
      .execute();
    return { appId, key: key.key, wallet, username };
  }

  /** A payer's transfer to `to` on the local BNB Smart Chain: USDT, or BNB with token null. */
  async function fund(to: string, amount: bigint, asset: 'USDT' | 'BNB') {
    await recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: asset === 'USDT' ? (specUsdt(56)?.contract ?? null) : null,
      to,
      amount,
      createdAt: t.clock().toISOString(),
    });
  }

  let idem = 0;
  const withdraw = (key: string, body: Record<string, unknown>, idempotencyKey?: string) => {
    idem += 1;
    return t.inject({
      method: 'POST',
      url: `${BASE}/withdrawals`,
      headers: {
        authorization: `Bearer ${key}`,
        'idempotency-key': idempotencyKey ?? `idem-${idem}`,
      },
      payload: { unique_id: 'payout-1', method: 'USDT-BEP20', to_address: TO, ...body },
    });
  };
  const get = (key: string, url: string) =>
    t.inject({ method: 'GET', url: `${BASE}${url}`, headers: { authorization: `Bearer ${key}` } });

  const rowOf = (id: string) =>
    t.db.selectFrom('send_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const eventsOf = (id: string) => eventTypesOf(t, id);

  it('reserves and queues a withdrawal (201), with its event, readable by id and in the list', async () => {
    const { appId, key, wallet } = await merchant();
    await fund(wallet, 25n * USDT, 'USDT');
    await fund(wallet, BNB / 100n, 'BNB');
    const res = await withdraw(key, {
      amount: '10.000000000000000001',
      to_address: TO.toLowerCase(),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      livemode: true,
      id: expect.stringMatching(/^wd_/),
      unique_id: 'payout-1',
      method: 'USDT-BEP20',
      chain_id: 56,
      from_address: wallet,
      // Stored in its EIP-55 form.
      to_address: TO,
      amount: '10.000000000000000001',
      status: 2,
      tx_hash: null,
      failure_reason: null,
      waiting_reason: null,
      created_at: t.clock().toISOString(),
      updated_at: t.clock().toISOString(),
    });
    const row = await rowOf(body.id);
    expect(row).toMatchObject({
      app_id: appId,
      payment_method_id: 'pm_usdt_bsc',
      status: 2,
      amount_raw: '10000000000000000001',
      amount_micro: 10_000_000,
      gas_reserve_raw: GAS_RESERVE.toString(),
      from_address: wallet,
      signed_tx: null,
      tx_hash: null,
      nonce: null,
      broadcast_at: null,
    });
    expect(await eventsOf(body.id)).toEqual(['withdrawal.queued']);
    const event = await t.db
      .selectFrom('webhook_events')
      .select('body')
      .where('resource_id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.body).data).toEqual(body);

    expect((await get(key, `/withdrawals/${body.id}`)).json()).toEqual(body);
    expect((await get(key, '/withdrawals/wd_nope')).statusCode).toBe(404);
    // A second later: the list's order is by time (ids break ties only).
    t.clock.advance(1_000);
    const second = await withdraw(key, { amount: '1', unique_id: 'payout-2' });
    expect(second.statusCode).toBe(201);
    const page1 = (await get(key, '/withdrawals?limit=1')).json();
    expect(page1.data.map((w: { unique_id: string }) => w.unique_id)).toEqual(['payout-2']);
    const page2 = (await get(key, `/withdrawals?limit=1&cursor=${page1.next_cursor}`)).json();
    expect(page2).toEqual({ data: [body], next_cursor: null });
    const filtered = (await get(key, '/withdrawals?unique_id=payout-1&status=2')).json();
    expect(filtered.data).toEqual([body]);
    expect((await get(key, '/withdrawals?status=1')).json().data).toEqual([]);
  });

  it('replays the first answer for a repeated Idempotency-Key, 422 with another body, 409 while running', async () => {
    const { appId, key, wallet } = await merchant();
    await fund(wallet, 25n * USDT, 'USDT');
    await fund(wallet, BNB / 100n, 'BNB');
    const first = await withdraw(key, { amount: '10' }, 'same-key');
    expect(first.statusCode).toBe(201);
    const replay = await withdraw(key, { amount: '10' }, 'same-key');
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    const count = await t.db
      .selectFrom('send_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);

    // The same fields in another order are the same request.
    const reordered = await t.inject({
      method: 'POST',
      url: `${BASE}/withdrawals`,
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'same-key' },
      payload: { amount: '10', to_address: TO, method: 'USDT-BEP20', unique_id: 'payout-1' },
    });
    expect(reordered.json()).toEqual(first.json());

    const reused = await withdraw(key, { amount: '11' }, 'same-key');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error).toEqual({
      code: 'invalid_request',
      doc_url: docUrl('invalid_request'),
      message: IDEMPOTENCY_KEY_REUSED,
      fields: { 'Idempotency-Key': [IDEMPOTENCY_KEY_REUSED] },
      request_id: REQUEST_ID,
    });

    // A first use still running (its lease ahead): a retry waits for it.
    await t.db
      .insertInto('idempotency_keys')
      .values({
        scope: `withdrawal:${appId}`,
        key: 'running-key',
        request_hash: createHash('sha256')
          .update(JSON.stringify(['payout-1', 'USDT-BEP20', TO, '1']))
          .digest('hex'),
        response_status: null,
        response_body: null,
        locked_until: t.clock().getTime() + 60_000,
        created_at: t.clock().getTime(),
      })
      .execute();
    const running = await withdraw(key, { amount: '1' }, 'running-key');
    expect(running.statusCode).toBe(409);
    expect(running.json().error).toMatchObject({
      code: 'conflict',
      message: IDEMPOTENCY_IN_FLIGHT,
    });

    // Another app's keys never meet this one's.
    const other = await merchant();
    await fund(other.wallet, 25n * USDT, 'USDT');
    await fund(other.wallet, BNB / 100n, 'BNB');
    const elsewhere = await withdraw(other.key, { amount: '10' }, 'same-key');
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().id).not.toBe(first.json().id);

    const missing = await t.inject({
      method: 'POST',
      url: `${BASE}/withdrawals`,
      headers: { authorization: `Bearer ${key}` },
      payload: { unique_id: 'p', method: 'USDT-BEP20', to_address: TO, amount: '1' },
    });
    expect(missing.statusCode).toBe(422);
  });

  it('refuses a refused request without keeping its key: a retry after funding runs afresh', async () => {
    const { key, wallet } = await merchant();
    await fund(wallet, BNB / 100n, 'BNB');
    const poor = await withdraw(key, { amount: '5' }, 'retry-key');
    expect(poor.statusCode).toBe(409);
    expect(poor.json().error.code).toBe('insufficient_balance');
    await fund(wallet, 5n * USDT, 'USDT');
    expect((await withdraw(key, { amount: '5' }, 'retry-key')).statusCode).toBe(201);
  });

  it('refuses an address whose checksum or form is wrong, and Tron methods as not supported yet', async () => {
    const { appId, key, wallet } = await merchant();
    await fund(wallet, 25n * USDT, 'USDT');
    await fund(wallet, BNB / 100n, 'BNB');
    const message = WITHDRAWAL_MSG.address('BNB Smart Chain');
    for (const to of [TO_BAD_CHECKSUM, '0x1234', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8']) {
      const res = await withdraw(key, { amount: '1', to_address: to });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toEqual({
        code: 'invalid_request',
        doc_url: docUrl('invalid_request'),
        message,
        fields: { to_address: [message] },
        request_id: REQUEST_ID,
      });
    }
    // All upper case carries no checksum claim: accepted.
    const upper = await withdraw(key, {
      amount: '1',
      to_address: `0x${TO.slice(2).toUpperCase()}`,
    });
    expect(upper.statusCode).toBe(201);
    expect(upper.json().to_address).toBe(TO);

    await t.db
      .insertInto('app_payment_methods')
      .values({
        id: `apm_tron_${appId}`,
        app_id: appId,
        payment_method_id: 'pm_usdt_tron',
        collect_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
        gas_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
        gas_index: 5000 + serial,
        deposit_status: 1,
        withdraw_status: 1,
        created_at: t.clock().toISOString(),
      })
      .execute();
    const tron = await withdraw(key, {
      method: 'USDT-TRC20',
      amount: '1',
      to_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    });
    expect(tron.statusCode).toBe(422);
    expect(tron.json().error.fields).toEqual({
      method: ['Withdrawals of USDT-TRC20 are not supported on this network yet (Tron).'],
    });
    // A Tron address with a broken checksum is refused as an address first.
    const badTron = await withdraw(key, {
      method: 'USDT-TRC20',
      amount: '1',
      to_address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv9',
    });
    expect(badTron.json().error.fields).toEqual({ to_address: [WITHDRAWAL_MSG.address('Tron')] });
  });

  it('refuses each unmet condition with its own message', async () => {
    const ok = await merchant();
    await fund(ok.wallet, 25n * USDT, 'USDT');
    const field = async (res: Awaited<ReturnType<typeof withdraw>>) => {
      expect(res.statusCode).toBe(422);
      return res.json().error.fields;
    };
    expect(await field(await withdraw(ok.key, { method: 'USDT-ERC20', amount: '1' }))).toEqual({
      method: ['The app has not enabled USDT-ERC20.'],
    });
    expect(await field(await withdraw(ok.key, { amount: '0.000' }))).toEqual({
      amount: [WITHDRAWAL_MSG.zero],
    });
    expect(await field(await withdraw(ok.key, { amount: '1.0000000000000000001' }))).toEqual({
      amount: ['USDT-BEP20 has 18 decimals: the amount has more.'],
    });

    const off = await merchant({ withdrawOn: false });
    expect(await field(await withdraw(off.key, { amount: '1' }))).toEqual({
      method: [WITHDRAWAL_MSG.switchedOff('USDT-BEP20')],
    });

    const open = await merchant({ whitelist: null });
    const noWhitelist = await withdraw(open.key, { amount: '1' });
    expect(noWhitelist.statusCode).toBe(403);
    expect(noWhitelist.json().error).toEqual({
      code: 'whitelist_required',
      doc_url: docUrl('whitelist_required'),
      message: WITHDRAWAL_MSG.whitelist,
      request_id: REQUEST_ID,
    });

    const unprovisioned = await merchant({ wallet: false });
    const notReady = await withdraw(unprovisioned.key, { amount: '1' });
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().error).toMatchObject({
      code: 'wallet_not_ready',
      message: WITHDRAWAL_MSG.walletNotReady('USDT-BEP20'),
    });

    // Token enough, no BNB for the fee.
    const noGas = await withdraw(ok.key, { amount: '1' });
    expect(noGas.statusCode).toBe(409);
    expect(noGas.json().error).toEqual({
      code: 'insufficient_gas',
      doc_url: docUrl('insufficient_gas'),
      message: `The operational wallet of USDT-BEP20 lacks BNB for the network fee: it holds 0 BNB, 0 BNB reserved for withdrawals not yet sent, and a withdrawal reserves 0.0005 BNB. Send BNB to ${ok.wallet}.`,
      request_id: REQUEST_ID,
    });
    await fund(ok.wallet, GAS_RESERVE, 'BNB');
    const tooMuch = await withdraw(ok.key, { amount: '25.5' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error).toEqual({
      code: 'insufficient_balance',
      doc_url: docUrl('insufficient_balance'),
      message:
        'The operational wallet of USDT-BEP20 holds 25 USDT, of which 0 USDT is reserved for withdrawals not yet sent: 25 USDT is available, 25.5 USDT was asked.',
      request_id: REQUEST_ID,
    });

    const readOnly = await merchant({ abilities: ['withdrawals:read'] });
    const forbidden = await withdraw(readOnly.key, { amount: '1' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('ability_missing');
    expect((await get(readOnly.key, '/withdrawals')).statusCode).toBe(200);
  });

  it('counts reserved withdrawals against the wallet, token and fee, so concurrent requests never overdraw', async () => {
    const { key, wallet } = await merchant();
    await fund(wallet, 30n * USDT, 'USDT');
    // Fees for four withdrawals: the token allows three of 10.
    await fund(wallet, 4n * GAS_RESERVE, 'BNB');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => withdraw(key, { amount: '10', unique_id: `c-${i}` })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409]);
    const refused = answers.find((a) => a.statusCode === 409)?.json().error;
    expect(refused).toMatchObject({
      code: 'insufficient_balance',
      message:
        'The operational wallet of USDT-BEP20 holds 30 USDT, of which 30 USDT is reserved for withdrawals not yet sent: 0 USDT is available, 10 USDT was asked.',
    });
    // The fee reserve is counted too: one fee is left for four withdrawals' worth.
    await fund(wallet, 2n * USDT, 'USDT');
    expect((await withdraw(key, { amount: '1', unique_id: 'g1' })).statusCode).toBe(201);
    const gas = await withdraw(key, { amount: '1', unique_id: 'g2' });
    expect(gas.json().error.code).toBe('insufficient_gas');
  });

  it('reserves a native coin withdrawal with its fee from the same balance', async () => {
    const { appId, key, wallet } = await merchant();
    await t.db
      .insertInto('app_payment_methods')
      .values({
        id: `apm_bnb_${appId}`,
        app_id: appId,
        payment_method_id: 'pm_bnb',
        collect_address: TO,
        gas_address: wallet,
        gas_index: 6000 + serial,
        deposit_status: 1,
        withdraw_status: 1,
        created_at: t.clock().toISOString(),
      })
      .execute();
    await fund(wallet, BNB, 'BNB');
    const all = await withdraw(key, { method: 'BNB-BSC', amount: '1' });
    expect(all.statusCode).toBe(409);
    expect(all.json().error.message).toBe(
      'The operational wallet of BNB-BSC holds 1 BNB, of which 0 BNB is reserved for withdrawals not yet sent: 1 BNB is available, 1.0005 BNB is needed (the amount and a 0.0005 BNB fee reserve).',
    );
    expect((await withdraw(key, { method: 'BNB-BSC', amount: '0.9995' })).statusCode).toBe(201);
    // The BNB is now all reserved: not even a USDT withdrawal's fee is left.
    await fund(wallet, 5n * USDT, 'USDT');
    expect((await withdraw(key, { amount: '1' })).json().error.code).toBe('insufficient_gas');
  });

  it('counts withdrawals against the package transaction limit; a cancelled one gives its place back', async () => {
    await tinyPackage('pkg_tiny_wd', 2);
    const m = await merchant({ packageId: 'pkg_tiny_wd' });
    await fund(m.wallet, 30n * USDT, 'USDT');
    await fund(m.wallet, BNB, 'BNB');
    const first = await withdraw(m.key, { amount: '1' });
    expect(first.statusCode).toBe(201);
    expect((await withdraw(m.key, { amount: '1' })).statusCode).toBe(201);
    const refused = await withdraw(m.key, { amount: '1' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toEqual({
      code: 'tnx_limit',
      doc_url: docUrl('tnx_limit'),
      message:
        "The Tiny pkg_tiny_wd package's transaction limit (tnx_limit 2) is used up: 2 transactions (credited deposits and withdrawals) this subscription. Upgrade the package to request withdrawals; deposits to existing addresses are still credited.",
      request_id: REQUEST_ID,
    });
    // Deposit accounts are refused as well: the same limit.
    const account = await t.inject({
      method: 'POST',
      url: `${BASE}/accounts`,
      headers: { authorization: `Bearer ${m.key}` },
      payload: { unique_id: 'cust-1', method: 'USDT-BEP20' },
    });
    expect(account.statusCode).toBe(402);
    // The dashboard counts them as the plan does.
    const headers = await t.authHeader(m.username);
    const dashboard = await t.call('getDashboard', { headers });
    expect(dashboard.json().data.subscription.transaction_used).toBe(2);

    await t.db
      .updateTable('send_transactions')
      .set({ status: 3 })
      .where('id', '=', first.json().id)
      .execute();
    const cancel = await t.call('cancelWithdraw', { params: { id: first.json().id }, headers });
    expect(cancel.statusCode).toBe(200);
    expect((await withdraw(m.key, { amount: '1' })).statusCode).toBe(201);
  });

  it('refuses a destination where the money is lost or never seen again, naming to_address and why', async () => {
    const m = await merchant();
    await fund(m.wallet, 25n * USDT, 'USDT');
    await fund(m.wallet, BNB / 100n, 'BNB');
    // The app's BNB method has an operational wallet of its own.
    const bnbWallet = `0x${'b'.repeat(8)}${serial.toString(16).padStart(32, '0')}`;
    await t.db
      .insertInto('app_payment_methods')
      .values({
        id: `apm_bnb_${m.appId}`,
        app_id: m.appId,
        payment_method_id: 'pm_bnb',
        collect_address: TO,
        gas_address: bnbWallet,
        gas_index: 7000 + serial,
        deposit_status: 1,
        withdraw_status: 1,
        created_at: t.clock().toISOString(),
      })
      .execute();
    const openAccount = async (key: string, uniqueId: string) => {
      const res = await t.inject({
        method: 'POST',
        url: `${BASE}/accounts`,
        headers: { authorization: `Bearer ${key}` },
        payload: { unique_id: uniqueId, method: 'USDT-BEP20' },
      });
      expect(res.statusCode).toBe(201);
      return res.json().address as string;
    };
    const ownAccount = await openAccount(m.key, 'customer-1');
    const refusals: [string, string][] = [
      [
        '0x0000000000000000000000000000000000000000',
        'to_address is the zero address: coins and tokens sent there are lost.',
      ],
      [
        '0x55d398326f99059fF775485246999027B3197955',
        "to_address is USDT-BEP20's own token contract: tokens sent there are lost.",
      ],
      [
        '0x55d398326f99059ff775485246999027b3197955',
        "to_address is USDT-BEP20's own token contract: tokens sent there are lost.",
      ],
      [
        m.wallet,
        "to_address is one of this app's own operational wallets: a withdrawal there pays the network fee and sends nothing out.",
      ],
      [
        bnbWallet.toUpperCase().replace('0X', '0x'),
        "to_address is one of this app's own operational wallets: a withdrawal there pays the network fee and sends nothing out.",
      ],
      [
        ownAccount.toLowerCase(),
        "to_address is one of this app's own deposit accounts: a payment from its operational wallet is not a deposit, and would stay there, never credited nor swept.",
      ],
    ];
    for (const [to, message] of refusals) {
      const res = await withdraw(m.key, { amount: '1', to_address: to });
      expect([to, res.statusCode, res.json().error]).toEqual([
        to,
        422,
        expect.objectContaining({
          code: 'invalid_request',
          doc_url: docUrl('invalid_request'),
          message,
          fields: { to_address: [message] },
          request_id: REQUEST_ID,
        }),
      ]);
    }
    const none = await t.db
      .selectFrom('send_transactions')
      .select('id')
      .where('app_id', '=', m.appId)
      .execute();
    expect(none).toEqual([]);
    // Another app's deposit account is a customer's like any other.
    const other = await merchant();
    const theirs = await openAccount(other.key, 'customer-1');
    expect((await withdraw(m.key, { amount: '1', to_address: theirs })).statusCode).toBe(201);
  });

  it('refuses a withdrawal while a changed whitelist or payout address is held: 409 settings_hold with its end, nothing created or counted', async () => {
    const m = await merchant();
    await fund(m.wallet, 25n * USDT, 'USDT');
    await fund(m.wallet, BNB / 100n, 'BNB');
    expect((await withdraw(m.key, { amount: '1' })).statusCode).toBe(201);
    const headers = await t.authHeader(m.username);
    const used = async () =>
      (await t.call('getDashboard', { headers })).json().data.subscription.transaction_used;
    const rows = async () =>
      (
        await t.db
          .selectFrom('send_transactions')
          .select('id')
          .where('app_id', '=', m.appId)
          .execute()
      ).length;
    expect([await used(), await rows()]).toEqual([1, 1]);

    // The merchant adds a server to the whitelist in the portal: a change, held for 24 h.
    const changed = await t.call('updateApp', {
      headers,
      body: {
        app_id: m.appId,
        app_name: m.appId,
        project_url: 'https://example.com',
        whitelist_ip: '127.0.0.1,203.0.113.7',
        status: 1,
      },
    });
    expect(changed.statusCode).toBe(200);
    const whitelistEnd = new Date(t.clock().getTime() + 24 * 3_600_000).toISOString();
    const held = await withdraw(m.key, { amount: '1' }, 'held-key');
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toMatchObject({
      code: 'settings_hold',
      doc_url: docUrl('settings_hold'),
      message: `The app's settings were changed (its IP whitelist or a payout address): withdrawals are held until ${whitelistEnd}.`,
      hold_until: whitelistEnd,
      request_id: REQUEST_ID,
    });
    expect([await used(), await rows()]).toEqual([1, 1]);

    // An hour on, the payout address changes too: the later end holds.
    t.clock.advance(3_600_000);
    const payout = await t.call('updatePaymentMethod', {
      headers: await t.authHeader(m.username),
      body: {
        id: `apm_wd${serial}`,
        user_app_id: m.appId,
        type: 'address',
        collect_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      },
    });
    expect(payout.statusCode).toBe(200);
    const payoutEnd = new Date(t.clock().getTime() + 24 * 3_600_000).toISOString();
    const later = await withdraw(m.key, { amount: '1' }, 'held-key');
    expect(later.statusCode).toBe(409);
    expect(later.json().error).toMatchObject({ code: 'settings_hold', hold_until: payoutEnd });
    expect(await rows()).toBe(1);

    // Once it ends, the same request (its key was kept for nothing) is accepted.
    t.clock.advance(24 * 3_600_000);
    expect((await withdraw(m.key, { amount: '1' }, 'held-key')).statusCode).toBe(201);
    expect(await rows()).toBe(2);
  });

  describe("the portal's Cancel and Reinitiate", () => {
    /** A queued withdrawal of 10 USDT from a wallet holding 15 and fees for three. */
    async function queued() {
      const m = await merchant();
      await fund(m.wallet, 15n * USDT, 'USDT');
      await fund(m.wallet, 3n * GAS_RESERVE, 'BNB');
      const res = await withdraw(m.key, { amount: '10' });
      expect(res.statusCode).toBe(201);
      return { ...m, id: res.json().id as string, headers: await t.authHeader(m.username) };
    }
    const act = (
      op: 'cancelWithdraw' | 'requeueWithdraw',
      id: string,
      headers: { authorization: string },
    ) => t.call(op, { params: { id }, headers });
    /** The signer's steps, as it makes them (docs/operations.md: The signer). */
    const take = (id: string) =>
      t.db
        .transaction()
        .execute((trx) => moveWithdrawal(trx, { id, from: [2], to: 3, now: t.clock() }));
    const sign = (id: string) =>
      t.db
        .updateTable('send_transactions')
        .set({ signed_tx: '0x02f8aa', tx_hash: `0x${'ab'.repeat(32)}`, nonce: 7 })
        .where('id', '=', id)
        .where('status', '=', 3)
        .where('signed_tx', 'is', null)
        .execute();
    const fail = (id: string, reason: string, from: 3 | 5 = 3) =>
      t.db.transaction().execute((trx) =>
        moveWithdrawal(trx, {
          id,
          from: [from],
          to: 6,
          set: { failure_reason: reason },
          now: t.clock(),
        }),
      );

    it('cancels a withdrawal taken but not signed, releasing its reservation', async () => {
      const w = await queued();
      expect(await take(w.id)).toBe(true);
      expect((await withdraw(w.key, { amount: '10' })).statusCode).toBe(409);
      const res = await act('cancelWithdraw', w.id, w.headers);
      expect(res.json()).toEqual(coded({ status: true, msg: 'Withdrawal cancelled successfully' }));
      expect((await rowOf(w.id)).status).toBe(7);
      expect(await eventsOf(w.id)).toEqual([
        'withdrawal.queued',
        'withdrawal.processing',
        'withdrawal.cancelled',
      ]);
      expect((await withdraw(w.key, { amount: '10' })).statusCode).toBe(201);
      // Cancelled ends it: neither action applies again.
      expect((await act('cancelWithdraw', w.id, w.headers)).statusCode).toBe(409);
      expect((await act('requeueWithdraw', w.id, w.headers)).statusCode).toBe(409);
    });

    it('refuses to cancel once a transaction is signed, until it failed on chain', async () => {
      const w = await queued();
      await take(w.id);
      await sign(w.id);
      const signed = await act('cancelWithdraw', w.id, w.headers);
      expect(signed.statusCode).toBe(409);
      expect(signed.json().msg).toBe(WITHDRAWAL_MSG.signed);
      // The portal's refusal names its code, for a client in another language.
      expect(signed.json().codes).toEqual({ msg: { code: 'withdrawal.signed' } });
      expect((await rowOf(w.id)).status).toBe(3);

      await t.db
        .updateTable('send_transactions')
        .set({ broadcast_at: t.clock().toISOString() })
        .where('id', '=', w.id)
        .execute();
      await fail(w.id, 'dropped');
      // Broadcast, not failed on chain: it may still be mined, and its reservation holds.
      expect((await act('cancelWithdraw', w.id, w.headers)).json().msg).toBe(WITHDRAWAL_MSG.signed);
      expect((await act('requeueWithdraw', w.id, w.headers)).json().msg).toBe(
        WITHDRAWAL_MSG.broadcast,
      );
      expect((await withdraw(w.key, { amount: '10' })).statusCode).toBe(409);

      await t.db
        .updateTable('send_transactions')
        .set({ failure_reason: FAILED_ON_CHAIN })
        .where('id', '=', w.id)
        .execute();
      expect((await act('cancelWithdraw', w.id, w.headers)).statusCode).toBe(200);
      expect((await rowOf(w.id)).status).toBe(7);
    });

    it('re-initiates a withdrawal that failed on chain afresh, and one never broadcast with its signed bytes', async () => {
      const w = await queued();
      await take(w.id);
      await sign(w.id);
      await t.db
        .updateTable('send_transactions')
        .set({ broadcast_at: t.clock().toISOString() })
        .where('id', '=', w.id)
        .execute();
      await fail(w.id, FAILED_ON_CHAIN);
      const res = await act('requeueWithdraw', w.id, w.headers);
      expect(res.json()).toEqual(
        coded({ status: true, msg: 'Withdrawal re-initiated successfully' }),
      );
      expect(await rowOf(w.id)).toMatchObject({
        status: 2,
        signed_tx: null,
        tx_hash: null,
        nonce: null,
        broadcast_at: null,
        failure_reason: null,
      });
      expect((await eventsOf(w.id)).slice(-2)).toEqual(['withdrawal.failed', 'withdrawal.queued']);

      // Signed, never broadcast (the signer stopped in between): queued again with the same
      // bytes, which the signer sends as they are.
      await take(w.id);
      await sign(w.id);
      const again = await act('requeueWithdraw', w.id, w.headers);
      expect(again.statusCode).toBe(200);
      expect(await rowOf(w.id)).toMatchObject({ status: 2, signed_tx: '0x02f8aa', nonce: 7 });
    });

    it('re-takes the reservation of an Unsuccessful withdrawal only if the wallet covers it', async () => {
      const w = await queued();
      await take(w.id);
      await fail(w.id, 'insufficient_gas');
      // Released: another withdrawal takes the balance meanwhile.
      const other = await withdraw(w.key, { amount: '10' });
      expect(other.statusCode).toBe(201);
      const refused = await act('requeueWithdraw', w.id, w.headers);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().msg).toBe(
        'The operational wallet of USDT-BEP20 holds 15 USDT, of which 10 USDT is reserved for withdrawals not yet sent: 5 USDT is available, 10 USDT was asked.',
      );
      expect((await rowOf(w.id)).status).toBe(6);
      await fund(w.wallet, 5n * USDT, 'USDT');
      expect((await act('requeueWithdraw', w.id, w.headers)).statusCode).toBe(200);
      expect((await rowOf(w.id)).status).toBe(2);
    });

    it('shows the signer’s tx hash in the Send list', async () => {
      const w = await queued();
      await take(w.id);
      await sign(w.id);
      const details = await t.call('getAppDetails', {
        params: { id: w.appId },
        headers: w.headers,
      });
      expect(details.json().data.send.data[0]).toMatchObject({
        id: w.id,
        thash: `0x${'ab'.repeat(32)}`,
        amount: 10,
        status: 3,
      });
    });
  });
});
