import { parseEther, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSend, insertSubscription } from '../../test/appRows';
import { startTestSigner, type TestSigner } from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import { chainAdapterFor } from '../domain/chain';
import {
  localBalance,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../domain/chain/localAdapter';
import { acceptLocalTransaction } from '../domain/chain/localSender';
import { TransactionRejectedError } from '../domain/chain/sender';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { completeDeposits } from '../domain/depositCompletion';
import { provisionGasAddresses } from '../domain/gasProvisioner';
import { openAccount } from '../domain/gatewayAccounts';
import { watchDeposits } from '../domain/gatewayDeposits';

// The signer on the local chain: real EIP-155 signatures the local chain checks (the sender
// recovered from the signature must own the funds), deposits completed 3 -> 4 -> 1 with the fee
// split off, and the guard: whatever the web process asks, the signer re-reads the database and
// sweeps only to the configured payout address, never to a changed one before its hold ends.

// Each pass reads and writes the chain tables: slow on PostgreSQL on a busy machine.
jest.setTimeout(120_000);

const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const FEE_ADDRESS = privateKeyToAddress(`0x${'77'.repeat(32)}`);
const ATTACKER = privateKeyToAddress(`0x${'66'.repeat(32)}`);
const usdt = (amount: string) => parseUnits(amount, 18);

let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  t = await createTestApp();
  signer = await startTestSigner(t, { feeAddress: FEE_ADDRESS });
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
});

/** An app with USDT-BEP20 on the local chain, its gas wallet provisioned (and funded). */
let serial = 0;
let appId = '';
let methodId = '';
async function merchant(fundGas = parseEther('1')) {
  serial += 1;
  appId = `app_s${serial}`;
  methodId = `apm_s${serial}`;
  const payout = privateKeyToAddress(`0x${(500 + serial).toString(16).padStart(64, '0')}`);
  const userId = await addUser(t, `signer_merchant_${serial}`);
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId); // Starter: 1 % fee
  await insertAppMethod(t, { id: methodId, app_id: appId });
  await t.db
    .updateTable('app_payment_methods')
    .set({ collect_address: payout })
    .where('id', '=', methodId)
    .execute();
  const xpub = resolveWalletXpub(t.config);
  await provisionGasAddresses(t.db, xpub);
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('id', '=', methodId)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  if (fundGas > 0n) await mint(null, gas, fundGas);
  const { account } = await openAccount(t.db, xpub, {
    appId,
    uniqueId: 'order-1',
    code: 'USDT-BEP20',
    now: t.clock(),
  });
  return { gas, depositAddress: account.address, payout };
}

function mint(token: string | null, to: string, amount: bigint) {
  return recordLocalChainTransfer(t.db, {
    chainId: 56,
    token,
    to,
    amount,
    createdAt: t.clock().toISOString(),
  });
}

/** A USDT deposit of `amount`, seen and credited (status 3) by the watcher. */
async function creditedDeposit(to: string, amount: string): Promise<string> {
  await mint(BSC_USDT, to, usdt(amount));
  const chain = chainAdapterFor(t.config, t.db, 56);
  await watchDeposits(t.db, chain, t.clock());
  await mineLocalBlocks(t.db, 15, 56);
  await watchDeposits(t.db, chain, t.clock());
  const row = await t.db
    .selectFrom('receive_transactions')
    .select(['id', 'deposit_status'])
    .where('address', '=', to)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  expect(row.deposit_status).toBe(3);
  return row.id;
}

/** Runs the completion job `n` times; the last pass's counts. */
async function passes(n: number) {
  let last = await completeDeposits(t.db, signer.client, t.clock());
  for (let i = 1; i < n; i += 1) last = await completeDeposits(t.db, signer.client, t.clock());
  return last;
}

