import { parseAbi, parseEther, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import { insertApp, insertSubscription } from '../../test/appRows';
import { startLocalNode, type LocalNode } from '../../test/chain/localNode';
import { registerApp, seedAccount, startTestSigner, type TestSigner } from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import { chainAdapterFor } from '../domain/chain';
import { EvmChainAdapter } from '../domain/chain/evmAdapter';
import type { SpecChainId } from '../domain/chain/specChains';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import type { Db } from '../db/connection';
import { gasBalanceReader } from '../domain/chain/balances';
import { completeDeposits, followCompletedSweeps } from '../domain/payments/depositCompletion';
import { GAS_BRANCH, provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { openAccount } from '../domain/payments/accounts';
import { watchDeposits } from '../domain/payments/deposits';
import { sendWithdrawals } from '../domain/payments/withdrawalSending';
import { requestSigner } from './client/requestMac';
import { reinitiateWithdrawal, requestWithdrawal } from '../domain/payments/withdrawals';
import { createInvoice, getInvoice } from '../domain/invoices/invoices';
import { RateBook } from '../domain/rates/rates';

// Deposits complete on a real EVM chain (Hardhat standing in for BNB Smart Chain, and for
// Ethereum with a USDT whose transfer returns no bool): deposit -> confirmations -> gas top-up
// from the operational wallet -> sweep of the fee and the rest, the payout balance read on chain.
// With automine off, a top-up left unmined past the timeout is replaced at its nonce at a higher
// price, and only one of the two is ever mined. Withdrawals go out from the operational wallet
// through the job and the signer, to Completed after their confirmations; one whose wallet lost
// its gas before it was sent fails, and goes through once funded and re-initiated. USDT sent on
// Ethereum to a BNB Smart Chain invoice's address is found, accepted through the portal, and
// swept on Ethereum.

jest.setTimeout(300_000);

const BALANCE_OF = parseAbi(['function balanceOf(address) view returns (uint256)']);
const FEE_ADDRESS = privateKeyToAddress(`0x${'78'.repeat(32)}`);
const usdt = (amount: string, decimals = 18) => parseUnits(amount, decimals);

let node: LocalNode;
/** Ethereum's stand-in (chain 1), a node of its own: transactions are signed for its chain id. */
let eth: LocalNode;
let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  [node, eth] = await Promise.all([startLocalNode(), startLocalNode(1)]);
  const token = await node.deployToken(18, usdt('1000000'));
  t = await createTestApp({
    env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token, CHAIN_RPC_URLS: `1=${eth.url}` },
  });
  signer = await startTestSigner(t, { feeAddress: FEE_ADDRESS, replaceAfterMs: 60_000 });
});
afterAll(async () => {
  await node?.setAutomine(true);
  await signer?.close();
  await t?.close();
  await node?.stop();
  await eth?.stop();
});

const tokenBalance = (token: string, owner: string, on: LocalNode = node) =>
  on.publicClient.readContract({
    address: token as Address,
    abi: BALANCE_OF,
    functionName: 'balanceOf',
    args: [owner as Address],
  });

let serial = 0;

/**
 * Gives app `appId` method `methodId` with payout address `payout`, and its operational wallet,
 * funded with 1 ETH on `on`.
 */
