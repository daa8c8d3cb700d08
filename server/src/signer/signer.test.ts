import { parseEther, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import {
  eventTypesOf,
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../test/appRows';
import {
  registerApp,
  runRegistrations,
  seedAccount,
  startTestSigner,
  type TestSigner,
} from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import { chainAdapterFor } from '../domain/chain';
import {
  localBalance,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../domain/chain/localAdapter';
import {
  acceptLocalTransaction,
  LOCAL_GAS_PRICE,
  LocalChainSender,
} from '../domain/chain/localSender';
import { TransactionRejectedError } from '../domain/chain/sender';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import type { Db } from '../db/connection';
import { gasBalanceReader } from '../domain/chain/balances';
import { createInvoice, getInvoice } from '../domain/invoices/invoices';
import { RateBook } from '../domain/rates/rates';
import { completeDeposits } from '../domain/payments/depositCompletion';
import { GAS_BRANCH, provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { openAccount } from '../domain/payments/accounts';
import { watchDeposits } from '../domain/payments/deposits';
import { sendWithdrawals } from '../domain/payments/withdrawalSending';
import { localChains } from '../domain/payments/testDeposits';
import type { SpecChainId } from '../domain/chain/specChains';
import { fundTestWallet } from '../domain/testMode/funding';
import { openTestMode } from '../domain/testMode/testApps';
import { requestSigner } from './client/requestMac';
import {
  cancelWithdrawal,
  moveWithdrawal,
  reinitiateWithdrawal,
  requestWithdrawal,
} from '../domain/payments/withdrawals';

// The signer on the local chain: real EIP-155 signatures the local chain checks (the sender
// recovered from the signature must own the funds), deposits completed 3 -> 4 -> 1 with the fee
// split off, and the guard: whatever the web process asks or the database says, the signer sweeps
// only to the payout address its own store has in effect, and holds withdrawals while it holds a
// change of the app's settings.

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
let ownerId = '';
/** Where the merchant's withdrawals go (one address per merchant). */
let payee = '';
async function merchant(fundGas = parseEther('1')) {
  serial += 1;
  appId = `app_s${serial}`;
  methodId = `apm_s${serial}`;
  const payout = privateKeyToAddress(`0x${(500 + serial).toString(16).padStart(64, '0')}`);
  const userId = await addUser(t, `signer_merchant_${serial}`);
  ownerId = userId;
  payee = privateKeyToAddress(`0x${(900 + serial).toString(16).padStart(64, '0')}`);
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
  await registerApp(t, signer, appId);
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

/** Runs the withdrawal job `n` times (through `via`); the last pass's counts. */
async function sendPasses(n: number, via: TestSigner = signer) {
  const deps = {
    db: t.db,
    signer: via.client,
    head: (chainId: number) =>
      chainAdapterFor(t.config, t.db, chainId as SpecChainId).latestBlock(),
  };
  let last = await sendWithdrawals(deps, t.clock());
  for (let i = 1; i < n; i += 1) last = await sendWithdrawals(deps, t.clock());
  return last;
}

const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);

/** The merchant's servers, as the gateway's withdrawals need a whitelist (its first: not held). */
async function whitelist(ips = '203.0.113.7') {
  await t.db.updateTable('apps').set({ whitelist_ip: ips }).where('id', '=', appId).execute();
  await registerApp(t, signer, appId);
}

/** A withdrawal of `amount` USDT to the merchant's payee through the gateway's own path (2 Queued). */
const withdraw = (amount: string) =>
  requestWithdrawal(t.db, reader, {
    appId,
    uniqueId: `payout-${amount}`,
    code: 'USDT-BEP20',
    toAddress: payee,
    amount,
    now: t.clock(),
    sign: requestSigner(t.config.signerRequestKey),
  });

const withdrawal = (id: string) =>
  t.db
    .selectFrom('send_transactions')
    .select(['status', 'signed_tx', 'tx_hash', 'nonce', 'broadcast_at', 'failure_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const eventTypes = (id: string) => eventTypesOf(t, id);

/** Spends all but a trace of the operational wallet's BNB, signed with its own key. */
async function drain(gas: string) {
  const { gas_index: index } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_index')
    .where('id', '=', methodId)
    .executeTakeFirstOrThrow();
  const owner = seedAccount(t, `${GAS_BRANCH}/0/${index}`);
  const sender = new LocalChainSender(t.db, 56);
  const fee = 21_000n * LOCAL_GAS_PRICE;
  const raw = await owner.signTransaction({
    type: 'legacy',
    chainId: 56,
    nonce: await sender.nonce(gas),
    gasPrice: LOCAL_GAS_PRICE,
    gas: 21_000n,
    to: PAYOUT,
    value: (await sender.balance(gas, null)) - fee - 1n,
  });
  await acceptLocalTransaction(t.db, 56, raw);
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
  it("one merchant's deposits that cannot move do not hold up another merchant's", async () => {
    // 25 deposits of an app whose operational wallet has no gas: more than a pass takes.
    const stuck = await merchant(0n);
    for (let i = 0; i < 25; i += 1) await creditedDeposit(stuck.depositAddress, '10');
    const { depositAddress } = await merchant();
    const id = await creditedDeposit(depositAddress, '100');
    await passes(1);
    expect(await passes(1)).toMatchObject({ gasTransferred: 1 });
    await passes(3);
    expect((await deposit(id)).deposit_status).toBe(1);
    const waiting = await t.db
      .selectFrom('receive_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('address', '=', stuck.depositAddress)
      .where('deposit_status', '=', 3)
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBe(25);
  });

  it('tops up gas (4), then sweeps the fee and the rest (1), each signature logged', async () => {
    const { depositAddress, payout } = await merchant();
    const feesBefore = await localBalance(t.db, 56, BSC_USDT, FEE_ADDRESS);
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
    expect((await localBalance(t.db, 56, BSC_USDT, FEE_ADDRESS)) - feesBefore).toBe(usdt('1'));
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
    expect(await eventTypes(id)).toEqual([
      'deposit.pending',
      'deposit.confirmed',
      'deposit.completed',
    ]);
    // Nothing more to do, and nothing is paid twice.
    await passes(2);
    const txs = await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute();
    expect(txs).toHaveLength(3);
  });

  it('waits at 3 while the operational wallet has no gas, saying what to send where, and goes on once it is funded', async () => {
    const { gas, depositAddress, payout } = await merchant(0n);
    const id = await creditedDeposit(depositAddress, '10');
    // Two legs (the fee, then the rest) at 100,000 gas, and the top-up's own 21,000, at 1 gwei.
    const reason = `The operational wallet ${gas} holds 0 BNB; the gas top-up of this deposit needs 0.000221 BNB (the network fees of its sweep and of the top-up itself). Send at least 0.000221 BNB to ${gas}.`;
    expect(await signer.client.request({ op: 'topUpGas', depositId: id })).toEqual({
      state: 'waiting',
      code: 'operational_wallet_needs_gas',
      reason,
    });
    // What the merchant sees: the gateway's deposit and the portal's Receive list.
    const key = await insertApiKey(t, {
      id: `key_${appId}`,
      app_id: appId,
      abilities: ['deposits:read'],
    });
    const headers = await t.authHeader(`signer_merchant_${serial}`);
    const seen = async () => {
      const gateway = await t.inject({
        method: 'GET',
        url: `/gateway/v1/deposits/${id}`,
        headers: { authorization: `Bearer ${key}` },
      });
      const details = await t.call('getAppDetails', { headers, params: { id: appId } });
      const row = details.json().data.receive.data.find((r: { id: string }) => r.id === id);
      return {
        status: gateway.json().status,
        gateway: gateway.json().waiting_reason,
        portal: row.waiting_reason,
      };
    };
    expect(await seen()).toEqual({ status: 3, gateway: null, portal: null });
    await passes(1);
    expect(await seen()).toEqual({
      status: 3,
      gateway: { code: 'operational_wallet_needs_gas', message: reason },
      portal: reason,
    });
    // Funded: the top-up goes out, and the deposit no longer waits for the wallet.
    await mint(null, gas, parseEther('1'));
    await passes(1);
    expect(await seen()).toEqual({ status: 3, gateway: null, portal: null });
    await passes(5);
    expect((await deposit(id)).deposit_status).toBe(1);
    expect(await seen()).toEqual({ status: 1, gateway: null, portal: null });
    expect(await localBalance(t.db, 56, BSC_USDT, payout)).toBe(usdt('9.9'));
  });
});

describe("a settled invoice's money completes through the signer (local chain)", () => {
  it("is swept from the invoice's own address, its key on the invoices' branch, fee leg first", async () => {
    const { payout } = await merchant();
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId,
        amount: '53.9',
        currency: 'USD',
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => listed,
      },
    );
    const address = invoice.payment_options[0]?.address ?? '';
    await mint(BSC_USDT, address, usdt('53.9'));
    const chain = chainAdapterFor(t.config, t.db, 56);
    await watchDeposits(t.db, chain, t.clock());
    await mineLocalBlocks(t.db, 15, 56);
    await watchDeposits(t.db, chain, t.clock());
    expect((await getInvoice(t.db, appId, invoice.id)).status).toBe('settled');
    const { id } = await t.db
      .selectFrom('receive_transactions')
      .select('id')
      .where('unique_id', '=', invoice.id)
      .executeTakeFirstOrThrow();

    const feesBefore = await localBalance(t.db, 56, BSC_USDT, FEE_ADDRESS);
    await passes(2);
    expect((await deposit(id)).deposit_status).toBe(4);
    await passes(3);
    expect((await deposit(id)).deposit_status).toBe(1);
    // Starter's 1 %: 0.539 USDT to the gateway, the rest to the payout address.
    expect((await localBalance(t.db, 56, BSC_USDT, FEE_ADDRESS)) - feesBefore).toBe(usdt('0.539'));
    expect(await localBalance(t.db, 56, BSC_USDT, payout)).toBe(usdt('53.361'));
    expect(await localBalance(t.db, 56, BSC_USDT, address)).toBe(0n);
    expect(await eventTypes(id)).toEqual(['deposit.confirmed', 'deposit.completed']);
  });
});

describe('the signer guard', () => {
  it('refuses a sweep to an address that is not the payout address in effect', async () => {
    const { depositAddress } = await merchant();
    const id = await creditedDeposit(depositAddress, '50');
    await passes(2); // gas: status 4
    expect((await deposit(id)).deposit_status).toBe(4);
    const before = await t.db.selectFrom('signer_log').select('id').execute();
    const held = await localBalance(t.db, 56, BSC_USDT, depositAddress);
    // A compromised web process asks for the money to go elsewhere.
    expect(await signer.client.request({ op: 'sweep', depositId: id, to: ATTACKER })).toEqual({
      state: 'refused',
      code: 'signer_refused',
      reason: `${ATTACKER} is not the payout address the signer has in effect for this app and method.`,
    });
    expect(await t.db.selectFrom('signer_log').select('id').execute()).toEqual(before);
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
    expect(await localBalance(t.db, 56, BSC_USDT, depositAddress)).toBe(held);
  });

  it('takes no payout address from the database: one written there only is refused, hold or none', async () => {
    const { depositAddress } = await merchant();
    const id = await creditedDeposit(depositAddress, '50');
    await passes(2);
    // Whoever writes the database puts their address there, with no hold.
    await t.db
      .updateTable('app_payment_methods')
      .set({ collect_address: ATTACKER, payout_hold_until: null })
      .where('id', '=', methodId)
      .execute();
    const refused: string[] = [];
    await completeDeposits(t.db, signer.client, t.clock(), (request) => refused.push(request));
    expect(refused).toEqual(['sweep']);
    expect(await deposit(id)).toMatchObject({ deposit_status: 5, failure_reason: 'sweep_failed' });
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
    expect(
      await t.db.selectFrom('signer_refusals').select('request').where('ref_id', '=', id).execute(),
    ).toEqual([{ request: 'sweep' }]);
  });

  it('holds a withdrawal while the signer holds the whitelist change, whatever the database says; not taken by the job (not 3): refused', async () => {
    const { gas } = await merchant();
    await mint(BSC_USDT, gas, usdt('500'));
    await whitelist();
    const id = (await withdraw('10')).id;
    expect(await signer.client.request({ op: 'sendWithdrawal', withdrawalId: id })).toEqual({
      state: 'refused',
      reason: `Withdrawal ${id} is in status 2, not 3.`,
    });
    // The whitelist changes (held by the signer from now), and its hold is cleared in the database.
    await whitelist('203.0.113.8');
    await t.db
      .updateTable('apps')
      .set({ whitelist_hold_until: null })
      .where('id', '=', appId)
      .execute();
    const until = new Date(t.clock().getTime() + 24 * 3_600_000).toISOString();
    expect(await sendPasses(2)).toMatchObject({ sent: 0, failed: 0 });
    expect(await withdrawal(id)).toMatchObject({ status: 3, signed_tx: null });
    expect(await signer.client.request({ op: 'sendWithdrawal', withdrawalId: id })).toEqual({
      state: 'waiting',
      reason: `The app's settings changed: withdrawals are held until ${until}.`,
    });
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(0n);
    // Once the signer's hold is over, it goes out.
    t.clock.advance(24 * 3_600_000 + 1);
    expect(await sendPasses(1)).toMatchObject({ sent: 1 });
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('10'));
    await mineLocalBlocks(t.db, 15, 56);
    expect(await sendPasses(1)).toMatchObject({ completed: 1 });
  });
});

describe('withdrawals go out through the signer (local chain)', () => {
  it('Queued, Processing Transfer, Awaiting Blockchain Confirmation, then Completed after the confirmations', async () => {
    const { gas } = await merchant();
    await mint(BSC_USDT, gas, usdt('500'));
    await whitelist();
    const { id } = await withdraw('10');
    expect(await sendPasses(1)).toEqual({ sent: 1, completed: 0, failed: 0, reorged: 0 });
    const [signed] = await t.db
      .selectFrom('chain_txs')
      .select(['tx_hash', 'raw_tx', 'nonce', 'created_at'])
      .where('ref_id', '=', id)
      .execute();
    // Stored on the row (signed, its hash and nonce) before the broadcast; then broadcast.
    expect(await withdrawal(id)).toMatchObject({
      status: 5,
      signed_tx: signed?.raw_tx,
      tx_hash: signed?.tx_hash,
      nonce: signed?.nonce,
      broadcast_at: expect.any(String),
    });
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('10'));
    // Mined at once on the local chain, but short of USDT-BEP20's confirmations.
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(5);
    await mineLocalBlocks(t.db, 15, 56);
    expect(await sendPasses(1)).toMatchObject({ completed: 1 });
    expect(await withdrawal(id)).toMatchObject({ status: 1, tx_hash: signed?.tx_hash });
    expect(await eventTypes(id)).toEqual([
      'withdrawal.queued',
      'withdrawal.processing',
      'withdrawal.broadcast',
      'withdrawal.completed',
    ]);
    // Sent once: further passes sign nothing.
    await sendPasses(2);
    expect(
      await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute(),
    ).toHaveLength(1);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('10'));
  });

  it('a wallet drained of gas after the request: Unsuccessful, then funded and re-initiated, Completed', async () => {
    const { gas } = await merchant(parseEther('0.01'));
    await mint(BSC_USDT, gas, usdt('100'));
    await whitelist();
    const { id } = await withdraw('25');
    await drain(gas);
    expect(await sendPasses(1)).toMatchObject({ failed: 1 });
    expect(await withdrawal(id)).toMatchObject({
      status: 6,
      signed_tx: null,
      failure_reason: expect.stringMatching(/lacks the network fee/),
    });
    // Nothing was signed: the portal's Reinitiate takes it (its reservation checked again).
    await mint(null, gas, parseEther('0.01'));
    await reinitiateWithdrawal(t.db, reader, ownerId, id, t.clock());
    expect((await withdrawal(id)).status).toBe(2);
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(1);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('25'));
    expect(await eventTypes(id)).toEqual([
      'withdrawal.queued',
      'withdrawal.processing',
      'withdrawal.failed',
      'withdrawal.queued',
      'withdrawal.processing',
      'withdrawal.broadcast',
      'withdrawal.completed',
    ]);
  });

  it('a withdrawal cancelled in Processing Transfer before the signer signs is never signed', async () => {
    const { gas } = await merchant();
    await mint(BSC_USDT, gas, usdt('100'));
    await whitelist();
    const { id } = await withdraw('5');
    await t.db
      .transaction()
      .execute((trx) => moveWithdrawal(trx, { id, from: [2], to: 3, now: t.clock() }));
    await cancelWithdrawal(t.db, ownerId, id, t.clock());
    expect(await signer.client.request({ op: 'sendWithdrawal', withdrawalId: id })).toEqual({
      state: 'refused',
      reason: `Withdrawal ${id} is in status 7, not 3.`,
    });
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({ status: 7, signed_tx: null });
    expect(
      await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('a transaction stored but not broadcast (the chain unreachable) is sent later with the same bytes', async () => {
    const { gas } = await merchant();
    await mint(BSC_USDT, gas, usdt('100'));
    await whitelist();
    const { id } = await withdraw('7');
    const flaky = await startTestSigner(t, {}, { failBroadcasts: 1, socketFile: 'flaky.sock' });
    try {
      await sendPasses(1, flaky);
      const stored = await withdrawal(id);
      expect(stored).toMatchObject({ status: 5, broadcast_at: null });
      expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(0n);
      await sendPasses(1);
      expect(await withdrawal(id)).toMatchObject({
        signed_tx: stored.signed_tx,
        tx_hash: stored.tx_hash,
        broadcast_at: expect.any(String),
      });
      expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('7'));
    } finally {
      await flaky.close();
    }
  });
});

describe('test mode: money out through the same signer, on the test network only', () => {
  it('a test app funded with one click withdraws on chain 97, Completed, and nothing moves on chain 56', async () => {
    serial += 1;
    const userId = await addUser(t, `signer_tester_${serial}`);
    await insertSubscription(t, userId);
    const liveId = `app_s${serial}`;
    await insertApp(t, { id: liveId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_s${serial}`, app_id: liveId });
    const sign = requestSigner(t.config.signerRequestKey);
    const testApp = await openTestMode(t.db, userId, liveId, t.clock().toISOString(), sign);
    appId = testApp.id;
    // The test app's registrations, as the worker runs them when it is made.
    await runRegistrations(t, signer);
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const funded = await fundTestWallet(t.db, localChains(t.config, t.db), userId, {
      appId,
      paymentMethodId: 'pm_usdt_bsc_test',
      now: t.clock(),
    });
    expect(funded).toMatchObject({ nativeAmount: '10', tokenAmount: '10000' });
    payee = privateKeyToAddress(`0x${(900 + serial).toString(16).padStart(64, '0')}`);
    await whitelist();

    const { id } = await withdraw('10');
    expect(await sendPasses(1)).toMatchObject({ sent: 1 });
    const [signed] = await t.db
      .selectFrom('chain_txs')
      .select(['chain_id', 'tx_hash'])
      .where('ref_id', '=', id)
      .execute();
    expect(signed?.chain_id).toBe(97);
    await mineLocalBlocks(t.db, 15, 97);
    expect(await sendPasses(1)).toMatchObject({ completed: 1 });
    expect(await withdrawal(id)).toMatchObject({ status: 1, tx_hash: signed?.tx_hash });
    expect(await localBalance(t.db, 97, BSC_USDT, payee)).toBe(usdt('10'));
    // The live network never saw it.
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(0n);
  });
});