const deposit = (id: string) =>
  t.db
    .selectFrom('receive_transactions')
    .select(['deposit_status', 'gas_transfer_txid', 'collect_txid', 'failure_reason', 'fee_raw'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the local chain takes only signed transactions whose sender owns the funds', () => {
  const key: Hex = `0x${'42'.repeat(32)}`;
  const payer = privateKeyToAccount(key);
  const sign = (over: { chainId?: number; nonce?: number; value?: bigint } = {}) =>
    payer.signTransaction({
      type: 'legacy',
      chainId: over.chainId ?? 56,
      nonce: over.nonce ?? 0,
      gasPrice: 1_000_000_000n,
      gas: 21_000n,
      to: PAYOUT,
      value: over.value ?? parseEther('0.5'),
    });

  it('refuses an unfunded sender, another chain id and a wrong nonce; accepts one funded', async () => {
    await expect(acceptLocalTransaction(t.db, 56, await sign())).rejects.toThrow(
      /Insufficient funds/,
    );
    await mint(null, payer.address, parseEther('1'));
    await expect(acceptLocalTransaction(t.db, 56, await sign({ chainId: 1 }))).rejects.toThrow(
      TransactionRejectedError,
    );
    await expect(acceptLocalTransaction(t.db, 56, await sign({ nonce: 1 }))).rejects.toThrow(
      /Nonce 1/,
    );
    const raw = await sign();
    const hash = await acceptLocalTransaction(t.db, 56, raw);
    expect(await acceptLocalTransaction(t.db, 56, raw)).toBe(hash); // a rebroadcast
    expect(await localBalance(t.db, 56, null, PAYOUT)).toBe(parseEther('0.5'));
    // 1 - 0.5 - 21000 gas at 1 gwei
    expect(await localBalance(t.db, 56, null, payer.address)).toBe(
      parseEther('0.5') - 21_000n * 1_000_000_000n,
    );
    // Sent again it is the same transaction; another one at nonce 0 is refused.
    await expect(
      acceptLocalTransaction(t.db, 56, await sign({ value: parseEther('0.1') })),
    ).rejects.toThrow(/Nonce 0/);
  });
});

