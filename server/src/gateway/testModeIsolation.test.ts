import { addUser } from '../../test/accounts';
import { insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { TOKEN_PERMISSIONS } from '../domain/apps/apiKeys';
import { chainAdapterFor } from '../domain/chain';
import { localBalance, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { watchDeposits } from '../domain/payments/deposits';
import { localChains } from '../domain/payments/testDeposits';
import { fundTestWallet } from '../domain/testMode/funding';

// Test mode's isolation rules, one test each: what a test key reaches of live objects, what a
// live key reaches of test ones, and where a test key's money can move. The merchant has both
// modes full of objects: invoices, accounts, deposits, withdrawals, payment links and events.

const BASE = '/gateway/v1';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SUPPLIER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
/** Every ability a key can hold: the isolation is the app's, whatever the key may do. */
const ALL = TOKEN_PERMISSIONS.map((p) => p.value);
const WEI = 10n ** 18n;

describe('test mode isolation', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  const send = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
    t.inject({
      method,
      url: `${BASE}${url}`,
      headers: {
        authorization: `Bearer ${key}`,
        ...(method === 'POST' ? { 'idempotency-key': `k-${(serial += 1)}` } : {}),
      },
      ...(payload === undefined ? {} : { payload }),
    });

  /** One mode's objects, made through the gateway with that mode's key. */
  async function objects(key: string, mode: 'live' | 'test') {
    const invoice = (
      await send('POST', '/invoices', key, {
        amount: '10',
        currency: 'USD',
        methods: ['USDT-BEP20'],
      })
    ).json();
    const account = (
      await send('POST', '/accounts', key, { unique_id: `buyer-${mode}`, method: 'USDT-BEP20' })
    ).json();
    const link = (
      await send('POST', '/payment-links', key, {
        title: 'Blue mug',
        amount: '25.00',
        currency: 'USD',
        methods: ['USDT-BEP20'],
      })
    ).json();
    const withdrawal = await send('POST', '/withdrawals', key, {
      unique_id: `payout-${mode}`,
      method: 'USDT-BEP20',
      to_address: SUPPLIER,
      amount: '5',
    });
    expect(withdrawal.statusCode).toBe(201);
    return { invoice, account, link, withdrawal: withdrawal.json() };
  }

  /** A merchant with both modes: keys, funded operational wallets, and objects in each. */
  async function merchant() {
    serial += 1;
    const username = `isolated${serial}`;
    const userId = await addUser(t, username);
    await insertSubscription(t, userId);
    const headers = await t.authHeader(username);
    const liveId = (
      await t.call('createApp', {
        headers,
        body: {
          app_name: `Shop ${serial}`,
          project_url: 'https://shop.example.com',
          whitelist_ip: '127.0.0.1',
        },
      })
    ).json().app.id as string;
    await t.call('usePaymentMethod', {
      headers,
      body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
    });
    const testId = (await t.call('openTestMode', { headers, params: { id: liveId } })).json().app
      .id as string;
    await t.db
      .updateTable('apps')
      .set({ whitelist_ip: '127.0.0.1' })
      .where('id', '=', testId)
      .execute();
    for (const appId of [liveId, testId]) {
      await t.db
        .updateTable('app_payment_methods')
        .set({ withdraw_status: 1 })
        .where('app_id', '=', appId)
        .execute();
    }
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const gasOf = async (appId: string) =>
      (
        await t.db
          .selectFrom('app_payment_methods')
          .select('gas_address')
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).gas_address ?? '';
    // The live wallet holds real money (here, on the live chain's local stand-in).
    const liveGas = await gasOf(liveId);
    for (const token of [specUsdt(56)?.contract ?? null, null]) {
      await recordLocalChainTransfer(t.db, {
        chainId: 56,
        token,
        to: liveGas,
        amount: 100n * WEI,
        createdAt: t.clock().toISOString(),
      });
    }
    await fundTestWallet(t.db, localChains(t.config, t.db), userId, {
      appId: testId,
      paymentMethodId: 'pm_usdt_bsc_test',
      now: t.clock(),
    });
    const keyOf = async (appId: string) =>
      (
        await t.call('generateApiKey', {
          headers,
          body: { token_name: 'Server', app_id: appId, abilities: ALL },
        })
      ).json().token as string;
    const liveKey = await keyOf(liveId);
    const testKey = await keyOf(testId);
    const live = await objects(liveKey, 'live');
    const test = await objects(testKey, 'test');
    // A deposit in each mode, seen by its chain's watcher.
    await recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: specUsdt(56)?.contract ?? null,
      to: live.account.address,
      amount: 7n * WEI,
      createdAt: t.clock().toISOString(),
    });
    await send('POST', '/test/payments', testKey, {
      address: test.account.address,
      scenario: 'full',
      amount: '7',
    });
    await watchDeposits(t.db, chainAdapterFor(t.config, t.db, 56), t.clock());
    await watchDeposits(t.db, chainAdapterFor(t.config, t.db, 97), t.clock());
    const depositOf = async (key: string) => (await send('GET', '/deposits', key)).json().data[0];
    return {
      liveKey,
      testKey,
      liveGas,
      live: { ...live, deposit: await depositOf(liveKey) },
      test: { ...test, deposit: await depositOf(testKey) },
    };
  }

  type Objects = Awaited<ReturnType<typeof merchant>>['live'];

  /** Every read and action by id on `objects`, as `key` calls it: each status. */
  async function reach(key: string, objects: Objects) {
    const { invoice, account, link, withdrawal, deposit } = objects;
    const calls: [string, 'GET' | 'POST', string, object?][] = [
      ['read invoice', 'GET', `/invoices/${invoice.id}`],
      ['cancel invoice', 'POST', `/invoices/${invoice.id}/cancel`],
      ['mark invoice', 'POST', `/invoices/${invoice.id}/mark`, { status: 'invalid', reason: 'x' }],
      [
        'refund invoice',
        'POST',
        `/invoices/${invoice.id}/refunds`,
        { amount_kind: 'full', reason: 'x', address: SUPPLIER },
      ],
      ['read account', 'GET', `/accounts/${account.unique_id}`],
      ['read deposit', 'GET', `/deposits/${deposit.id}`],
      ['read withdrawal', 'GET', `/withdrawals/${withdrawal.id}`],
      ['read payment link', 'GET', `/payment-links/${link.id}`],
      ['deactivate payment link', 'POST', `/payment-links/${link.id}/deactivate`],
    ];
    const out: Record<string, number> = {};
    for (const [name, method, url, body] of calls) {
      out[name] = (
        await send(method, url, key, body ?? (method === 'POST' ? {} : undefined))
      ).statusCode;
    }
    return out;
  }

  const everyOne = (status: number) => ({
    'read invoice': status,
    'cancel invoice': status,
    'mark invoice': status,
    'refund invoice': status,
    'read account': status,
    'read deposit': status,
    'read withdrawal': status,
    'read payment link': status,
    'deactivate payment link': status,
  });

  it('a test key cannot read or change any live object: each is a 404, as another app’s', async () => {
    const { testKey, live } = await merchant();
    expect(await reach(testKey, live)).toEqual(everyOne(404));
  });

  it('a live key gets 404 for every test object id', async () => {
    const { liveKey, test } = await merchant();
    expect(await reach(liveKey, test)).toEqual(everyOne(404));
  });

  it('lists never mix the modes: each key lists only its own objects and events', async () => {
    const { liveKey, testKey, live, test } = await merchant();
    for (const [key, own, other] of [
      [liveKey, live, test],
      [testKey, test, live],
    ] as const) {
      const ids = async (url: string) =>
        ((await send('GET', url, key)).json().data as { id: string }[]).map((o) => o.id);
      expect(await ids('/invoices')).toEqual([own.invoice.id]);
      expect(await ids('/deposits')).toEqual([own.deposit.id]);
      expect(await ids('/withdrawals')).toEqual([own.withdrawal.id]);
      expect(await ids('/payment-links')).toEqual([own.link.id]);
      const events = (await send('GET', '/events', key)).json().data as {
        livemode: boolean;
        data: { id?: string };
      }[];
      expect(events.length).toBeGreaterThan(0);
      expect(new Set(events.map((e) => e.livemode))).toEqual(new Set([key === liveKey]));
      const named = new Set(events.map((e) => e.data.id));
      for (const id of [other.invoice.id, other.withdrawal.id, other.link.id]) {
        expect(named.has(id)).toBe(false);
      }
    }
  });

  it('a test key’s withdrawal goes out on the test network only; the live wallet is untouched', async () => {
    const { test, liveGas } = await merchant();
    expect(test.withdrawal).toMatchObject({ chain_id: 97, livemode: false });
    // The live wallet's tokens on chain 56 are what it was funded with (a test withdrawal sent
    // through the signer moves tokens on chain 97 only: server/src/signer/signer.test.ts).
    expect(await localBalance(t.db, 56, specUsdt(56)?.contract ?? '', liveGas)).toBe(100n * WEI);
  });

  it('a live key cannot call the test helpers (403 test_mode_only)', async () => {
    const { liveKey, live } = await merchant();
    const paid = await send('POST', '/test/payments', liveKey, {
      invoice_id: live.invoice.id,
      scenario: 'full',
    });
    expect([paid.statusCode, paid.json().error.code]).toEqual([403, 'test_mode_only']);
    const confirmed = await send('POST', '/test/confirm', liveKey, { payment: '0x00' });
    expect([confirmed.statusCode, confirmed.json().error.code]).toEqual([403, 'test_mode_only']);
  });
});
