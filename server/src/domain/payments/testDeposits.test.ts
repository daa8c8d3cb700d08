import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { mineLocalBlocks } from '../chain/localAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from './accounts';
import { watchDeposits } from './deposits';
import { chainAdapterFor } from '../chain';

// The portal's "Send test deposit": a transfer on the local chain that the watcher then takes
// down the same path as any payment.

describe('test deposits', () => {
  const t = testAppPerBlock();
  let serial = 0;

  async function merchantWithAccount() {
    serial += 1;
    const username = `tester_${serial}`;
    const userId = await addUser(t, username);
    const appId = `app_test_${serial}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertSubscription(t, userId);
    await insertAppMethod(t, { id: `apm_test_${serial}`, app_id: appId });
    await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId: 'order-1',
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    const headers = await t.authHeader(username);
    const details = await t.call('getAppDetails', { headers, params: { id: appId } });
    const [account] = details.json().data.accounts.data;
    return { appId, headers, account };
  }

  const send = (headers: Record<string, string>, body: Record<string, unknown>) =>
    t.call('sendTestDeposit', { headers, body });
  const receives = async (appId: string) =>
    (
      await t.db
        .selectFrom('receive_transactions')
        .select(['unique_id', 'deposit_status', 'amount_raw', 'tx_hash'])
        .where('app_id', '=', appId)
        .execute()
    ).map((row) => ({ ...row, amount_raw: String(row.amount_raw) }));

  it('lists the methods an account takes test deposits in, and the deposit is credited like any', async () => {
    const { appId, headers, account } = await merchantWithAccount();
    expect(account).toMatchObject({ unique_id: 'order-1', test_methods: ['USDT-BEP20'] });

    const res = await send(headers, {
      account_id: account.id,
      method: 'USDT-BEP20',
      amount: '25.5',
    });
    expect(res.statusCode).toBe(200);
    const { msg, data } = res.json();
    expect(msg).toBe('Test deposit sent');
    expect(data.thash).toMatch(/^0x[0-9a-f]{64}$/);

    const watch = () => watchDeposits(t.db, chainAdapterFor(t.config, t.db), t.clock());
    await watch();
    expect(await receives(appId)).toEqual([
      {
        unique_id: 'order-1',
        deposit_status: 0,
        amount_raw: '25500000000000000000',
        tx_hash: data.thash,
      },
    ]);
    await mineLocalBlocks(t.db, 15);
    await watch();
    await watch();
    expect((await receives(appId))[0]?.deposit_status).toBe(3);
  });

  it('refuses bad amounts, unknown methods and other merchants’ accounts', async () => {
    const { headers, account } = await merchantWithAccount();
    const other = await merchantWithAccount();

    for (const amount of ['0', '-1', '1.1234567', 'abc', '1000000.000001', '']) {
      const res = await send(headers, { account_id: account.id, method: 'USDT-BEP20', amount });
      expect([amount, res.statusCode]).toEqual([amount, 422]);
    }
    const zero = await send(headers, { account_id: account.id, method: 'USDT-BEP20', amount: '0' });
    expect(zero.json().msg).toBe('Enter an amount more than 0 and at most 1000000.');

    const wrongMethod = await send(headers, {
      account_id: account.id,
      method: 'BNB-BSC',
      amount: '1',
    });
    expect(wrongMethod.statusCode).toBe(422);
    expect(wrongMethod.json().msg).toBe("The app has not enabled BNB-BSC on this account's chain.");

    const notMine = await send(headers, {
      account_id: other.account.id,
      method: 'USDT-BEP20',
      amount: '1',
    });
    expect(notMine.statusCode).toBe(404);
  });
});

describe('test deposits on a real chain', () => {
  const t = testAppPerBlock({
    env: {
      CHAIN_RPC_URL: 'http://127.0.0.1:9',
      USDT_CONTRACT: '0x55d398326f99059fF775485246999027B3197955',
    },
  });

  it('offers no test deposit and refuses one: the money would have to be real', async () => {
    const userId = await addUser(t, 'real_chain');
    await insertApp(t, { id: 'app_real', user_id: userId, created_at: t.clock().toISOString() });
    await insertSubscription(t, userId);
    await insertAppMethod(t, { id: 'apm_real', app_id: 'app_real' });
    await openAccount(t.db, resolveWalletXpub(t.config), {
      appId: 'app_real',
      uniqueId: 'order-1',
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    const headers = await t.authHeader('real_chain');
    const details = await t.call('getAppDetails', { headers, params: { id: 'app_real' } });
    const [account] = details.json().data.accounts.data;
    expect(account.test_methods).toEqual([]);
    const res = await t.call('sendTestDeposit', {
      headers,
      body: { account_id: account.id, method: 'USDT-BEP20', amount: '1' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(
      'USDT-BEP20 runs on a real chain: test deposits are only for methods on the local chain.',
    );
  });
});
