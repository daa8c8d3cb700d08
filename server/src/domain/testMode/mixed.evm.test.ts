import { erc20Abi, parseUnits, type Address } from 'viem';
import { addUser } from '../../../test/accounts';
import { eventTypesOf, insertSubscription } from '../../../test/appRows';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { chainAdapterFor } from '../chain';
import { watchDeposits } from '../payments/deposits';

// Test mode on a production-like deployment: the live methods read a real EVM chain (a Hardhat
// node standing in for BNB Smart Chain, CHAIN_RPC_URL with our ERC-20 at USDT_CONTRACT), and test
// mode still runs on the built-in local chain under the test network's id (97). The test helpers
// pay a test invoice there, the live invoice is paid by a real token transfer on the node, and
// neither mode sees the other's chain, payments or events.

jest.setTimeout(180_000);

const BASE = '/gateway/v1';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const usdt = (amount: string) => parseUnits(amount, 18);

let node: LocalNode;
let token: Address;
let t: TestApp;
beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000000'));
  t = await createTestApp({
    env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token, GATEWAY_RATE_LIMIT_MAX: '100000' },
  });
});
afterAll(async () => {
  await t?.close();
  await node?.stop();
});

const send = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
  t.inject({
    method,
    url: `${BASE}${url}`,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload }),
  });

it('pays a test invoice on the local test network while the live one is paid on the RPC chain, never mixing them', async () => {
  const userId = await addUser(t, 'mixed_merchant');
  await insertSubscription(t, userId);
  const headers = await t.authHeader('mixed_merchant');
  const liveId = (
    await t.call('createApp', {
      headers,
      body: { app_name: 'Mixed Shop', project_url: 'https://shop.example.com' },
    })
  ).json().app.id as string;
  await t.call('usePaymentMethod', {
    headers,
    body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
  });
  const testId = (await t.call('openTestMode', { headers, params: { id: liveId } })).json().app
    .id as string;
  const keyOf = async (appId: string) =>
    (
      await t.call('generateApiKey', {
        headers,
        body: {
          token_name: 'Server',
          app_id: appId,
          abilities: ['invoices:read', 'invoices:write'],
        },
      })
    ).json().token as string;
  const liveKey = await keyOf(liveId);
  const testKey = await keyOf(testId);
  const order = { amount: '10', currency: 'USD', methods: ['USDT-BEP20'] };
  const live = (await send('POST', '/invoices', liveKey, order)).json();
  const test = (await send('POST', '/invoices', testKey, order)).json();
  expect(live.payment_options[0]).toMatchObject({ chain_id: 56 });
  expect(test.payment_options[0]).toMatchObject({ chain_id: 97 });

  // Test mode: the helpers, on the local chain of chain id 97.
  const paid = await send('POST', '/test/payments', testKey, {
    invoice_id: test.id,
    scenario: 'full',
  });
  expect(paid.json()).toMatchObject({ chain_id: 97, amount: '10' });
  await send('POST', '/test/confirm', testKey, { payment: paid.json().tx_hash });
  const testChain = chainAdapterFor(t.config, t.db, 97);
  expect(testChain.kind).toBe('local');
  await watchDeposits(t.db, testChain, t.clock());
  await watchDeposits(t.db, testChain, t.clock());

  // Live: a real ERC-20 transfer on the node, its 15 confirmations mined there.
  const liveChain = chainAdapterFor(t.config, t.db, 56);
  expect(liveChain.kind).not.toBe('local');
  await node.transfer(token, live.payment_options[0].address as Address, usdt('10'));
  await watchDeposits(t.db, liveChain, t.clock());
  await node.mine(15);
  await watchDeposits(t.db, liveChain, t.clock());

  const read = async (key: string, id: string) =>
    (await send('GET', `/invoices/${id}`, key)).json();
  expect(await read(testKey, test.id)).toMatchObject({ status: 'settled', livemode: false });
  expect(await read(liveKey, live.id)).toMatchObject({ status: 'settled', livemode: true });
  // Nothing of one mode on the other's chain: the node never saw the test payment, and the
  // local chain holds no live block.
  const onNode = await node.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [test.payment_options[0].address as Address],
  });
  expect(onNode).toBe(0n);
  const localLive = await t.db
    .selectFrom('chain_transfers')
    .select('id')
    .where('chain_id', '=', 56)
    .execute();
  expect(localLive).toEqual([]);
  expect(await eventTypesOf(t, test.id)).toContain('invoice.settled');
  expect((await send('GET', `/invoices/${test.id}`, liveKey)).statusCode).toBe(404);
});
