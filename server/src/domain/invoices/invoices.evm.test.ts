import { getAddress, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../../test/accounts';
import {
  eventTypesOf,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../../test/appRows';
import {
  FAULTY,
  passThrough,
  startFaultProxy,
  type FaultProxy,
} from '../../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { chainAdapterFor } from '../chain';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { expireInvoices } from './expiry';
import { createInvoice, getInvoice } from './invoices';

// Invoices against a real EVM chain: a Hardhat node standing in for BNB Smart Chain
// (CHAIN_RPC_URL, our ERC-20 at USDT_CONTRACT), paid with real token transfers. Partial
// payments add up to processing and settle at the method's 15 confirmations; an overpayment is
// flagged with its excess; a payment within the late window settles, one after it does not; a
// reorg (evm_snapshot / evm_revert) of the covering payment before its depth sends the invoice
// back to new. BNB Smart Chain is read through two providers, one of them faulty as real ones are
// (FAULTY): every payment still counts once, none missed, none before its confirmations.

jest.setTimeout(180_000);

const usdt = (amount: string) => parseUnits(amount, 18);
const someAddress = (n: number): Address =>
  privateKeyToAddress(`0x${(2000 + n).toString(16).padStart(64, '0')}`);
const MINUTE = 60_000;

let node: LocalNode;
let token: Address;
let t: TestApp;
let faulty: FaultProxy;
beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000000'));
  faulty = await startFaultProxy(node.url);
  faulty.set(FAULTY);
  t = await createTestApp({
    env: { CHAIN_RPC_URL: `${faulty.url}|${node.url}`, USDT_CONTRACT: token },
  });
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
});
afterAll(async () => {
  await t?.close();
  await faulty?.close();
  await node?.stop();
});

const chain = () => chainAdapterFor(t.config, t.db, 56);
const watch = () => passThrough(() => watchDeposits(t.db, chain(), t.clock()));

let serial = 0;
/** A new invoice of 49.90 EUR (53.9 USDT), created `minutesAgo` minutes ago, and its address. */
async function invoiceOf(expiresIn = 900, minutesAgo = 0) {
  serial += 1;
  const userId = await addUser(t, `evm_invoiced_${serial}`);
  const appId = `app_evm_inv_${serial}`;
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: `apm_evm_inv_${serial}`, app_id: appId });
  const invoice = await createInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      appId,
      amount: '49.90',
      currency: 'EUR',
      expiresIn,
      checkoutOrigin: 'https://pay.example.com',
      now: new Date(Date.now() - minutesAgo * MINUTE),
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    },
  );
  const option = invoice.payment_options[0];
  expect(option).toMatchObject({ token_contract: getAddress(token), amount_due: '53.9' });
  return { appId, id: invoice.id, address: (option?.address ?? '') as Address };
}

const invoice = (appId: string, id: string) => getInvoice(t.db, appId, id);

describe('invoices on an EVM chain (Hardhat)', () => {
  it('settles an invoice paid by a real ERC-20 in two partial payments, at 15 confirmations', async () => {
    const { appId, id, address } = await invoiceOf();
    await node.transfer(token, address, usdt('21.6'));
    await watch();
    expect(await invoice(appId, id)).toMatchObject({
      status: 'new',
      exceptions: ['paid_partial'],
      paid: '20.00',
    });
    const second = await node.transfer(token, address, usdt('32.3'));
    await watch();
    expect(await invoice(appId, id)).toMatchObject({ status: 'processing', exceptions: [] });
    await node.mine(13); // the second payment has 14 blocks
    await watch();
    expect((await invoice(appId, id)).status).toBe('processing');
    await node.mine(1);
    await watch();
    const settled = await invoice(appId, id);
    expect(settled).toMatchObject({ status: 'settled', paid: '49.90', due: '0.00' });
    expect(settled.payments).toEqual([
      expect.objectContaining({ amount: '21.6', status: 'confirmed', confirmations: 15 }),
      expect.objectContaining({
        amount: '32.3',
        tx_hash: second,
        status: 'confirmed',
        confirmations: 15,
      }),
    ]);
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);
  });

  it('flags an overpayment with the excess, in the currency and the token', async () => {
    const { appId, id, address } = await invoiceOf();
    await node.transfer(token, address, usdt('60'));
    await node.mine(14);
    await watch();
    await watch();
    expect(await invoice(appId, id)).toMatchObject({
      status: 'settled',
      exceptions: ['paid_over'],
      overpaid: { value: '5.65', method: 'USDT-BEP20', amount: '6.1' },
    });
  });

  it('settles a payment within the late window as paid_late; after it, the invoice stays expired', async () => {
    // Created 20 minutes ago, expired 15 minutes ago: the late window runs 45 more minutes.
    const inWindow = await invoiceOf(300, 20);
    // Created 2 hours ago, expired 115 minutes ago: its late window closed 55 minutes ago.
    const tooLate = await invoiceOf(300, 120);
    await expireInvoices(t.db, t.clock());
    await node.transfer(token, inWindow.address, usdt('53.9'));
    await node.transfer(token, tooLate.address, usdt('53.9'));
    await watch();
    expect(await invoice(inWindow.appId, inWindow.id)).toMatchObject({
      status: 'processing',
      exceptions: ['paid_late'],
    });
    await node.mine(14);
    await watch();
    expect(await invoice(inWindow.appId, inWindow.id)).toMatchObject({
      status: 'settled',
      exceptions: ['paid_late'],
    });
    expect(await invoice(tooLate.appId, tooLate.id)).toMatchObject({
      status: 'expired',
      exceptions: ['paid_late'],
      payments: [expect.objectContaining({ status: 'confirmed', late: true })],
    });
    expect(await eventTypesOf(t, tooLate.id)).toEqual([
      'invoice.created',
      'invoice.expired',
      'invoice.payment_received',
    ]);
  });

  it('sends the invoice back to new when a reorg removes its covering payment before depth', async () => {
    const { appId, id, address } = await invoiceOf();
    const snapshot = await node.snapshot();
    await node.transfer(token, address, usdt('53.9'));
    await watch();
    expect((await invoice(appId, id)).status).toBe('processing');
    // Another history from the snapshot on, longer than the confirmations.
    await node.revert(snapshot);
    await node.transfer(token, someAddress(1), usdt('1'));
    await node.mine(20);
    await watch();
    expect(await invoice(appId, id)).toMatchObject({
      status: 'new',
      paid: '0.00',
      payments: [expect.objectContaining({ status: 'removed', confirmations: 0 })],
    });
    // Paid again, for real this time: it settles, and the removed payment counts for nothing.
    await node.transfer(token, address, usdt('53.9'));
    await node.mine(14);
    await watch();
    await watch();
    expect(await invoice(appId, id)).toMatchObject({ status: 'settled', exceptions: [] });
  });
});

describe('the faulty provider', () => {
  // First in the setting, it was asked first, failed, and the ranking put the other ahead: the
  // invoices were followed around its faults, not through them.
  it('was asked, failed, and was routed around', () => {
    expect(faulty.calls()).toBeGreaterThan(0);
    expect(faulty.outcomes().status429 ?? 0).toBeGreaterThan(0);
  });
});