async function useMethod(appId: string, methodId: string, payout: string, on: LocalNode) {
  const id = `apm_${appId}_${methodId}`;
  await t.db
    .insertInto('app_payment_methods')
    .values({
      id,
      app_id: appId,
      payment_method_id: methodId,
      collect_address: payout,
      gas_address: null,
      gas_index: null,
      deposit_status: 1,
      withdraw_status: 1,
      created_at: t.clock().toISOString(),
    })
    .execute();
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const { gas_address: gas, gas_index: gasIndex } = await t.db
    .selectFrom('app_payment_methods')
    .select(['gas_address', 'gas_index'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  await on.sendNative(gas as Address, parseEther('1'));
  return { gas, gasIndex };
}

/** An app using `methodId` (chain `chainId`), its operational wallet funded with 1 ETH. */
async function merchant(methodId: string, code: string, on: LocalNode = node) {
  serial += 1;
  const appId = `app_evm_signer_${serial}`;
  const payout = privateKeyToAddress(`0x${(900 + serial).toString(16).padStart(64, '0')}`);
  const userId = await addUser(t, `evm_signer_${serial}`);
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId); // Starter: 1 % fee
  const { gas, gasIndex } = await useMethod(appId, methodId, payout, on);
  const { account } = await openAccount(t.db, resolveWalletXpub(t.config), {
    appId,
    uniqueId: `order-${serial}`,
    code,
    now: t.clock(),
  });
  await registerApp(t, signer, appId);
  return { payout, depositAddress: account.address as Address, appId, userId, gas, gasIndex };
}

/** Watches chain `chainId` until the deposit at `address` is credited (3); its id. */
async function credit(chainId: SpecChainId, address: string, confirmations: number) {
  const chain = chainAdapterFor(t.config, t.db, chainId);
  await watchDeposits(t.db, chain, t.clock());
  await (chainId === 1 ? eth : node).mine(confirmations - 1);
  await watchDeposits(t.db, chain, t.clock());
  const row = await t.db
    .selectFrom('receive_transactions')
    .select(['id', 'deposit_status'])
    .where('address', '=', address)
    .executeTakeFirstOrThrow();
  expect(row.deposit_status).toBe(3);
  return row.id;
}

async function passes(n: number) {
  for (let i = 0; i < n; i += 1) await completeDeposits(t.db, signer.client, t.clock());
}

const statusOf = async (id: string) =>
  (
    await t.db
      .selectFrom('receive_transactions')
      .select('deposit_status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).deposit_status;

/** A USDT whose transfer returns no bool (as on Ethereum), made USDT-ERC20's contract. */
async function noBoolUsdtOnEthereum(): Promise<Address> {
  const noBool = await eth.deployToken(6, usdt('1000000', 6), { noBool: true });
  await t.db
    .updateTable('payment_methods')
    .set({ token_contract_address: noBool })
    .where('id', '=', 'pm_usdt_eth')
    .execute();
  return noBool;
}

describe('deposits complete on an EVM chain (Hardhat)', () => {
  it('deposit -> 15 confirmations -> gas -> sweep: the payout address holds it less the fee', async () => {
    const token = t.config.usdtContract ?? '';
    const { payout, depositAddress } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    await node.transfer(token as Address, depositAddress, usdt('40'));
    const id = await credit(56, depositAddress, 15);
    await passes(2);
    expect(await statusOf(id)).toBe(4);
    expect(await node.publicClient.getBalance({ address: depositAddress })).toBeGreaterThan(0n);
    await passes(3);
    expect(await statusOf(id)).toBe(1);
    expect(await tokenBalance(token, payout)).toBe(usdt('39.6'));
    expect(await tokenBalance(token, FEE_ADDRESS)).toBe(usdt('0.4'));
    expect(await tokenBalance(token, depositAddress)).toBe(0n);
    // Every transaction was signed for Hardhat's chain id (EIP-155) by the key of its sender.
    const txs = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'from_address', 'status'])
      .where('ref_id', '=', id)
      .execute();
    expect(txs.map((x) => x.status)).toEqual(['mined', 'mined', 'mined']);
    for (const x of txs) {
      const sent = await node.publicClient.getTransaction({ hash: x.tx_hash as Address });
      expect(sent.from.toLowerCase()).toBe(x.from_address.toLowerCase());
      // EIP-155: v = chainId * 2 + 35 or 36.
      expect([56n * 2n + 35n, 56n * 2n + 36n]).toContain(sent.v);
    }
  });

  it('sweeps a token whose transfer returns no bool (USDT on Ethereum)', async () => {
    const noBool = await noBoolUsdtOnEthereum();
    const { payout, depositAddress } = await merchant('pm_usdt_eth', 'USDT-ERC20', eth);
    await eth.transfer(noBool, depositAddress, usdt('20', 6));
    const id = await credit(1, depositAddress, 12);
    await passes(5);
    expect(await statusOf(id)).toBe(1);
    expect(await tokenBalance(noBool, payout, eth)).toBe(usdt('19.8', 6));
    expect(await tokenBalance(noBool, FEE_ADDRESS, eth)).toBe(usdt('0.2', 6));
  });

  it('replaces a top-up left unmined (automine off) at its nonce with a higher price', async () => {
    const token = t.config.usdtContract ?? '';
    const { payout, depositAddress } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    await node.transfer(token as Address, depositAddress, usdt('10'));
    const id = await credit(56, depositAddress, 15);
    await node.setAutomine(false);
    await passes(1); // the top-up is signed and broadcast, and waits in the mempool
    await passes(1); // within the timeout: left alone
    const first = await t.db.selectFrom('chain_txs').selectAll().where('ref_id', '=', id).execute();
    expect(first).toHaveLength(1);
    t.clock.advance(61_000);
    await passes(1);
    const both = await t.db
      .selectFrom('chain_txs')
      .selectAll()
      .where('ref_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(both.map((x) => [x.purpose, x.nonce, x.status])).toEqual([
      ['gas', first[0]?.nonce, 'replaced'],
      ['gas', first[0]?.nonce, 'pending'],
    ]);
    expect(BigInt(both[1]?.gas_price ?? 0)).toBeGreaterThan(BigInt(both[0]?.gas_price ?? 0));
    await node.mine(1);
    await node.setAutomine(true);
    await passes(1);
    const settled = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'status'])
      .where('ref_id', '=', id)
      .where('purpose', '=', 'gas')
      .orderBy('created_at')
      .execute();
    expect(settled.map((x) => x.status)).toEqual(['failed', 'mined']);
    expect(
      await node.publicClient.getTransactionReceipt({ hash: settled[1]?.tx_hash as Address }),
    ).toMatchObject({ status: 'success' });
    await passes(4);
    expect(await statusOf(id)).toBe(1);
    expect(await tokenBalance(token, payout)).toBe(usdt('9.9'));
  });

  it('a reorg takes the gas top-up and the fee leg away before the sweep: sent again, swept once', async () => {
    const token = t.config.usdtContract ?? '';
    const { payout, depositAddress, gas } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    await node.transfer(token as Address, depositAddress, usdt('10'));
    const id = await credit(56, depositAddress, 15);
    const feesBefore = await tokenBalance(token, FEE_ADDRESS);
    const snapshot = await node.snapshot();
    await passes(2);
    expect(await statusOf(id)).toBe(4);
    const topUp = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'amount_raw'])
      .where('ref_id', '=', id)
      .where('purpose', '=', 'gas')
      .executeTakeFirstOrThrow();
    const gasBefore = await node.publicClient.getBalance({ address: gas as Address });
    await node.revert(snapshot);
    await node.mine(20);
    expect(await node.publicClient.getBalance({ address: depositAddress })).toBe(0n);
    await passes(10);
    expect(await statusOf(id)).toBe(1);
    expect(await tokenBalance(token, payout)).toBe(usdt('9.9'));
    expect(await tokenBalance(token, FEE_ADDRESS)).toBe(feesBefore + usdt('0.1'));
    expect(await tokenBalance(token, depositAddress)).toBe(0n);
    // The top-up was sent again as it was: one top-up, its bytes, mined in the new history.
    const tops = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'status'])
      .where('ref_id', '=', id)
      .where('purpose', '=', 'gas')
      .execute();
    expect(tops).toEqual([{ tx_hash: topUp.tx_hash, status: 'mined' }]);
    const gasAfter = await node.publicClient.getBalance({ address: gas as Address });
    expect(gasAfter).toBe(gasBefore);
  });
});

