import { erc20Abi, getAddress, parseEther, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../../test/accounts';
import { eventTypesOf, insertSubscription } from '../../../test/appRows';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import {
  registerApp,
  runRegistrations,
  startTestSigner,
  type TestSigner,
} from '../../../test/signer';
import { createTestApp, type TestApp } from '../../../test/testApp';
import type { Db } from '../../db/connection';
import { requestSigner } from '../../signer/client/requestMac';
import { chainAdapterFor } from '../chain';
import { gasBalanceReader } from '../chain/balances';
import type { SpecChainId } from '../chain/specChains';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { provisionGasAddresses } from '../payments/gasProvisioner';
import { sendWithdrawals } from '../payments/withdrawalSending';
import { requestWithdrawal } from '../payments/withdrawals';

// An operator points test mode's BNB Smart Chain Testnet (97) at a public testnet: CHAIN_RPC_URLS
// names its RPC (a Hardhat node answering chain id 97 stands in) and CHAIN_TOKEN_CONTRACTS where
// its USDT is there, which is never the mainnet contract the method lists. Test invoices then
// name that contract and are paid by real testnet transfers; the simulated payments and the
// one-click funds refuse; the Operational Wallet reads the testnet; a test withdrawal goes
// through the signer onto the testnet. The live chain (the local one here) sees none of it.

jest.setTimeout(240_000);

const BASE = '/gateway/v1';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const MAINNET_USDT = '0x55d398326f99059fF775485246999027B3197955';
const usdt = (amount: string) => parseUnits(amount, 18);

let testnet: LocalNode;
let token: Address;
let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  testnet = await startLocalNode(97);
  token = await testnet.deployToken(18, usdt('1000000'));
  t = await createTestApp({
    env: {
      CHAIN_RPC_URLS: `97=${testnet.url}`,
      CHAIN_TOKEN_CONTRACTS: `97=${token}`,
      GATEWAY_RATE_LIMIT_MAX: '100000',
    },
  });
  signer = await startTestSigner(t);
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
  await testnet?.stop();
});

const send = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
  t.inject({
    method,
    url: `${BASE}${url}`,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload }),
  });

const onTestnet = (owner: string) =>
  testnet.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner as Address],
  });

