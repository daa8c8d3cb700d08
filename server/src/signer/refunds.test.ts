import { parseEther, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import { eventTypesOf, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { registerApp, runRegistrations, startTestSigner, type TestSigner } from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import type { Db } from '../db/connection';
import { dailyLogs } from '../domain/apps/usage';
import { chainAdapterFor } from '../domain/chain';
import { gasBalanceReader } from '../domain/chain/balances';
import {
  localBalance,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../domain/chain/localAdapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { createInvoice, getInvoice } from '../domain/invoices/invoices';
import { watchDeposits } from '../domain/payments/deposits';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { sendWithdrawals } from '../domain/payments/withdrawalSending';
import { RateBook } from '../domain/rates/rates';
import { advanceRefunds } from '../domain/refunds/funding';
import { reinitiateRefund, requestRefund } from '../domain/refunds/refunds';
import { refundRow } from '../domain/refunds/views';
import { requestSigner } from './client/requestMac';
import type { SpecChainId } from '../domain/chain/specChains';
import { localChains } from '../domain/payments/testDeposits';
import { fundTestWallet } from '../domain/testMode/funding';
import { confirmPayment, simulatePayment } from '../domain/testMode/simulations';
import { openTestMode } from '../domain/testMode/testApps';

// Refunds go out through the signer as withdrawals do, and the signer never pays more than was
// paid: it checks a refund's send against the MAC the web process made for the refund, then
// against what the chain shows was paid to the invoice's address (which it derives itself), less
// what it already signed in refunds from that address. An honest refund reaches the shopper's
// address exactly; an edited refund, or one accepted on payments edited upward in the database,
// signs nothing; a failed refund re-initiated is paid once.

jest.setTimeout(120_000);

const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
const usdt = (amount: string) => parseUnits(amount, 18);

let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  t = await createTestApp();
  signer = await startTestSigner(t);
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
});

const chain = () => chainAdapterFor(t.config, t.db, 56);
const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);

function mint(token: string | null, to: string, amount: bigint) {
  return recordLocalChainTransfer(t.db, {
    chainId: 56,
    token,
    to,
    amount,
    createdAt: t.clock().toISOString(),
  });
}

let serial = 0;
/** A merchant's app with USDT-BEP20, its operational wallet funded with `tokens` and gas. */
async function merchant(tokens = '100') {
  serial += 1;
  const appId = `app_rfs${serial}`;
  const methodId = `apm_rfs${serial}`;
  const userId = await addUser(t, `refunder_${serial}`);
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: methodId, app_id: appId });
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('id', '=', methodId)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  await mint(null, gas, parseEther('1'));
  await mint(BSC_USDT, gas, usdt(tokens));
  await registerApp(t, signer, appId);
  const shopper = privateKeyToAddress(`0x${(5200 + serial).toString(16).padStart(64, '0')}`);
  return { appId, userId, methodId, gas, shopper };
}

/** An invoice of `price` USD paid `paid` USDT on the local chain, settled at depth. */
async function settledInvoice(appId: string, price: string, paid: string) {
  const invoice = await createInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      appId,
      amount: price,
      currency: 'USD',
      expiresIn: 900,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    },
  );
  const address = invoice.payment_options[0]?.address ?? '';
  await mint(chain().tokenContract(BSC_USDT), address, usdt(paid));
  await watchDeposits(t.db, chain(), t.clock());
  await mineLocalBlocks(t.db, 20, 56);
  await watchDeposits(t.db, chain(), t.clock());
  expect(await getInvoice(t.db, appId, invoice.id)).toMatchObject({ status: 'settled' });
  return { id: invoice.id, address };
}

/** The gateway's own path: checked under the invoice's lock, MACed, funded. */
const refund = (
  appId: string,
  invoiceId: string,
  body: { amountKind: 'full' | 'overpaid' | 'custom'; amount?: string; address: string },
) =>
  requestRefund(t.db, {
    appId,
    invoiceId,
    ...body,
    reason: 'Order cancelled',
    now: t.clock(),
    origin: 'https://pay.example.com',
    serverKey: t.config.secretKey,
    rates: new RateBook({ db: t.db, config: t.config }),
    sign: requestSigner(t.config.signerRequestKey),
    tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    readerFor: reader,
  });

/** The withdrawal job's passes (refunds' sends go with them); what it counted as refused. */
async function sendPasses(n: number) {
  const refused: string[] = [];
  const deps = {
    db: t.db,
    signer: signer.client,
    head: () => chain().latestBlock(),
    signerRefused: (request: string) => refused.push(request),
  };
  for (let i = 0; i < n; i += 1) await sendWithdrawals(deps, t.clock());
  return refused;
}