describe('a completed deposit is followed until its sweep is final (Hardhat)', () => {
  it('a reorg takes the sweep away after completion: deposit.reorged, the same bytes again, completed again, swept once, then final', async () => {
    const token = t.config.usdtContract ?? '';
    const { payout, depositAddress } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    await node.transfer(token as Address, depositAddress, usdt('10'));
    const id = await credit(56, depositAddress, 15);
    const feesBefore = await tokenBalance(token, FEE_ADDRESS);
    await passes(1); // the gas top-up, signed and (automine) mined
    expect(await statusOf(id)).toBe(3);
    // The chain as it is before the sweep: its top-up only.
    const afterTopUp = await node.snapshot();
    for (let i = 0; i < 6 && (await statusOf(id)) !== 1; i += 1) await passes(1);
    expect(await statusOf(id)).toBe(1);
    const sweepRows = () =>
      t.db
        .selectFrom('chain_txs')
        .select(['purpose', 'tx_hash', 'status'])
        .where('ref_id', '=', id)
        .where('purpose', 'in', ['sweep', 'sweep_fee'])
        .orderBy('nonce')
        .execute();
    const swept = await sweepRows();
    expect(swept.map((r) => [r.purpose, r.status])).toEqual([
      ['sweep_fee', 'mined'],
      ['sweep', 'mined'],
    ]);
    const follow = () =>
      followCompletedSweeps(
        {
          db: t.db,
          signer: signer.client,
          head: (chainId) => chainAdapterFor(t.config, t.db, chainId as SpecChainId).latestBlock(),
        },
        t.clock(),
        56,
      );
    const finalAt = async () =>
      (
        await t.db
          .selectFrom('receive_transactions')
          .select('swept_final_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).swept_final_at;
    // Not deep enough to be final yet: followed, nothing moves.
    await follow();
    expect(await statusOf(id)).toBe(1);
    expect(await finalAt()).toBeNull();
    await node.revert(afterTopUp);
    await node.mine(5);
    expect(await tokenBalance(token, depositAddress)).toBe(usdt('10'));
    expect((await follow()).reorged).toBe(1);
    expect(await statusOf(id)).toBe(4);
    for (let i = 0; i < 6 && (await statusOf(id)) !== 1; i += 1) await passes(1);
    expect(await statusOf(id)).toBe(1);
    // The same signed bytes, mined in the new history: swept once.
    expect((await sweepRows()).map((r) => [r.purpose, r.tx_hash, r.status])).toEqual(
      swept.map((r) => [r.purpose, r.tx_hash, 'mined']),
    );
    expect(await tokenBalance(token, payout)).toBe(usdt('9.9'));
    expect(await tokenBalance(token, FEE_ADDRESS)).toBe(feesBefore + usdt('0.1'));
    expect(await tokenBalance(token, depositAddress)).toBe(0n);
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('resource_id', '=', id)
      .orderBy('resource_seq', 'asc')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'deposit.pending',
      'deposit.confirmed',
      'deposit.completed',
      'deposit.reorged',
      'deposit.completed',
    ]);
    // Final at twice the method's confirmations: followed no more.
    await node.mine(30);
    await follow();
    expect(await finalAt()).not.toBeNull();
    expect(await statusOf(id)).toBe(1);
  });
});

