import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { parseEther, parseUnits, type Address } from 'viem';
import { startFaultProxy } from '../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../test/chain/localNode';
import { addMerchant } from '../../test/moneyFixtures';
import { createTestApp, type TestApp } from '../../test/testApp';
import { testAppPerBlock, withTestApp } from '../../test/withTestApp';
import { recordLocalTransfer } from '../domain/chain/localAdapter';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { expectRefusal } from '../../test/expectations';

// fetchBalance: the Operational Wallet's balances through the wallet slice's chain adapter, on
// the local chain (recorded transfers) and on a real EVM node (Hardhat + our own ERC-20).

jest.setTimeout(120_000);

const XPUB = HDKey.fromMasterSeed(
  mnemonicToSeedSync('test test test test test test test test test test test junk'),
).derive("m/44'/60'/0'").publicExtendedKey;

/** A merchant's app using `methods` (payout addresses valid per network), gas provisioned. */
async function appWithMethods(t: TestApp, username: string, methods: string[]) {
  const merchant = await addMerchant(t, username);
  const created = await t.call('createApp', {
    headers: merchant.headers,
    body: { app_name: 'Gas', project_url: 'https://gas.example' },
  });
  const appId: string = created.json().app.id;
  for (const id of methods) {
    const res = await t.call('usePaymentMethod', {
      headers: merchant.headers,
      body: {
        payment_method_id: id,
        user_app_id: appId,
        collect_address:
          id.includes('tron') || id === 'pm_trx'
            ? 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'
            : '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      },
    });
    expect(res.statusCode).toBe(200);
  }
  await provisionGasAddresses(t.db, XPUB);
  const gas = async (methodId: string) =>
    (
      await t.db
        .selectFrom('app_payment_methods')
        .select('gas_address')
        .where('app_id', '=', appId)
        .where('payment_method_id', '=', methodId)
        .executeTakeFirstOrThrow()
    ).gas_address ?? '';
  const fetchBalance = async (methodId: string, address?: string) =>
    t.call('fetchBalance', {
      params: {
        paymentMethodId: methodId,
        gasAddress: address ?? (await gas(methodId)),
        appDataId: appId,
      },
      headers: merchant.headers,
    });
  return { appId, gas, fetchBalance };
}

/** fetchBalance's answer: the gas wallet's native coin and token (null for a native method). */
function balances(nativeAmount: number, tokenAmount: number | null) {
  return { status: true, nativeAmount, tokenAmount };
}

/** Tron is not EVM: a server with no RPC for it answers 422 rather than zeros. */
async function expectNoTronRpc(app: Awaited<ReturnType<typeof appWithMethods>>) {
  const tron = await app.fetchBalance('pm_usdt_tron');
  expect(tron.statusCode).toBe(422);
  expect(tron.json().msg).toBe('Balances on Tron cannot be read: this server has no RPC for it.');
}

describe('fetchBalance on the local chain', () => {
  const t = testAppPerBlock();

  it('answers the recorded token transfers to the gas wallet, and nothing native', async () => {
    const app = await appWithMethods(t, 'gas_local', ['pm_usdt_bsc', 'pm_trx', 'pm_usdt_eth']);
    expect((await app.fetchBalance('pm_usdt_bsc')).json()).toEqual(balances(0, 0));
    const to = await app.gas('pm_usdt_bsc');
    for (const amountMicro of [3_500_000n, 1_250_001n]) {
      await recordLocalTransfer(t.db, { to, amountMicro, createdAt: t.clock().toISOString() });
    }
    expect((await app.fetchBalance('pm_usdt_bsc')).json()).toEqual(balances(0, 4.750001));
    // A native coin method has no token balance; other chains have nothing recorded.
    expect((await app.fetchBalance('pm_trx')).json()).toEqual(balances(0, null));
    expect((await app.fetchBalance('pm_usdt_eth')).json()).toMatchObject({ tokenAmount: 0 });
  });

  it('with an RPC for another chain only, a chain without one (Tron) is a 422, not zeros', async () => {
    await withTestApp({ env: { BALANCE_RPC_URLS: '1=http://127.0.0.1:9/' } }, async (partly) => {
      const app = await appWithMethods(partly, 'gas_partly', ['pm_usdt_bsc', 'pm_usdt_tron']);
      // The deposit chain is still the local one.
      expect((await app.fetchBalance('pm_usdt_bsc')).json()).toMatchObject({ tokenAmount: 0 });
      await expectNoTronRpc(app);
    });
  });

  it('answers 404 for an address that is not the gas wallet, or a method not in use', async () => {
    const app = await appWithMethods(t, 'gas_local2', ['pm_usdt_bsc']);
    const other = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect((await app.fetchBalance('pm_usdt_bsc', other)).statusCode).toBe(404);
    expect((await app.fetchBalance('pm_bnb', other)).statusCode).toBe(404);
    const lower = (await app.gas('pm_usdt_bsc')).toLowerCase();
    expect((await app.fetchBalance('pm_usdt_bsc', lower)).statusCode).toBe(200);
  });

  it('answers 404 while the gas wallet is not provisioned yet', async () => {
    const merchant = await addMerchant(t, 'gas_pending');
    const created = await t.call('createApp', {
      headers: merchant.headers,
      body: { app_name: 'Pending', project_url: 'https://pending.example' },
    });
    const appId = created.json().app.id;
    await t.call('usePaymentMethod', {
      headers: merchant.headers,
      body: {
        payment_method_id: 'pm_bnb',
        user_app_id: appId,
        collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      },
    });
    const res = await t.call('fetchBalance', {
      params: {
        paymentMethodId: 'pm_bnb',
        gasAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        appDataId: appId,
      },
      headers: merchant.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('fetchBalance on an EVM chain', () => {
  let node: LocalNode;
  let token: Address;
  let t: TestApp;

  beforeAll(async () => {
    node = await startLocalNode();
    token = await node.deployToken(18, parseUnits('1000000', 18));
    t = await createTestApp({ env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token } });
  });
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  const setNativeBalance = (address: Address, wei: bigint) =>
    fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'hardhat_setBalance',
        params: [address, `0x${wei.toString(16)}`],
      }),
    });

  it('reads the native and token balances of the gas wallet from the node', async () => {
    const app = await appWithMethods(t, 'gas_evm', ['pm_usdt_bsc', 'pm_bnb', 'pm_usdt_eth']);
    const gas = (await app.gas('pm_usdt_bsc')) as Address;
    await node.transfer(token, gas, parseUnits('12.5', 18));
    await setNativeBalance(gas, parseEther('0.0123456789'));
    expect((await app.fetchBalance('pm_usdt_bsc')).json()).toEqual(balances(0.012345, 12.5));
    expect((await app.fetchBalance('pm_bnb')).json()).toEqual(balances(0, null));
    const other = await app.fetchBalance('pm_usdt_eth');
    expect(other.statusCode).toBe(422);
    expect(other.json().msg).toBe(
      'Balances on Ethereum cannot be read: this server has no RPC for it.',
    );
  });

  it('reads another EVM chain over BALANCE_RPC_URLS, its token at the method own contract', async () => {
    // The node stands in for Ethereum (chain 1) through a proxy answering that chain's id (the
    // gateway checks every provider's); its USDT has 6 decimals, like mainnet's.
    const usdt6 = await node.deployToken(6, parseUnits('1000000', 6));
    const ethereum = await startFaultProxy(node.url);
    ethereum.set({ chainId: 1 });
    const env = {
      CHAIN_RPC_URL: node.url,
      USDT_CONTRACT: token,
      BALANCE_RPC_URLS: `1=${ethereum.url}`,
    };
    await withTestApp({ env }, async (multi) => {
      await multi.db
        .updateTable('payment_methods')
        .set({ token_contract_address: usdt6 })
        .where('id', '=', 'pm_usdt_eth')
        .execute();
      const app = await appWithMethods(multi, 'gas_multi', ['pm_usdt_eth', 'pm_usdt_tron']);
      const gas = (await app.gas('pm_usdt_eth')) as Address;
      await node.transfer(usdt6, gas, parseUnits('7.25', 6));
      // Gas addresses repeat across the apps of these tests (same xpub): set what this one holds.
      await setNativeBalance(gas, parseEther('0.5'));
      expect((await app.fetchBalance('pm_usdt_eth')).json()).toEqual(balances(0.5, 7.25));
      // Tron is not EVM: no RPC of ours can read it.
      await expectNoTronRpc(app);
    });
    await ethereum.close();
  });

  it('answers 503 when the RPC cannot be reached', async () => {
    const env = { CHAIN_RPC_URL: 'http://127.0.0.1:9/', USDT_CONTRACT: token };
    await withTestApp({ env }, async (down) => {
      const app = await appWithMethods(down, 'gas_down', ['pm_bnb']);
      const res = await app.fetchBalance('pm_bnb');
      expectRefusal(res, 503, 'The blockchain could not be reached. Please try again in a minute.');
    });
  });
});