describe('deposits complete through the signer (local chain)', () => {
  it('tops up gas (4), then sweeps the fee and the rest (1), each signature logged', async () => {
    const { depositAddress, payout } = await merchant();
    const id = await creditedDeposit(depositAddress, '100');
    expect((await deposit(id)).fee_raw).toBe(usdt('1').toString());

    // The top-up is signed and mined; the next pass finds the gas there and moves on.
    await passes(1);
    expect((await deposit(id)).deposit_status).toBe(3);
    expect(await passes(1)).toMatchObject({ gasTransferred: 1, completed: 0 });
    expect(await deposit(id)).toMatchObject({
      deposit_status: 4,
      gas_transfer_txid: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    // Local transactions are mined at once: the fee leg, then the sweep leg, then done.
    await passes(3);
    expect(await deposit(id)).toMatchObject({
      deposit_status: 1,
      collect_txid: expect.stringMatching(/^0x/),
    });
    expect(await localBalance(t.db, 56, BSC_USDT, FEE_ADDRESS)).toBe(usdt('1'));
    expect(await localBalance(t.db, 56, BSC_USDT, payout)).toBe(usdt('99'));
    expect(await localBalance(t.db, 56, BSC_USDT, depositAddress)).toBe(0n);
    const log = await t.db
      .selectFrom('signer_log')
      .select(['request', 'ref_id', 'reason'])
      .where('ref_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(log.map((l) => l.request)).toEqual(['gas', 'sweep_fee', 'sweep']);
    expect(log.every((l) => l.ref_id === id && l.reason.includes(id))).toBe(true);
    expect(signer.logged.filter((l) => l.ref === id)).toHaveLength(3);
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('resource_id', '=', id)
      .orderBy('resource_seq')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'deposit.pending',
      'deposit.confirmed',
      'deposit.completed',
    ]);
    // Nothing more to do, and nothing is paid twice.
    await passes(2);
    const txs = await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute();
    expect(txs).toHaveLength(3);
  });

  it('waits at 3 while the operational wallet has no gas, and goes on once it is funded', async () => {
    const { gas, depositAddress, payout } = await merchant(0n);
    const id = await creditedDeposit(depositAddress, '10');
    expect(await signer.client.request({ op: 'topUpGas', depositId: id })).toEqual({
      state: 'waiting',
      reason: 'The operational wallet lacks the gas to top up.',
    });
    await passes(1);
    expect((await deposit(id)).deposit_status).toBe(3);
    await mint(null, gas, parseEther('1'));
    await passes(5);
    expect((await deposit(id)).deposit_status).toBe(1);
    expect(await localBalance(t.db, 56, BSC_USDT, payout)).toBe(usdt('9.9'));
  });
});

describe('the signer guard', () => {
  it('refuses a sweep to an address that is not the configured payout address', async () => {
    const { depositAddress } = await merchant();
    const id = await creditedDeposit(depositAddress, '50');
    await passes(2); // gas: status 4
    expect((await deposit(id)).deposit_status).toBe(4);
    const before = await t.db.selectFrom('signer_log').select('id').execute();
    const held = await localBalance(t.db, 56, BSC_USDT, depositAddress);
    // A compromised web process asks for the money to go elsewhere.
    expect(await signer.client.request({ op: 'sweep', depositId: id, to: ATTACKER })).toEqual({
      state: 'refused',
      reason: `${ATTACKER} is not the payout address configured for this app and method.`,
    });
    expect(await t.db.selectFrom('signer_log').select('id').execute()).toEqual(before);
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
    expect(await localBalance(t.db, 56, BSC_USDT, depositAddress)).toBe(held);
  });

  it('refuses sweeps to a changed payout address until its hold ends', async () => {
    const { depositAddress } = await merchant();
    const id = await creditedDeposit(depositAddress, '50');
    await passes(2);
    // The web process writes a new payout address (as a compromised one could) with its hold.
    const until = new Date(t.clock().getTime() + 24 * 3_600_000).toISOString();
    await t.db
      .updateTable('app_payment_methods')
      .set({ collect_address: ATTACKER, payout_hold_until: until })
      .where('id', '=', methodId)
      .execute();
    expect(await signer.client.request({ op: 'sweep', depositId: id, to: ATTACKER })).toEqual({
      state: 'refused',
      reason: `The payout address was changed: sweeps to it are held until ${until}.`,
    });
    await passes(1);
    expect((await deposit(id)).deposit_status).toBe(4); // waits, not failed
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
  });

  it('sends a queued withdrawal once, and refuses one while the settings are held', async () => {
    const { gas } = await merchant();
    await mint(BSC_USDT, gas, usdt('500'));
    await t.db
      .updateTable('apps')
      .set({ whitelist_ip: '203.0.113.7' })
      .where('id', '=', appId)
      .execute();
    const now = t.clock().toISOString();
    await insertSend(t, {
      id: `snd_1_${serial}`,
      app_id: appId,
      amount_micro: 10_000_000,
      to_address: ATTACKER,
      status: 2,
      created_at: now,
    });
    const sent = await signer.client.request({
      op: 'sendWithdrawal',
      withdrawalId: `snd_1_${serial}`,
    });
    expect(sent).toEqual({ state: 'sent', txHash: expect.stringMatching(/^0x/) });
    expect(
      await signer.client.request({ op: 'sendWithdrawal', withdrawalId: `snd_1_${serial}` }),
    ).toEqual({
      state: 'done',
      txHash: sent.state === 'sent' ? sent.txHash : '',
    });
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(usdt('10'));

    await t.db
      .updateTable('apps')
      .set({ whitelist_hold_until: new Date(t.clock().getTime() + 3_600_000).toISOString() })
      .where('id', '=', appId)
      .execute();
    await insertSend(t, {
      id: `snd_2_${serial}`,
      app_id: appId,
      amount_micro: 1_000_000,
      to_address: ATTACKER,
      status: 2,
      created_at: now,
    });
    expect(
      await signer.client.request({ op: 'sendWithdrawal', withdrawalId: `snd_2_${serial}` }),
    ).toMatchObject({ state: 'refused', reason: expect.stringMatching(/held until/) });
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(usdt('10'));
  });
});