describe('withdrawals go out on an EVM chain (Hardhat)', () => {
  /** The app's whitelist set and its operational wallet funded with `tokens` of `token`. */
  async function payoutReady(
    methodId: string,
    code: string,
    token: string,
    tokens: bigint,
    on: LocalNode = node,
  ) {
    const { appId, userId, gas, gasIndex } = await merchant(methodId, code, on);
    await t.db
      .updateTable('apps')
      .set({ whitelist_ip: '203.0.113.7' })
      .where('id', '=', appId)
      .execute();
    await registerApp(t, signer, appId); // its first whitelist: not held
    await on.transfer(token as Address, gas as Address, tokens);
    const to = privateKeyToAddress(`0x${(700 + serial).toString(16).padStart(64, '0')}`);
    return { appId, userId, gas, gasIndex, to };
  }

  const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);
  const withdraw = (appId: string, code: string, to: string, amount: string) =>
    requestWithdrawal(t.db, reader, {
      appId,
      uniqueId: `payout-${serial}`,
      code,
      toAddress: to,
      amount,
      now: t.clock(),
      sign: requestSigner(t.config.signerRequestKey),
    });
  const sendPasses = async (n: number) => {
    const deps = {
      db: t.db,
      signer: signer.client,
      head: (chainId: number) =>
        chainAdapterFor(t.config, t.db, chainId as SpecChainId).latestBlock(),
      finalized: async (chainId: number) => {
        const chain = chainAdapterFor(t.config, t.db, chainId as SpecChainId);
        return chain instanceof EvmChainAdapter ? chain.finalizedBlock() : null;
      },
    };
    for (let i = 0; i < n; i += 1) await sendWithdrawals(deps, t.clock());
  };
  const withdrawal = (id: string) =>
    t.db
      .selectFrom('send_transactions')
      .select(['status', 'tx_hash', 'nonce', 'failure_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('withdrawal -> broadcast -> 15 confirmations -> Completed, the recipient paid on chain', async () => {
    const token = t.config.usdtContract ?? '';
    const { appId, gas, to } = await payoutReady('pm_usdt_bsc', 'USDT-BEP20', token, usdt('100'));
    const { id } = await withdraw(appId, 'USDT-BEP20', to, '12.5');
    await sendPasses(1);
    const sent = await withdrawal(id);
    expect(sent).toMatchObject({ status: 5, tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const tx = await node.publicClient.getTransaction({ hash: sent.tx_hash as Address });
    expect(tx.from.toLowerCase()).toBe(gas.toLowerCase());
    expect([56n * 2n + 35n, 56n * 2n + 36n]).toContain(tx.v);
    await sendPasses(1); // mined, short of its confirmations
    expect((await withdrawal(id)).status).toBe(5);
    await node.mine(15);
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({ status: 1, tx_hash: sent.tx_hash });
    expect(await tokenBalance(token, to)).toBe(usdt('12.5'));
    expect(await tokenBalance(token, gas)).toBe(usdt('87.5'));
  });

  it('a withdrawal edited in the database after it was accepted: refused, no token moves', async () => {
    const token = t.config.usdtContract ?? '';
    const { appId, gas, to } = await payoutReady('pm_usdt_bsc', 'USDT-BEP20', token, usdt('100'));
    const { id } = await withdraw(appId, 'USDT-BEP20', to, '2');
    await t.db
      .updateTable('send_transactions')
      .set({ to_address: FEE_ADDRESS, amount_raw: usdt('50').toString() })
      .where('id', '=', id)
      .execute();
    const before = await tokenBalance(token, FEE_ADDRESS);
    await sendPasses(2);
    expect(await withdrawal(id)).toMatchObject({
      status: 6,
      tx_hash: null,
      failure_reason: 'signer_refused',
    });
    expect(
      await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute(),
    ).toEqual([]);
    expect(await tokenBalance(token, FEE_ADDRESS)).toBe(before);
    expect(await tokenBalance(token, gas)).toBe(usdt('100'));
    expect(
      await t.db.selectFrom('signer_refusals').select('request').where('ref_id', '=', id).execute(),
    ).toEqual([{ request: 'withdrawal' }]);
  });

  it('sends a token whose transfer returns no bool (USDT on Ethereum)', async () => {
    const noBool = await noBoolUsdtOnEthereum();
    const { appId, to } = await payoutReady(
      'pm_usdt_eth',
      'USDT-ERC20',
      noBool,
      usdt('50', 6),
      eth,
    );
    const { id } = await withdraw(appId, 'USDT-ERC20', to, '20.25');
    await sendPasses(2);
    await eth.mine(12);
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(1);
    expect(await tokenBalance(noBool, to, eth)).toBe(usdt('20.25', 6));
    // Ethereum has a `finalized` block tag (Hardhat's is its head): final as soon as that is past it.
    const { final_at: finalAt } = await t.db
      .selectFrom('send_transactions')
      .select('final_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(finalAt).not.toBeNull();
  });

  it('gas drained after it was accepted: Unsuccessful; funded, re-initiated: Completed', async () => {
    const token = t.config.usdtContract ?? '';
    const { appId, userId, gas, gasIndex, to } = await payoutReady(
      'pm_usdt_bsc',
      'USDT-BEP20',
      token,
      usdt('30'),
    );
    const { id } = await withdraw(appId, 'USDT-BEP20', to, '30');
    // The operational wallet's own key spends its gas (as a merchant's other tool could).
    const owner = seedAccount(t, `${GAS_BRANCH}/0/${gasIndex}`);
    const price = await node.publicClient.getGasPrice();
    const held = await node.publicClient.getBalance({ address: gas as Address });
    await node.sendRaw(
      await owner.signTransaction({
        type: 'legacy',
        chainId: node.chainId,
        nonce: await node.publicClient.getTransactionCount({ address: gas as Address }),
        gasPrice: price,
        gas: 21_000n,
        to: FEE_ADDRESS,
        value: held - 21_000n * price,
      }),
    );
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({
      status: 6,
      tx_hash: null,
      failure_reason: expect.stringMatching(/lacks the network fee/),
    });
    await node.sendNative(gas as Address, parseEther('0.1'));
    await reinitiateWithdrawal(t.db, reader, userId, id, t.clock());
    await sendPasses(2);
    await node.mine(15);
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(1);
    expect(await tokenBalance(token, to)).toBe(usdt('30'));
    expect(await tokenBalance(token, gas)).toBe(0n);
  });

  it('reverted on chain: Unsuccessful (reverted); Reinitiate signs it afresh at the next nonce, Completed', async () => {
    const token = t.config.usdtContract ?? '';
    const { appId, userId, gas, to } = await payoutReady(
      'pm_usdt_bsc',
      'USDT-BEP20',
      token,
      usdt('40'),
    );
    const { id } = await withdraw(appId, 'USDT-BEP20', to, '40');
    await node.setAutomine(false);
    await sendPasses(1); // signed and broadcast: waits in the mempool
    const first = await withdrawal(id);
    expect(first.status).toBe(5);
    // The token takes the wallet's balance before the transfer is mined (as USDT's blacklist would).
    await node.setTokenBalance(token as Address, gas as Address, 0n);
    await node.mine(1);
    await node.setAutomine(true);
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({
      status: 6,
      failure_reason: 'reverted',
      tx_hash: first.tx_hash,
    });
    expect(
      await node.publicClient.getTransactionReceipt({ hash: first.tx_hash as Address }),
    ).toMatchObject({ status: 'reverted' });
    await node.setTokenBalance(token as Address, gas as Address, usdt('40'));
    await reinitiateWithdrawal(t.db, reader, userId, id, t.clock());
    await sendPasses(1);
    const second = await withdrawal(id);
    expect(second).toMatchObject({ status: 5, nonce: Number(first.nonce) + 1 });
    expect(second.tx_hash).not.toBe(first.tx_hash);
    await node.mine(15);
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(1);
    expect(await tokenBalance(token, to)).toBe(usdt('40'));
  });

  it('a completed withdrawal whose block a reorg takes away: reorged, the same bytes again, completed, paid once', async () => {
    const token = t.config.usdtContract ?? '';
    const { appId, gas, to } = await payoutReady('pm_usdt_bsc', 'USDT-BEP20', token, usdt('50'));
    const { id } = await withdraw(appId, 'USDT-BEP20', to, '7');
    // The history from here on is the one a reorg replaces.
    const snapshot = await node.snapshot();
    await sendPasses(1);
    const sent = await withdrawal(id);
    expect(sent.status).toBe(5);
    await node.mine(15);
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({ status: 1, tx_hash: sent.tx_hash });
    expect(await tokenBalance(token, to)).toBe(usdt('7'));
    const final = async () =>
      (
        await t.db
          .selectFrom('send_transactions')
          .select('final_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).final_at;
    expect(await final()).toBeNull();
    // Another history from before its broadcast, longer than the old one: its block is gone.
    await node.revert(snapshot);
    await node.sendNative(FEE_ADDRESS, 1n);
    await node.mine(20);
    expect(
      await node.publicClient
        .getTransactionReceipt({ hash: sent.tx_hash as Address })
        .catch(() => null),
    ).toBeNull();
    expect(await tokenBalance(token, to)).toBe(0n);
    await sendPasses(1);
    // Back to 5, the same signed transaction broadcast again (mined at once: Hardhat automines).
    expect(await withdrawal(id)).toMatchObject({
      status: 5,
      tx_hash: sent.tx_hash,
      nonce: sent.nonce,
    });
    const again = await node.publicClient.getTransactionReceipt({
      hash: sent.tx_hash as Address,
    });
    expect(again.status).toBe('success');
    await sendPasses(1); // mined again, short of its confirmations
    expect((await withdrawal(id)).status).toBe(5);
    await node.mine(15);
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({ status: 1, tx_hash: sent.tx_hash });
    expect(await final()).toBeNull();
    // Paid once: one transaction was ever signed for it.
    expect(await tokenBalance(token, to)).toBe(usdt('7'));
    expect(await tokenBalance(token, gas)).toBe(usdt('43'));
    const txs = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'status', 'block_number'])
      .where('ref_id', '=', id)
      .execute();
    expect(txs).toEqual([
      { tx_hash: sent.tx_hash, status: 'mined', block_number: Number(again.blockNumber) },
    ]);
    // The webhook says so: reorged between the two completions, each of the same payout.
    const events = await t.db
      .selectFrom('webhook_events')
      .select(['type', 'body'])
      .where('resource_id', '=', id)
      .orderBy('resource_seq', 'asc')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'withdrawal.queued',
      'withdrawal.processing',
      'withdrawal.broadcast',
      'withdrawal.completed',
      'withdrawal.reorged',
      'withdrawal.completed',
    ]);
    const bodies = events.slice(3).map((e) => JSON.parse(e.body) as { data: object });
    expect(bodies.map((b) => b.data)).toEqual([
      expect.objectContaining({ id, status: 1, tx_hash: sent.tx_hash }),
      expect.objectContaining({ id, status: 5, tx_hash: sent.tx_hash }),
      expect.objectContaining({ id, status: 1, tx_hash: sent.tx_hash }),
    ]);
    // Followed until final: the method's confirmations again on top of those.
    await node.mine(15);
    await sendPasses(1);
    expect(await final()).not.toBeNull();
    expect((await withdrawal(id)).status).toBe(1);
  });
});

