import { parseEther, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import {
  FAULTY,
  passThrough,
  startFaultProxy,
  type FaultProxy,
} from '../../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { chainAdapterFor } from '../chain';
import { NATIVE_LOG_INDEX } from '../chain/adapter';
import { EvmChainAdapter } from '../chain/evmAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from './accounts';
import { watchDeposits } from './deposits';

// The gateway's watcher against a real EVM chain: a Hardhat node standing in for BNB Smart Chain
// (CHAIN_RPC_URL, with our ERC-20 at USDT_CONTRACT). Deposits wait for the method's 15
// confirmations; a reorg (evm_snapshot / evm_revert, then another history) before that depth
// fails the deposit or moves it to its new block, and nothing is ever credited twice. BNB Smart
// Chain is read through two providers, one of them faulty as real ones are (FAULTY): every
// payment is still credited once, none missed, none before its confirmations.

jest.setTimeout(180_000);

const usdt = (amount: string) => parseUnits(amount, 18);
const someAddress = (n: number): Address =>
  privateKeyToAddress(`0x${(1000 + n).toString(16).padStart(64, '0')}`);

let node: LocalNode;
let token: Address;
let t: TestApp;
let ethereum: FaultProxy;
let faulty: FaultProxy;
beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000000'));
  faulty = await startFaultProxy(node.url);
  faulty.set(FAULTY);
  // The same node also stands in for Ethereum (chain 1) over CHAIN_RPC_URLS, through a proxy
  // that answers Ethereum's chain id (the gateway checks every provider's).
  ethereum = await startFaultProxy(node.url);
  ethereum.set({ chainId: 1 });
  t = await createTestApp({
    env: {
      CHAIN_RPC_URL: `${faulty.url}|${node.url}`,
      USDT_CONTRACT: token,
      CHAIN_RPC_URLS: `1=${ethereum.url}`,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await faulty?.close();
  await ethereum?.close();
  await node?.stop();
});

let serial = 0;
async function account(uniqueId: string): Promise<{ appId: string; address: Address }> {
  serial += 1;
  const userId = await addUser(t, `evm_watched_${serial}`);
  const appId = `app_evm_${serial}`;
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: `apm_evm_${serial}`, app_id: appId });
  const { account: opened } = await openAccount(t.db, resolveWalletXpub(t.config), {
    appId,
    uniqueId,
    code: 'USDT-BEP20',
    now: t.clock(),
  });
  return { appId, address: opened.address as Address };
}

const watch = () =>
  passThrough(() => watchDeposits(t.db, chainAdapterFor(t.config, t.db, 56), t.clock()));
const rowsOf = (appId: string) =>
  t.db
    .selectFrom('receive_transactions')
    .select([
      'payment_method_id',
      'tx_hash',
      'log_index',
      'block_number',
      'amount_raw',
      'deposit_status',
      'failure_reason',
    ])
    .where('app_id', '=', appId)
    .execute();

describe('the deposit watcher on an EVM chain (Hardhat)', () => {
  it('detects a real ERC-20 transfer to a derived address and credits it at 15 blocks', async () => {
    const { appId, address } = await account('order-1');
    const hash = await node.transfer(token, address, usdt('25.5'));
    const block = Number(await node.publicClient.getBlockNumber());
    expect(await watch()).toMatchObject({ seen: 1, credited: 0 });
    expect(await rowsOf(appId)).toEqual([
      {
        payment_method_id: 'pm_usdt_bsc',
        tx_hash: hash,
        log_index: expect.any(Number),
        block_number: block,
        amount_raw: usdt('25.5').toString(),
        deposit_status: 0,
        failure_reason: null,
      },
    ]);
    await node.mine(13); // 14 blocks hold it
    expect(await watch()).toMatchObject({ seen: 0, credited: 0 });
    expect((await rowsOf(appId))[0]?.deposit_status).toBe(0);
    await node.mine(1);
    expect(await watch()).toMatchObject({ seen: 0, credited: 1 });
    expect(await watch()).toMatchObject({ seen: 0, credited: 0, failed: 0 });
    expect(await rowsOf(appId)).toEqual([expect.objectContaining({ deposit_status: 3 })]);
  });

  it('fails a transfer that a reorg removed before its depth, never crediting it', async () => {
    const { appId, address } = await account('order-reorg');
    const snapshot = await node.snapshot();
    await node.transfer(token, address, usdt('5'));
    expect(await watch()).toMatchObject({ seen: 1 });
    // Another history from the snapshot on, longer than the confirmations.
    await node.revert(snapshot);
    await node.transfer(token, someAddress(1), usdt('1'));
    await node.mine(20);
    expect(await watch()).toMatchObject({ seen: 0, credited: 0, failed: 1 });
    expect(await rowsOf(appId)).toEqual([
      expect.objectContaining({ deposit_status: 5, failure_reason: 'reorged' }),
    ]);
    await node.mine(5);
    expect(await watch()).toMatchObject({ credited: 0, failed: 0 });
    expect(await rowsOf(appId)).toHaveLength(1);
  });

  it('moves a transfer re-mined in another block to it, and credits it once', async () => {
    const { appId, address } = await account('order-remined');
    const signed = await node.signTransfer(token, address, usdt('9'));
    const snapshot = await node.snapshot();
    const hash = await node.sendRaw(signed);
    const first = Number(await node.publicClient.getBlockNumber());
    expect(await watch()).toMatchObject({ seen: 1 });
    await node.mine(5);
    await watch(); // the cursor is 5 blocks past it
    await node.revert(snapshot);
    await node.mine(1);
    expect(await node.sendRaw(signed)).toBe(hash);
    const again = Number(await node.publicClient.getBlockNumber());
    expect(again).toBe(first + 1);
    // Below the cursor: only the rescan window finds it there.
    expect(await watch()).toMatchObject({ seen: 0 });
    expect(await rowsOf(appId)).toEqual([
      expect.objectContaining({ tx_hash: hash, block_number: again, deposit_status: 0 }),
    ]);
    await node.mine(13);
    expect(await watch()).toMatchObject({ credited: 0 });
    await node.mine(1);
    expect(await watch()).toMatchObject({ credited: 1 });
    expect(await watch()).toMatchObject({ credited: 0 });
    expect(await rowsOf(appId)).toEqual([expect.objectContaining({ deposit_status: 3 })]);
  });

  it('detects a native coin transfer (block bodies), keyed by its transaction', async () => {
    const { appId, address } = await account('order-bnb');
    const hash = await node.sendNative(address, parseEther('0.3'));
    await node.sendNative(someAddress(2), parseEther('1')); // not a deposit address
    expect(await watch()).toMatchObject({ seen: 1 });
    expect(await rowsOf(appId)).toEqual([
      expect.objectContaining({
        payment_method_id: 'pm_bnb',
        tx_hash: hash,
        log_index: NATIVE_LOG_INDEX,
        amount_raw: parseEther('0.3').toString(),
        deposit_status: 0,
      }),
    ]);
    await node.mine(14);
    expect(await watch()).toMatchObject({ credited: 1 });
    expect(await rowsOf(appId)).toEqual([expect.objectContaining({ deposit_status: 3 })]);
  });
});