const sendOf = (refundId: string) =>
  t.db
    .selectFrom('send_transactions')
    .select(['id', 'status', 'signed_tx', 'failure_reason'])
    .where('refund_id', '=', refundId)
    .executeTakeFirstOrThrow();

const refusalsOf = (id: string) =>
  t.db
    .selectFrom('signer_refusals')
    .select(['request', 'reason'])
    .where('ref_id', '=', id)
    .execute();

describe('refunds through the signer', () => {
  it('pays the overpaid part to the shopper’s address, exactly', async () => {
    const { appId, gas, shopper } = await merchant();
    const invoice = await settledInvoice(appId, '10', '15');
    const { refund: made } = await refund(appId, invoice.id, {
      amountKind: 'overpaid',
      address: shopper,
    });
    expect(made).toMatchObject({ status: 'queued', amount: '5' });
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'completed' });
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(usdt('5'));
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('95'));
    expect(await eventTypesOf(t, made.id)).toEqual(['refund.created', 'refund.completed']);
    // The invoice shows it: the refund, what went back in the method, and the flag.
    const shown = await getInvoice(t.db, appId, invoice.id);
    expect(shown.exceptions).toEqual(['paid_over', 'partially_refunded']);
    expect(shown.payment_options[0]).toMatchObject({ paid: '15', refunded: '5' });
    expect(shown.refunds).toEqual([
      {
        id: made.id,
        status: 'completed',
        method: 'USDT-BEP20',
        amount: '5',
        created_at: made.created_at,
      },
    ]);
    // Usage and the Daily Logs count its send among the app's sends, marked as a refund.
    const [day] = (await dailyLogs(t.db, appId, { limit: 10, offset: 0 }, { feeLeg: true })).rows;
    expect(day).toMatchObject({
      withdraw_count: 1,
      withdraw_micro: 5_000_000n,
      refund_count: 1,
      refund_micro: 5_000_000n,
    });
  });

  it('waits for funds, is queued once the wallet holds them, and completes', async () => {
    const { appId, gas, shopper } = await merchant('0');
    const invoice = await settledInvoice(appId, '10', '10');
    const { refund: made } = await refund(appId, invoice.id, {
      amountKind: 'full',
      address: shopper,
    });
    expect(made).toMatchObject({ status: 'awaiting_funds', amount: '10' });
    expect(made.waiting_message).toContain(gas);
    // The refunds job finds the wallet still empty: nothing moves.
    await advanceRefunds(t.db, reader, t.clock());
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'awaiting_funds' });
    await sendPasses(1);
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(0n);
    // The merchant funds the wallet; the job queues it, the signer sends it, it is mined.
    await mint(BSC_USDT, gas, usdt('10'));
    await advanceRefunds(t.db, reader, t.clock());
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({
      status: 'queued',
      waiting_message: null,
    });
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'completed' });
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(usdt('10'));
    expect(await eventTypesOf(t, made.id)).toEqual(['refund.created', 'refund.completed']);
  });

  it('refuses a refund whose amount was edited in the database: nothing is signed', async () => {
    const { appId, shopper } = await merchant();
    const invoice = await settledInvoice(appId, '10', '10');
    const { refund: made } = await refund(appId, invoice.id, {
      amountKind: 'custom',
      amount: '2',
      address: shopper,
    });
    const send = await sendOf(made.id);
    await t.db
      .updateTable('send_transactions')
      .set({ amount_raw: usdt('50').toString() })
      .where('id', '=', send.id)
      .execute();
    expect(await sendPasses(2)).toEqual(['withdrawal']);
    expect(await sendOf(made.id)).toMatchObject({
      status: 6,
      signed_tx: null,
      failure_reason: 'signer_refused',
    });
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'failed' });
    expect(await refusalsOf(send.id)).toEqual([
      { request: 'refund', reason: expect.stringMatching(/does not match its MAC/) },
    ]);
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(0n);
  });

  it('refuses a refund accepted on payments edited upward: the chain shows less was paid', async () => {
    const { appId, shopper } = await merchant('100');
    const invoice = await settledInvoice(appId, '10', '10');
    // Whoever writes the database makes the invoice look paid 60 USDT.
    await t.db
      .updateTable('invoice_payments')
      .set({ amount_raw: usdt('60').toString() })
      .where('invoice_id', '=', invoice.id)
      .execute();
    const { refund: made } = await refund(appId, invoice.id, {
      amountKind: 'custom',
      amount: '40',
      address: shopper,
    });
    expect(made.status).toBe('queued');
    const send = await sendOf(made.id);
    expect(await sendPasses(2)).toEqual(['withdrawal']);
    expect(await sendOf(made.id)).toMatchObject({ status: 6, signed_tx: null });
    expect(await refusalsOf(send.id)).toEqual([
      {
        request: 'refund',
        reason: expect.stringContaining(
          `more than the ${usdt('10')} the chain shows was paid there`,
        ) as string,
      },
    ]);
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(0n);
  });

  it('pays a failed refund once it is re-initiated, and once only', async () => {
    const { appId, userId, shopper } = await merchant();
    const invoice = await settledInvoice(appId, '10', '10');
    const { refund: made } = await refund(appId, invoice.id, {
      amountKind: 'full',
      address: shopper,
    });
    // The payment's row points at another transaction (a bad restore): the chain shows nothing
    // paid to the invoice, and the signer refuses; nothing is signed.
    const payment = await t.db
      .selectFrom('invoice_payments')
      .select(['id', 'tx_hash'])
      .where('invoice_id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('invoice_payments')
      .set({ tx_hash: `0x${'ab'.repeat(32)}` })
      .where('id', '=', payment.id)
      .execute();
    await sendPasses(1);
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'signer_refused',
    });
    // Put right, the merchant re-initiates it.
    await t.db
      .updateTable('invoice_payments')
      .set({ tx_hash: payment.tx_hash })
      .where('id', '=', payment.id)
      .execute();
    const send = await sendOf(made.id);
    await reinitiateRefund(t.db, reader, { userId, appId }, made.id, t.clock());
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'queued' });
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'completed' });
    expect((await getInvoice(t.db, appId, invoice.id)).exceptions).toEqual(['refunded']);
    expect(await eventTypesOf(t, made.id)).toEqual([
      'refund.created',
      'refund.failed',
      'refund.completed',
    ]);
    // Set back in the database, it is not paid again: the signer's own record says it was.
    await t.db
      .updateTable('send_transactions')
      .set({ status: 2, signed_tx: null, tx_hash: null, nonce: null, broadcast_at: null })
      .where('id', '=', send.id)
      .execute();
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(usdt('10'));
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'completed' });
  });
});