describe('a deposit account paid on another EVM chain (Hardhat, two chains)', () => {
  it('USDT sent on Ethereum to a BNB Smart Chain account: a USDT-ERC20 deposit of that account, credited and swept on Ethereum', async () => {
    const noBool = await noBoolUsdtOnEthereum();
    const { appId, depositAddress } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    const payout = privateKeyToAddress(`0x${'93'.repeat(32)}`);
    await useMethod(appId, 'pm_usdt_eth', payout, eth);
    await registerApp(t, signer, appId);
    await eth.transfer(noBool, depositAddress, usdt('20', 6));
    const id = await credit(1, depositAddress, 12);
    expect(
      await t.db
        .selectFrom('receive_transactions')
        .select(['chain_id', 'payment_method_id', 'unique_id', 'flag'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      chain_id: 1,
      payment_method_id: 'pm_usdt_eth',
      unique_id: `order-${serial}`,
      flag: 'wrong_network',
    });
    for (let i = 0; i < 6 && (await statusOf(id)) !== 1; i += 1) {
      await completeDeposits(t.db, signer.client, t.clock(), undefined, 1);
    }
    expect(await statusOf(id)).toBe(1);
    expect(await tokenBalance(noBool, payout, eth)).toBe(usdt('19.8', 6));
    expect(await tokenBalance(noBool, depositAddress, eth)).toBe(0n);
  });
});

describe('a payment on the wrong network, found and accepted (Hardhat, two chains)', () => {
  it('USDT sent on Ethereum to a BNB Smart Chain invoice: flagged, accepted in the portal, counted, swept on Ethereum', async () => {
    const noBool = await noBoolUsdtOnEthereum();
    const { appId, userId } = await merchant('pm_usdt_bsc', 'USDT-BEP20');
    const username = (
      await t.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).username;
    const auth = await t.authHeader(username);
    const bsc = chainAdapterFor(t.config, t.db, 56);
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId,
        amount: '50.00',
        currency: 'USD',
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => bsc.tokenContract(listed),
      },
    );
    expect(invoice.payment_options.map((o) => o.method)).toEqual(['USDT-BEP20']);
    const address = (invoice.payment_options[0]?.address ?? '') as Address;
    // The shopper pays on Ethereum, where the invoice's address is the same.
    await eth.transfer(noBool, address, usdt('50', 6));
    const ethereum = chainAdapterFor(t.config, t.db, 1);
    await watchDeposits(t.db, ethereum, t.clock());
    const details = async () =>
      (
        JSON.parse(
          (
            await t.call('getAppInvoice', {
              headers: auth,
              params: { id: appId, invoiceId: invoice.id },
            })
          ).body,
        ) as { data: { invoice: Awaited<ReturnType<typeof getInvoice>> } }
      ).data.invoice;
    const found = await details();
    expect(found).toMatchObject({
      status: 'new',
      paid: '0.00',
      payments: [
        expect.objectContaining({
          method: 'USDT-ERC20',
          chain_id: 1,
          amount: '50',
          flag: 'wrong_network',
          accepted: false,
        }),
      ],
    });
    const accept = () =>
      t.call('acceptAppInvoicePayment', {
        headers: auth,
        params: { id: appId, invoiceId: invoice.id, paymentId: found.payments[0]?.id ?? '' },
      });
    // Nowhere to sweep it on Ethereum yet: the merchant adds USDT-ERC20 first.
    const refused = await accept();
    expect(refused.statusCode).toBe(422);
    expect(JSON.parse(refused.body)).toMatchObject({
      status: false,
      msg: "Add USDT-ERC20 to the app's payment methods first: its payout address receives this payment.",
    });
    const payout = privateKeyToAddress(`0x${'91'.repeat(32)}`);
    await useMethod(appId, 'pm_usdt_eth', payout, eth);
    await registerApp(t, signer, appId);
    const accepted = await accept();
    expect(accepted.statusCode).toBe(200);
    expect(JSON.parse(accepted.body)).toMatchObject({
      msg: 'Payment accepted',
      data: { status: 'processing', paid: '50.00', due: '0.00' },
    });
    // Ethereum's 12 confirmations: settled, credited on Ethereum at the invoice's address.
    await eth.mine(11);
    await watchDeposits(t.db, ethereum, t.clock());
    expect(await details()).toMatchObject({ status: 'settled', exceptions: [] });
    const credit = await t.db
      .selectFrom('receive_transactions')
      .select(['id', 'chain_id', 'payment_method_id', 'address', 'deposit_status'])
      .where('unique_id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(credit).toMatchObject({
      chain_id: 1,
      payment_method_id: 'pm_usdt_eth',
      deposit_status: 3,
    });
    expect(credit.address?.toLowerCase()).toBe(address.toLowerCase());
    // Swept on Ethereum: gas from the method's operational wallet, the fee, the rest to the payout.
    for (let i = 0; i < 6 && (await statusOf(credit.id)) !== 1; i += 1) {
      await completeDeposits(t.db, signer.client, t.clock(), undefined, 1);
    }
    expect(await statusOf(credit.id)).toBe(1);
    expect(await tokenBalance(noBool, payout, eth)).toBe(usdt('49.5', 6));
    expect(await tokenBalance(noBool, FEE_ADDRESS, eth)).toBe(usdt('0.5', 6));
    expect(await tokenBalance(noBool, address, eth)).toBe(0n);
  });
});
