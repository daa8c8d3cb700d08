import { addUser } from '../../test/accounts';
import { insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import { watchDeposits } from '../domain/payments/deposits';
import { setTableRate } from '../domain/rates/table';
import { gasBalanceReader } from '../domain/chain/balances';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { COUNTED_TABLES, derivedRowCount, rowCount } from '../domain/maintainedCounts';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { localChains } from '../domain/payments/testDeposits';
import { requestWithdrawal } from '../domain/payments/withdrawals';
import { fundTestWallet } from '../domain/testMode/funding';
import { requestSigner } from '../signer/client/requestMac';
import type { SpecChainId } from '../domain/chain/specChains';
import { coded } from '../../test/expectations';

// Test mode as a merchant meets it: the portal opens an app's test mode (a test app of its own,
// its methods on the test networks), App Keys makes csl_test_ keys for it, and those keys see
// and make only test objects, which a live key never sees. The test helpers pay test invoices
// through the real watcher and state machine, and nothing of it reaches the live figures.

const BASE = '/gateway/v1';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_PAYOUT = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

describe('test mode', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  /**
   * A merchant signed in, with an app taking USDT (BEP20), and TRX when `tron`, and its test
   * mode opened.
   */
  async function merchant({ subscribed = true, tron = false } = {}) {
    serial += 1;
    const username = `tester${serial}`;
    const userId = await addUser(t, username);
    if (subscribed) await insertSubscription(t, userId);
    const headers = await t.authHeader(username);
    const created = await t.call('createApp', {
      headers,
      body: { app_name: `Shop ${serial}`, project_url: 'https://shop.example.com' },
    });
    const liveId = created.json().app.id as string;
    const used = await t.call('usePaymentMethod', {
      headers,
      body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
    });
    expect(used.statusCode).toBe(200);
    if (tron) {
      const trx = await t.call('usePaymentMethod', {
        headers,
        body: { payment_method_id: 'pm_trx', collect_address: TRON_PAYOUT, user_app_id: liveId },
      });
      expect(trx.statusCode).toBe(200);
    }
    const opened = await t.call('openTestMode', { headers, params: { id: liveId } });
    expect(opened.statusCode).toBe(200);
    const testId = opened.json().app.id as string;
    const keyOf = async (appId: string) => {
      const res = await t.call('generateApiKey', {
        headers,
        body: {
          token_name: 'Server',
          app_id: appId,
          abilities: ['methods:read', 'accounts:write', 'deposits:read', 'invoices:write'],
        },
      });
      expect(res.statusCode).toBe(200);
      return res.json().token as string;
    };
    return { headers, liveId, testId, liveKey: await keyOf(liveId), testKey: await keyOf(testId) };
  }

  const send = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
    t.inject({
      method,
      url: `${BASE}${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload }),
    });

  const watch = (chainId: SpecChainId) =>
    watchDeposits(t.db, chainAdapterFor(t.config, t.db, chainId), t.clock());

  it('is a test app of its own: csl_test_ keys, methods on the test networks, not an app in the list', async () => {
    const { headers, liveId, testId, testKey, liveKey } = await merchant();
    expect(liveKey).toMatch(/^csl_live_/);
    expect(testKey).toMatch(/^csl_test_/);
    // Opened again, it is the same test app.
    const again = await t.call('openTestMode', { headers, params: { id: liveId } });
    expect(again.json().app).toMatchObject({ id: testId, livemode: false, live_app_id: liveId });
    const apps = (await t.call('getApps', { headers })).json().data as { id: string }[];
    expect(apps).toEqual([
      expect.objectContaining({ id: liveId, livemode: true, test_app_id: testId }),
    ]);
    const details = (await t.call('getAppDetails', { headers, params: { id: testId } })).json()
      .data;
    expect(details.app_data).toMatchObject({ id: testId, livemode: false });
    const networks = new Set(
      (details.all_payment_methods as { network_name: string }[]).map((m) => m.network_name),
    );
    expect([...networks].sort()).toEqual([
      'BNB Smart Chain Testnet',
      'Polygon Amoy',
      'Sepolia',
      'Tron Nile',
    ]);
    expect(details.user_payment_methods).toEqual([
      expect.objectContaining({ payment_method_id: 'pm_usdt_bsc_test', collect_address: PAYOUT }),
    ]);
    // The methods a test key reads are the test networks'.
    const methods = (await send('GET', '/methods', testKey)).json().data;
    expect(methods).toEqual([expect.objectContaining({ code: 'USDT-BEP20', chain_id: 97 })]);
  });

  it('keeps the modes apart: a key sees and makes only its own mode, the other’s ids are 404', async () => {
    const { liveKey, testKey } = await merchant();
    const order = { amount: '10', currency: 'USD' };
    const test = await send('POST', '/invoices', testKey, order);
    const live = await send('POST', '/invoices', liveKey, order);
    expect(test.statusCode).toBe(201);
    expect(live.statusCode).toBe(201);
    expect(test.json()).toMatchObject({
      livemode: false,
      payment_options: [expect.objectContaining({ method: 'USDT-BEP20', chain_id: 97 })],
    });
    expect(live.json()).toMatchObject({
      livemode: true,
      payment_options: [expect.objectContaining({ method: 'USDT-BEP20', chain_id: 56 })],
    });
    expect((await send('GET', `/invoices/${test.json().id}`, liveKey)).statusCode).toBe(404);
    expect((await send('GET', `/invoices/${live.json().id}`, testKey)).statusCode).toBe(404);
    const listed = (key: string) =>
      send('GET', '/invoices', key).then((res) => res.json().data.map((i: { id: string }) => i.id));
    expect(await listed(testKey)).toEqual([test.json().id]);
    expect(await listed(liveKey)).toEqual([live.json().id]);
    const account = await send('POST', '/accounts', testKey, {
      unique_id: 'buyer-1',
      method: 'USDT-BEP20',
    });
    expect(account.json()).toMatchObject({ chain_id: 97, livemode: false });
    expect((await send('GET', '/accounts/buyer-1', liveKey)).statusCode).toBe(404);
    expect((await send('GET', '/accounts/buyer-1', testKey)).json().data).toEqual([
      expect.objectContaining({ chain_id: 97, livemode: false }),
    ]);
  });

  it('pays test invoices through the watcher and the state machine, with livemode false events', async () => {
    // Test mode needs no package: integrating comes before subscribing.
    const { headers, testKey, testId, liveKey } = await merchant({ subscribed: false });
    const unpaid = await send('POST', '/invoices', liveKey, { amount: '10', currency: 'USD' });
    expect(unpaid.json().error.code).toBe('no_package');
    const invoice = async () =>
      (await send('POST', '/invoices', testKey, { amount: '10', currency: 'USD' })).json();
    const simulate = (body: object) => send('POST', '/test/payments', testKey, body);
    const status = async (id: string) => (await send('GET', `/invoices/${id}`, testKey)).json();

    const full = await invoice();
    const paid = await simulate({ invoice_id: full.id, scenario: 'full' });
    expect(paid.statusCode).toBe(201);
    expect(paid.json()).toMatchObject({
      scenario: 'full',
      method: 'USDT-BEP20',
      chain_id: 97,
      amount: '10',
      confirmations: 15,
      livemode: false,
    });
    await watch(97);
    expect(await status(full.id)).toMatchObject({ status: 'processing', livemode: false });
    const confirmed = await send('POST', '/test/confirm', testKey, {
      payment: paid.json().tx_hash,
    });
    expect(confirmed.json()).toMatchObject({ chain_id: 97, mined: 15, livemode: false });
    await watch(97);
    expect(await status(full.id)).toMatchObject({ status: 'settled', exceptions: [] });

    const partial = await invoice();
    const half = await simulate({ invoice_id: partial.id, scenario: 'partial' });
    expect(half.json().amount).toBe('5');
    await send('POST', '/test/confirm', testKey, { payment: half.json().tx_hash });
    await watch(97);
    expect(await status(partial.id)).toMatchObject({ status: 'new' });

    const over = await invoice();
    const more = await simulate({ invoice_id: over.id, scenario: 'over' });
    expect(more.json().amount).toBe('11');
    await send('POST', '/test/confirm', testKey, { payment: more.json().tx_hash });
    await watch(97);
    expect(await status(over.id)).toMatchObject({ status: 'settled', exceptions: ['paid_over'] });

    const late = await invoice();
    const after = await simulate({ invoice_id: late.id, scenario: 'late' });
    await send('POST', '/test/confirm', testKey, { payment: after.json().tx_hash });
    await watch(97);
    expect(await status(late.id)).toMatchObject({ status: 'settled', exceptions: ['paid_late'] });

    // A reorg takes the payment off the chain while its confirmations arrive: back to new.
    const shaky = await invoice();
    const lost = await simulate({ invoice_id: shaky.id, scenario: 'reorg' });
    expect(lost.json()).toMatchObject({ scenario: 'reorg', amount: '10', chain_id: 97 });
    await watch(97);
    expect(await status(shaky.id)).toMatchObject({ status: 'processing' });
    const chain = chainAdapterFor(t.config, t.db, 97);
    const block = lost.json().block_number as number;
    const before = [await chain.blockHash(block - 1), await chain.blockHash(block)];
    const reorged = await send('POST', '/test/confirm', testKey, { payment: lost.json().tx_hash });
    // The branch that won: the same blocks below the payment's, others from it on.
    expect(await chain.blockHash(block - 1)).toBe(before[0]);
    expect(await chain.blockHash(block)).not.toBe(before[1]);
    expect(reorged.json()).toMatchObject({ chain_id: 97, mined: 15 });
    await watch(97);
    expect(await status(shaky.id)).toMatchObject({
      status: 'new',
      paid: '0.00',
      payments: [expect.objectContaining({ tx_hash: lost.json().tx_hash, status: 'removed' })],
    });
    // Gone from the chain: nothing left to confirm.
    const again = await send('POST', '/test/confirm', testKey, { payment: lost.json().tx_hash });
    expect(again.statusCode).toBe(404);

    const stray = await invoice();
    const elsewhere = await simulate({ invoice_id: stray.id, scenario: 'wrong_network' });
    expect(elsewhere.json()).toMatchObject({
      method: 'USDT-ERC20',
      chain_id: 11155111,
      amount: '10',
    });
    await watch(11155111);
    expect((await status(stray.id)).payments).toEqual([
      expect.objectContaining({ method: 'USDT-ERC20', flag: 'wrong_network' }),
    ]);

    // Every event of the test app says so, envelope and object.
    const events = await t.db
      .selectFrom('webhook_events')
      .select('body')
      .where('app_id', '=', testId)
      .execute();
    expect(events.length).toBeGreaterThan(0);
    for (const { body } of events) {
      expect(JSON.parse(body)).toMatchObject({ livemode: false, data: { livemode: false } });
    }
    // Nothing of it in the live figures.
    const dashboard = (await t.call('getDashboard', { headers })).json().data;
    expect(dashboard).toMatchObject({ total_transaction: 0, daily_transaction: 0 });
  });

  it('answers Tron Nile as chain id -1 in methods, accounts and invoices', async () => {
    await setTableRate(t.db, { pair: 'TRX/USD', rate: '0.25', maxAgeHours: 24, now: t.clock() });
    const { testKey } = await merchant({ tron: true });
    const methods = await send('GET', '/methods', testKey);
    expect(methods.statusCode).toBe(200);
    expect(methods.json().data).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'TRX-TRON', chain_id: -1 })]),
    );
    const invoice = await send('POST', '/invoices', testKey, { amount: '10', currency: 'USD' });
    expect(invoice.statusCode).toBe(201);
    expect(invoice.json().payment_options.map((o: { chain_id: number }) => o.chain_id)).toEqual([
      97, -1,
    ]);
  });

  it('refuses the test helpers to live keys, bad targets with their reasons, and more than 30 a minute', async () => {
    const { liveKey, testKey } = await merchant();
    const live = await send('POST', '/test/payments', liveKey, {
      invoice_id: 'x',
      scenario: 'full',
    });
    expect(live.statusCode).toBe(403);
    expect(live.json().error).toMatchObject({
      code: 'test_mode_only',
      message: 'Payments are simulated in test mode only: use a test key (csl_test_…).',
    });
    const liveConfirm = await send('POST', '/test/confirm', liveKey, { payment: '0x00' });
    expect(liveConfirm.json().error.code).toBe('test_mode_only');

    // A live invoice is another app's to the test key.
    const liveInvoice = (
      await send('POST', '/invoices', liveKey, { amount: '1', currency: 'USD' })
    ).json();
    const other = await send('POST', '/test/payments', testKey, {
      invoice_id: liveInvoice.id,
      scenario: 'full',
    });
    expect(other.statusCode).toBe(404);
    const none = await send('POST', '/test/payments', testKey, { scenario: 'full' });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.fields).toEqual({
      invoice_id: ['Send the invoice_id or the address to pay.'],
    });
    const account = (
      await send('POST', '/accounts', testKey, { unique_id: 'b', method: 'USDT-BEP20' })
    ).json();
    const priceless = await send('POST', '/test/payments', testKey, {
      address: account.address,
      scenario: 'partial',
    });
    expect(priceless.json().error.fields).toEqual({
      scenario: [
        'An account has no price: simulate full or wrong_network, with the amount to send.',
      ],
    });
    const deposit = await send('POST', '/test/payments', testKey, {
      address: account.address,
      scenario: 'full',
      amount: '25.5',
    });
    expect(deposit.json()).toMatchObject({ invoice_id: null, amount: '25.5', chain_id: 97 });
    await watch(97);
    const deposits = (await send('GET', '/deposits', testKey)).json().data;
    expect(deposits).toEqual([
      expect.objectContaining({ amount: '25.5', chain_id: 97, status: 0, livemode: false }),
    ]);

    // 30 helper calls a minute per key (four made above), then 429 until the minute ends.
    let last = 0;
    for (let i = 0; i < 26; i += 1) {
      last = (await send('POST', '/test/confirm', testKey, { payment: deposit.json().tx_hash }))
        .statusCode;
    }
    expect(last).toBe(200);
    const limited = await send('POST', '/test/confirm', testKey, {
      payment: deposit.json().tx_hash,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  describe('Delete test data', () => {
    const deleteData = (headers: Record<string, string>, id: string) =>
      t.call('deleteTestData', { headers, params: { id } });

    it('clears the test app’s objects, keeps its keys and live data, and never hands an address out again', async () => {
      const { headers, liveId, testId, liveKey, testKey } = await merchant();
      const liveInvoice = (
        await send('POST', '/invoices', liveKey, { amount: '10', currency: 'USD' })
      ).json();
      const account = (
        await send('POST', '/accounts', testKey, { unique_id: 'buyer-1', method: 'USDT-BEP20' })
      ).json();
      const invoice = (
        await send('POST', '/invoices', testKey, { amount: '10', currency: 'USD' })
      ).json();
      const paid = await send('POST', '/test/payments', testKey, {
        invoice_id: invoice.id,
        scenario: 'full',
      });
      await send('POST', '/test/confirm', testKey, { payment: paid.json().tx_hash });
      await watch(97);
      expect((await send('GET', `/invoices/${invoice.id}`, testKey)).json().status).toBe('settled');

      const live = await deleteData(headers, liveId);
      expect(live.statusCode).toBe(403);
      expect(live.json().msg).toBe('Only test data can be deleted: this app is live.');
      const stranger = await merchant();
      expect((await deleteData(stranger.headers, testId)).statusCode).toBe(404);

      const deleted = await deleteData(headers, testId);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual(
        coded({
          status: true,
          msg: 'Test data deleted',
          data: {
            accounts: 1,
            invoices: 1,
            deposits: 1,
            withdrawals: 0,
            refunds: 0,
            payment_links: 0,
            webhook_events: expect.any(Number),
            api_logs: expect.any(Number),
          },
        }),
      );
      expect(deleted.json().data.webhook_events).toBeGreaterThan(0);

      // The test key still works, and finds nothing of before.
      expect((await send('GET', `/invoices/${invoice.id}`, testKey)).statusCode).toBe(404);
      expect((await send('GET', '/invoices', testKey)).json().data).toEqual([]);
      expect((await send('GET', '/accounts/buyer-1', testKey)).statusCode).toBe(404);
      expect((await send('GET', '/deposits', testKey)).json().data).toEqual([]);
      // Live data is untouched.
      expect((await send('GET', `/invoices/${liveInvoice.id}`, liveKey)).statusCode).toBe(200);
      // The counts the lists page by are exact, and Usage starts again at zero.
      for (const kind of COUNTED_TABLES.filter((k) => k !== 'ledger_entries')) {
        const derived = await derivedRowCount(t.db, kind, testId);
        expect([kind, await rowCount(t.db, kind, testId)]).toEqual([kind, derived]);
        // The calls since (and any still being logged) are in the API Logs again.
        if (kind !== 'api_logs') expect([kind, derived]).toEqual([kind, 0]);
      }
      const usage = await t.db
        .selectFrom('app_daily_usage')
        .select('app_id')
        .where('app_id', '=', testId)
        .execute();
      expect(usage).toEqual([]);

      // A payer may still send to a deleted address: it is never handed out again.
      const again = (
        await send('POST', '/accounts', testKey, { unique_id: 'buyer-1', method: 'USDT-BEP20' })
      ).json();
      expect(again.address).not.toBe(account.address);
      const next = (
        await send('POST', '/invoices', testKey, { amount: '10', currency: 'USD' })
      ).json();
      expect(next.payment_options[0].address).not.toBe(invoice.payment_options[0].address);
    });

    it('refuses while a test withdrawal is on its way, deleting nothing', async () => {
      const { headers, testId, testKey } = await merchant();
      const userId = (
        await t.db
          .selectFrom('apps')
          .select('user_id')
          .where('id', '=', testId)
          .executeTakeFirstOrThrow()
      ).user_id;
      const invoice = (
        await send('POST', '/invoices', testKey, { amount: '10', currency: 'USD' })
      ).json();
      await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
      await fundTestWallet(t.db, localChains(t.config, t.db), userId, {
        appId: testId,
        paymentMethodId: 'pm_usdt_bsc_test',
        now: t.clock(),
      });
      await t.db
        .updateTable('apps')
        .set({ whitelist_ip: '127.0.0.1' })
        .where('id', '=', testId)
        .execute();
      await t.db
        .updateTable('app_payment_methods')
        .set({ withdraw_status: 1 })
        .where('app_id', '=', testId)
        .execute();
      const withdrawal = await requestWithdrawal(
        t.db,
        (db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 97), db),
        {
          appId: testId,
          uniqueId: 'payout-1',
          code: 'USDT-BEP20',
          toAddress: PAYOUT,
          amount: '5',
          now: t.clock(),
          sign: requestSigner(t.config.signerRequestKey),
        },
      );
      expect(withdrawal.status).toBe(2);
      const refused = await deleteData(headers, testId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().msg).toBe(
        'A test withdrawal or refund is on its way: delete test data once it has completed, failed or been cancelled.',
      );
      expect((await send('GET', `/invoices/${invoice.id}`, testKey)).statusCode).toBe(200);
    });
  });
});