describe('the deposit watcher on a further EVM chain (CHAIN_RPC_URLS)', () => {
  it('reads Ethereum USDT at the method contract with its own cursor, 12 confirmations', async () => {
    const usdt6 = await node.deployToken(6, parseUnits('1000000', 6));
    await t.db
      .updateTable('payment_methods')
      .set({ token_contract_address: usdt6 })
      .where('id', '=', 'pm_usdt_eth')
      .execute();
    const userId = await addUser(t, 'evm_eth_watched');
    const appId = 'app_evm_eth';
    const now = t.clock().toISOString();
    await insertApp(t, { id: appId, user_id: userId, created_at: now });
    await insertSubscription(t, userId);
    await t.db
      .insertInto('app_payment_methods')
      .values({
        id: 'apm_evm_eth',
        app_id: appId,
        payment_method_id: 'pm_usdt_eth',
        collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        gas_address: null,
        gas_index: null,
        deposit_status: 1,
        withdraw_status: 1,
        created_at: now,
      })
      .execute();
    const { account: opened } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId: 'eth-1',
      code: 'USDT-ERC20',
      now: t.clock(),
    });
    const ethereum = chainAdapterFor(t.config, t.db, 1);
    expect(ethereum.kind).toBe('evm');
    const watchEth = () => watchDeposits(t.db, ethereum, t.clock());
    // One node stands in for both chains: the coin sent to BNB Smart Chain accounts earlier shows
    // on "Ethereum" too, where those accounts are watched as well. Read past it first.
    await watchEth();
    await node.transfer(usdt6, opened.address as Address, parseUnits('7.25', 6));
    expect(await watchEth()).toMatchObject({ seen: 1 });
    expect(await rowsOf(appId)).toEqual([
      expect.objectContaining({ payment_method_id: 'pm_usdt_eth', amount_raw: '7250000' }),
    ]);
    await node.mine(11);
    expect(await watchEth()).toMatchObject({ credited: 1 });
    // Ethereum's cursor is its own, beside BNB Smart Chain's (the demo's test mode has 97's).
    const cursors = await t.db
      .selectFrom('watch_cursors')
      .select('chain_id')
      .where('chain_id', 'in', [1, 56])
      .orderBy('chain_id')
      .execute();
    expect(cursors.map((c) => c.chain_id)).toEqual([1, 56]);
  });
});

describe('EvmChainAdapter for the watcher', () => {
  it('splits many recipients into several bounded log queries, in chain order', async () => {
    const start = Number(await node.publicClient.getBlockNumber()) + 1;
    const recipients = [1, 2, 3, 4, 5].map((n) => someAddress(10 + n));
    for (const [i, to] of recipients.entries()) await node.transfer(token, to, usdt(`${i + 1}`));
    const head = Number(await node.publicClient.getBlockNumber());
    const narrow = new EvmChainAdapter({
      rpcUrl: node.url,
      tokenAddress: token,
      maxAddressesPerCall: 2,
      maxBlockRange: 2,
    });
    const found = await narrow.tokenTransfers(token, [...recipients].reverse(), start, head);
    expect(found.map((f) => [f.to, f.amount])).toEqual(
      recipients.map((to, i) => [to, usdt(`${i + 1}`)]),
    );
    expect(await narrow.blockHash(head + 100)).toBeNull();
  });
});

describe('the faulty provider', () => {
  // First in the setting, it was asked first, failed, and the ranking put the other ahead: the
  // watcher read around it rather than through its faults.
  it('was asked, failed, and was routed around', () => {
    const outcomes = faulty.outcomes();
    expect(faulty.calls()).toBeGreaterThan(0);
    expect(outcomes.status429 ?? 0).toBeGreaterThan(0);
  });
});
