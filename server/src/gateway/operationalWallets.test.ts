import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';

// GET /operational-wallets: per enabled method, the wallet that pays withdrawals and gas
// top-ups, and what it holds, exact. Its own ability, which no key holds unless given it.
// Polygon has an RPC here that never answers, so Tron (no RPC once any is configured) cannot be
// read and Polygon's node is down; BNB Smart Chain stays on the local chain.

const WALLET = '0x8ce73711B04D2ff13E3f2C774969e1404Dff58bb';
const BNB_WALLET = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const POLYGON_WALLET = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db';
const TRON_WALLET = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

describe('gateway operational wallets', () => {
  const t = testAppPerBlock({ env: { CHAIN_RPC_URLS: '137=http://127.0.0.1:9' } });

  async function merchant(tag: string) {
    const userId = await addUser(t, `wallets_${tag}`);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    const method = (id: string, paymentMethodId: string, gas: string | null, gasIndex: number) =>
      t.db
        .insertInto('app_payment_methods')
        .values({
          id,
          app_id: appId,
          payment_method_id: paymentMethodId,
          collect_address: paymentMethodId.includes('tron') ? TRON_WALLET : WALLET,
          gas_address: gas,
          gas_index: gas === null ? null : gasIndex,
          deposit_status: 1,
          withdraw_status: 1,
          created_at: t.clock().toISOString(),
        })
        .execute();
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: WALLET, gas_index: 100 })
      .where('id', '=', `apm_${tag}`)
      .execute();
    await method(`apm_${tag}_bnb`, 'pm_bnb', BNB_WALLET, 101);
    await method(`apm_${tag}_tron`, 'pm_usdt_tron', TRON_WALLET, 102);
    await method(`apm_${tag}_polygon`, 'pm_usdt_polygon', POLYGON_WALLET, 103);
    await method(`apm_${tag}_trx`, 'pm_trx', null, 0);
    return appId;
  }

  const fund = (to: string, amount: bigint, token: string | null) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token,
      to,
      amount,
      createdAt: t.clock().toISOString(),
    });

  const list = (key: string) =>
    t.inject({
      method: 'GET',
      url: '/gateway/v1/operational-wallets',
      headers: { authorization: `Bearer ${key}` },
    });

  it('is refused to a key without wallets:read, even one with every other ability', async () => {
    const appId = await merchant('w1');
    const key = await insertApiKey(t, {
      id: 'key_w1',
      app_id: appId,
      abilities: [
        'methods:read',
        'accounts:write',
        'deposits:read',
        'withdrawals:write',
        'balances:read',
        'webhooks:write',
      ],
    });
    const res = await list(key);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'ability_missing',
      message: 'This API key lacks the wallets:read ability.',
    });
  });

  it('lists each method’s wallet with its token and native balances as exact decimals', async () => {
    const appId = await merchant('w2');
    const key = await insertApiKey(t, { id: 'key_w2', app_id: appId, abilities: ['wallets:read'] });
    await fund(WALLET, 25n * 10n ** 18n + 1n, specUsdt(56)?.contract ?? null);
    await fund(WALLET, 10n ** 16n, null);
    await fund(BNB_WALLET, 15n * 10n ** 17n, null);
    const res = await list(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          method: 'USDT-BEP20',
          chain_id: 56,
          address: WALLET,
          token_balance: '25.000000000000000001',
          native_balance: '0.01',
          native_coin: 'BNB',
          unavailable_reason: null,
        },
        {
          method: 'BNB-BSC',
          chain_id: 56,
          address: BNB_WALLET,
          token_balance: null,
          native_balance: '1.5',
          native_coin: 'BNB',
          unavailable_reason: null,
        },
        {
          method: 'USDT-TRC20',
          chain_id: 0,
          address: TRON_WALLET,
          token_balance: null,
          native_balance: null,
          native_coin: 'TRX',
          unavailable_reason: 'Balances on Tron cannot be read: this server has no RPC for it.',
        },
        {
          method: 'TRX-TRON',
          chain_id: 0,
          address: null,
          token_balance: null,
          native_balance: null,
          native_coin: 'TRX',
          unavailable_reason:
            'The operational wallet is still being created: try again in a few seconds.',
        },
        {
          method: 'USDT-POLYGON',
          chain_id: 137,
          address: POLYGON_WALLET,
          token_balance: null,
          native_balance: null,
          native_coin: 'POL',
          unavailable_reason:
            "Balances on Polygon could not be read now: the chain's node did not answer. Try again later.",
        },
      ],
    });
  });
});
