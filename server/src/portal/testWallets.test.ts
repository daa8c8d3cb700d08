import { addUser } from '../../test/accounts';
import { insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { localBalance, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { coded } from '../../test/expectations';

// Funding a test app's operational wallet from the portal: one click tops it up on the test
// network's local chain, never beyond the test balance, never on a live app, and never on the
// live network.

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
const WEI = 10n ** 18n;

describe('fundTestWallet', () => {
  const t = testAppPerBlock();
  let serial = 0;

  /** A merchant's app with USDT (BEP20), its test mode opened. */
  async function merchant() {
    serial += 1;
    const username = `funder${serial}`;
    const userId = await addUser(t, username);
    await insertSubscription(t, userId);
    const headers = await t.authHeader(username);
    const created = await t.call('createApp', {
      headers,
      body: { app_name: `Shop ${serial}`, project_url: 'https://shop.example.com' },
    });
    const liveId = created.json().app.id as string;
    await t.call('usePaymentMethod', {
      headers,
      body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
    });
    const testId = (await t.call('openTestMode', { headers, params: { id: liveId } })).json().app
      .id as string;
    const fund = (appId: string, paymentMethodId = 'pm_usdt_bsc_test') =>
      t.call('fundTestWallet', {
        headers,
        params: { id: appId },
        body: { payment_method_id: paymentMethodId },
      });
    const gasOf = async (appId: string) => {
      const row = await t.db
        .selectFrom('app_payment_methods')
        .select('gas_address')
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow();
      if (!row.gas_address) throw new Error('No operational wallet yet');
      return row.gas_address;
    };
    return { headers, liveId, testId, fund, gasOf };
  }

  it('tops an empty wallet up to 10,000 USDT and 10 BNB on the test network, and shows them', async () => {
    const { headers, testId, fund, gasOf } = await merchant();
    // The wallet is made by a job: until then there is nothing to fund.
    const early = await fund(testId);
    expect(early.statusCode).toBe(409);
    expect(early.json().msg).toBe(
      'The operational wallet is still being created: try again in a moment.',
    );
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const gas = await gasOf(testId);

    const funded = await fund(testId);
    expect(funded.statusCode).toBe(200);
    expect(funded.json()).toEqual(
      coded({
        status: true,
        msg: 'Test funds sent',
        data: { native_amount: '10', token_amount: '10000', block_number: expect.any(Number) },
      }),
    );
    const balance = await t.call('fetchBalance', {
      headers,
      params: { paymentMethodId: 'pm_usdt_bsc_test', gasAddress: gas, appDataId: testId },
    });
    expect(balance.json()).toEqual({ status: true, nativeAmount: 10, tokenAmount: 10000 });
    // On the test network only: the live chain's balances of that address are untouched.
    expect(await localBalance(t.db, 97, BSC_USDT, gas)).toBe(10_000n * WEI);
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(0n);
    expect(await localBalance(t.db, 56, null, gas)).toBe(0n);
  });

  it('mints nothing more while the wallet holds the test funds, and only what it lacks after', async () => {
    const { testId, fund, gasOf } = await merchant();
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const gas = await gasOf(testId);
    // It already holds 4 BNB.
    await recordLocalChainTransfer(t.db, {
      chainId: 97,
      token: null,
      to: gas,
      amount: 4n * WEI,
      createdAt: t.clock().toISOString(),
    });
    expect((await fund(testId)).json().data).toMatchObject({
      native_amount: '6',
      token_amount: '10000',
    });
    const again = await fund(testId);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(
      'The operational wallet already holds the test funds: 10,000 USDT-BEP20 and 10 BNB.',
    );
    expect(await localBalance(t.db, 97, null, gas)).toBe(10n * WEI);
    expect(await localBalance(t.db, 97, BSC_USDT, gas)).toBe(10_000n * WEI);
  });

  it('refuses a live app (403), a method the app does not use and another account’s app (404)', async () => {
    const { liveId, testId, fund } = await merchant();
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const live = await fund(liveId, 'pm_usdt_bsc');
    expect(live.statusCode).toBe(403);
    expect(live.json().msg).toBe(
      'Operational wallets are funded in test mode only: real money is never minted.',
    );
    expect((await fund(testId, 'pm_bnb_test')).statusCode).toBe(404);
    const other = await merchant();
    expect((await other.fund(testId)).statusCode).toBe(404);
  });
});