describe('test mode', () => {
  it('refunds a test invoice’s simulated overpayment through the signer, on chain 97 only', async () => {
    serial += 1;
    const userId = await addUser(t, `test_refunder_${serial}`);
    await insertSubscription(t, userId);
    const liveId = `app_rfs${serial}`;
    await insertApp(t, { id: liveId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_rfs${serial}`, app_id: liveId });
    const sign = requestSigner(t.config.signerRequestKey);
    const { id: appId } = await openTestMode(t.db, userId, liveId, t.clock().toISOString(), sign);
    await runRegistrations(t, signer);
    await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
    const local = localChains(t.config, t.db);
    await fundTestWallet(t.db, local, userId, {
      appId,
      paymentMethodId: 'pm_usdt_bsc_test',
      now: t.clock(),
    });
    const testChain = chainAdapterFor(t.config, t.db, 97);
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId,
        amount: '10',
        currency: 'USD',
        expiresIn: 900,
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => testChain.tokenContract(listed),
      },
    );
    const paid = await simulatePayment(t.db, local, {
      appId,
      invoiceId: invoice.id,
      scenario: 'over',
      now: t.clock(),
    });
    await watchDeposits(t.db, testChain, t.clock());
    await confirmPayment(t.db, local, { appId, txHash: paid.txHash });
    await mineLocalBlocks(t.db, 20, 97);
    await watchDeposits(t.db, testChain, t.clock());
    expect(await getInvoice(t.db, appId, invoice.id)).toMatchObject({ status: 'settled' });

    const shopper = privateKeyToAddress(`0x${(5200 + serial).toString(16).padStart(64, '0')}`);
    const { refund: made } = await requestRefund(t.db, {
      appId,
      invoiceId: invoice.id,
      amountKind: 'overpaid',
      address: shopper,
      reason: 'Order cancelled',
      now: t.clock(),
      origin: 'https://pay.example.com',
      serverKey: t.config.secretKey,
      rates: new RateBook({ db: t.db, config: t.config }),
      sign,
      tokenOnChain: (_chainId, listed) => testChain.tokenContract(listed),
      readerFor: (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 97), db),
    });
    expect(made).toMatchObject({ status: 'queued', amount: '1' });
    const deps = {
      db: t.db,
      signer: signer.client,
      head: (chainId: number) =>
        chainAdapterFor(t.config, t.db, chainId as SpecChainId).latestBlock(),
    };
    await sendWithdrawals(deps, t.clock());
    await mineLocalBlocks(t.db, 15, 97);
    await sendWithdrawals(deps, t.clock());
    expect(await refundRow(t.db, appId, made.id)).toMatchObject({ status: 'completed' });
    expect(await localBalance(t.db, 97, BSC_USDT, shopper)).toBe(usdt('1'));
    expect(await localBalance(t.db, 56, BSC_USDT, shopper)).toBe(0n);
  });
});