it('test invoices are paid by real transfers of the configured token; the simulations and the faucet refuse; a test withdrawal goes out on the testnet', async () => {
  expect(token.toLowerCase()).not.toBe(MAINNET_USDT.toLowerCase());
  const userId = await addUser(t, 'testnet_merchant');
  await insertSubscription(t, userId);
  const headers = await t.authHeader('testnet_merchant');
  const liveId = (
    await t.call('createApp', {
      headers,
      body: { app_name: 'Testnet Shop', project_url: 'https://shop.example.com' },
    })
  ).json().app.id as string;
  await t.call('usePaymentMethod', {
    headers,
    body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
  });
  const testId = (await t.call('openTestMode', { headers, params: { id: liveId } })).json().app
    .id as string;
  const testKey = (
    await t.call('generateApiKey', {
      headers,
      body: {
        token_name: 'Server',
        app_id: testId,
        abilities: ['invoices:read', 'invoices:write'],
      },
    })
  ).json().token as string;

  // The invoice names the testnet's token, where the shopper's wallet must send it.
  const invoice = (
    await send('POST', '/invoices', testKey, {
      amount: '10',
      currency: 'USD',
      methods: ['USDT-BEP20'],
    })
  ).json();
  const option = invoice.payment_options[0];
  expect(option).toMatchObject({ chain_id: 97, token_contract: getAddress(token) });

  // No simulated payment on a public testnet: the answer says to send a real transfer.
  const simulated = await send('POST', '/test/payments', testKey, {
    invoice_id: invoice.id,
    scenario: 'full',
  });
  expect(simulated.statusCode).toBe(409);
  expect(simulated.json().error.message).toBe(
    'BNB Smart Chain Testnet runs on a public test network here: send a real testnet transfer instead.',
  );

  // A real transfer on the testnet, its 15 confirmations, read by the watcher over the RPC.
  const chain = chainAdapterFor(t.config, t.db, 97);
  expect(chain.kind).toBe('evm');
  await testnet.transfer(token, option.address as Address, usdt('10'));
  await watchDeposits(t.db, chain, t.clock());
  await testnet.mine(15);
  await watchDeposits(t.db, chain, t.clock());
  expect((await send('GET', `/invoices/${invoice.id}`, testKey)).json()).toMatchObject({
    status: 'settled',
    livemode: false,
  });
  expect(await eventTypesOf(t, invoice.id)).toContain('invoice.settled');
  // The local chain holds nothing under the testnet's id.
  expect(
    await t.db.selectFrom('chain_transfers').select('id').where('chain_id', '=', 97).execute(),
  ).toEqual([]);

  // Money out: the operational wallet is funded from the testnet's faucet, not by one click.
  await runRegistrations(t, signer);
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const wallet = await t.db
    .selectFrom('app_payment_methods')
    .select(['id', 'gas_address'])
    .where('app_id', '=', testId)
    .where('payment_method_id', '=', 'pm_usdt_bsc_test')
    .executeTakeFirstOrThrow();
  const gas = wallet.gas_address as Address;
  const faucet = await t.call('fundTestWallet', {
    headers,
    params: { id: testId },
    body: { payment_method_id: 'pm_usdt_bsc_test' },
  });
  expect(faucet.statusCode).toBe(409);
  expect(faucet.json().msg).toBe(
    'BNB Smart Chain Testnet runs on a public test network here: fund the wallet from its faucet.',
  );
  await testnet.sendNative(gas, parseEther('1'));
  await testnet.transfer(token, gas, usdt('100'));
  // The Operational Wallet reads the testnet, the token at its configured contract.
  const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);
  const balances = await reader(t.db).read(
    {
      chain_id: 97,
      network_name: 'BNB Smart Chain Testnet',
      network_type: 'EVM',
      is_token: 1,
      token_contract_address: MAINNET_USDT,
      decimals: 18,
    },
    gas,
  );
  expect(balances.exact.token?.raw).toBe(usdt('100'));
  expect(balances.exact.native.raw).toBe(parseEther('1'));
  // A test network left on the local chain is still read there, though live chains have RPCs.
  const sepolia = await reader(t.db).read(
    {
      chain_id: 11155111,
      network_name: 'Sepolia',
      network_type: 'EVM',
      is_token: 0,
      token_contract_address: null,
      decimals: 18,
    },
    gas,
  );
  expect(sepolia.exact.native.raw).toBe(0n);

  await t.db
    .updateTable('apps')
    .set({ whitelist_ip: '203.0.113.7' })
    .where('id', '=', testId)
    .execute();
  await registerApp(t, signer, testId);
  const payee = privateKeyToAddress(`0x${'95'.repeat(32)}`);
  const { id } = await requestWithdrawal(t.db, reader, {
    appId: testId,
    uniqueId: 'testnet-payout-1',
    code: 'USDT-BEP20',
    toAddress: payee,
    amount: '12.5',
    now: t.clock(),
    sign: requestSigner(t.config.signerRequestKey),
  });
  const deps = {
    db: t.db,
    signer: signer.client,
    head: (chainId: number) =>
      chainAdapterFor(t.config, t.db, chainId as SpecChainId).latestBlock(),
  };
  expect(await sendWithdrawals(deps, t.clock())).toMatchObject({ sent: 1 });
  await testnet.mine(15);
  expect(await sendWithdrawals(deps, t.clock())).toMatchObject({ completed: 1 });
  const done = await t.db
    .selectFrom('send_transactions')
    .select(['status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(done.status).toBe(1);
  expect(await onTestnet(payee)).toBe(usdt('12.5'));
  expect(await onTestnet(gas)).toBe(usdt('87.5'));
});
