import { parseAbi, parseEther, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import { insertApp, insertSubscription } from '../../test/appRows';
import { startLocalNode, type LocalNode } from '../../test/chain/localNode';
import { registerApp, startTestSigner, type TestSigner } from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import type { Db } from '../db/connection';
import { chainAdapterFor } from '../domain/chain';
import { gasBalanceReader } from '../domain/chain/balances';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { createInvoice, getInvoice } from '../domain/invoices/invoices';
import { watchDeposits } from '../domain/payments/deposits';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { sendWithdrawals } from '../domain/payments/withdrawalSending';
import { RateBook } from '../domain/rates/rates';
import { setTableRate } from '../domain/rates/table';
import { claimRefund } from '../domain/refunds/claims';
import { requestRefund } from '../domain/refunds/refunds';
import { refundRow } from '../domain/refunds/views';
import { requestSigner, type RequestSigner } from './client/requestMac';

// Refunds on a real EVM chain (Hardhat standing in for BNB Smart Chain): the invoice paid with a
// token transfer, the refund claimed by the shopper and sent by the signer from the operational
// wallet, the shopper's balance read on chain; a refund at today's rate after the rate moved pays
// the recomputed amount; and the signer, reading the payments' receipts itself, refuses a refund
// whose row was edited, or one accepted on payments edited upward in the database.

jest.setTimeout(300_000);

const BALANCE_OF = parseAbi(['function balanceOf(address) view returns (uint256)']);
const usdt = (amount: string) => parseUnits(amount, 18);

let node: LocalNode;
let token: Address;
let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  node = await startLocalNode();
  token = (await node.deployToken(18, usdt('1000000'))) as Address;
  t = await createTestApp({ env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token } });
  signer = await startTestSigner(t);
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
  await node?.stop();
});

const chain = () => chainAdapterFor(t.config, t.db, 56);
const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);
/** The web process's MAC, under the test app's request key. */
const sign: RequestSigner = (request) => requestSigner(t.config.signerRequestKey)(request);
const balanceOf = (owner: string) =>
  node.publicClient.readContract({
    address: token,
    abi: BALANCE_OF,
    functionName: 'balanceOf',
    args: [owner as Address],
  });

let serial = 0;
/** An app with USDT (BEP20), its operational wallet holding 1 BNB and 100 USDT on the node. */
async function merchant() {
  serial += 1;
  const appId = `app_evm_refund_${serial}`;
  const userId = await addUser(t, `evm_refund_${serial}`);
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId);
  await t.db
    .insertInto('app_payment_methods')
    .values({
      id: `apm_evm_refund_${serial}`,
      app_id: appId,
      payment_method_id: 'pm_usdt_bsc',
      collect_address: privateKeyToAddress(`0x${(700 + serial).toString(16).padStart(64, '0')}`),
      gas_address: null,
      gas_index: null,
      deposit_status: 1,
      withdraw_status: 0,
      created_at: t.clock().toISOString(),
    })
    .execute();
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('id', '=', `apm_evm_refund_${serial}`)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  await node.sendNative(gas as Address, parseEther('1'));
  await node.transfer(token, gas as Address, usdt('100'));
  await registerApp(t, signer, appId);
  const shopper = privateKeyToAddress(`0x${(7700 + serial).toString(16).padStart(64, '0')}`);
  return { appId, shopper };
}

/** An invoice of `price` `currency` paid `paid` USDT with a token transfer, settled at depth. */
async function settledInvoice(appId: string, price: string, currency: string, paid: string) {
  const invoice = await createInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      appId,
      amount: price,
      currency,
      expiresIn: 900,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    },
  );
  const address = invoice.payment_options[0]?.address ?? '';
  await node.transfer(token, address as Address, usdt(paid));
  await watchDeposits(t.db, chain(), t.clock());
  await node.mine(15);
  await watchDeposits(t.db, chain(), t.clock());
  expect(await getInvoice(t.db, appId, invoice.id)).toMatchObject({ status: 'settled' });
  return invoice.id;
}

const refund = (
  appId: string,
  invoiceId: string,
  body: {
    amountKind: 'full' | 'overpaid' | 'custom';
    amount?: string;
    currency?: string;
    rate?: 'original' | 'current';
    address?: string;
  },
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
    sign,
    tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    readerFor: reader,
  });

/** The withdrawal job's passes with blocks mined between them, until nothing moves. */
async function send(passes = 3) {
  const refused: string[] = [];
  const deps = {
    db: t.db,
    signer: signer.client,
    head: () => chain().latestBlock(),
    signerRefused: (request: string) => refused.push(request),
  };
  for (let i = 0; i < passes; i += 1) {
    await sendWithdrawals(deps, t.clock());
    await node.mine(15);
  }
  return refused;
}

const sendOf = (refundId: string) =>
  t.db
    .selectFrom('send_transactions')
    .select(['id', 'status', 'signed_tx'])
    .where('refund_id', '=', refundId)
    .executeTakeFirstOrThrow();

describe('refunds on an EVM chain', () => {
  it('pays the overpaid part to the address the shopper claims, exactly, read on chain', async () => {
    const { appId, shopper } = await merchant();
    const invoiceId = await settledInvoice(appId, '10', 'USD', '15');
    const made = await refund(appId, invoiceId, { amountKind: 'overpaid' });
    const claimToken = made.claimUrl?.split('/').at(-1) ?? '';
    const claimed = await claimRefund(t.db, {
      token: claimToken,
      address: shopper,
      now: t.clock(),
      sign,
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
      readerFor: reader,
    });
    expect(claimed).toMatchObject({ status: 'queued', amount: '5' });
    await send();
    expect(await refundRow(t.db, appId, made.refund.id)).toMatchObject({ status: 'completed' });
    expect(await balanceOf(shopper)).toBe(usdt('5'));
  });

  it('pays at today’s rate after the rate moved: 10 EUR is 12 USDT at 1.20', async () => {
    const { appId, shopper } = await merchant();
    // 54 USDT for 50 EUR at 1.08 USD a euro.
    const invoiceId = await settledInvoice(appId, '50', 'EUR', '54');
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.2', maxAgeHours: 24, now: t.clock() });
    try {
      const made = await refund(appId, invoiceId, {
        amountKind: 'custom',
        amount: '10',
        currency: 'EUR',
        rate: 'current',
        address: shopper,
      });
      expect(made.refund).toMatchObject({ amount: '12', status: 'queued' });
      await send();
      expect(await balanceOf(shopper)).toBe(usdt('12'));
    } finally {
      await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
    }
  });

  it('refuses an edited refund, and one accepted on payments edited upward: nothing is signed', async () => {
    const { appId, shopper } = await merchant();
    const invoiceId = await settledInvoice(appId, '10', 'USD', '10');
    const edited = await refund(appId, invoiceId, {
      amountKind: 'custom',
      amount: '2',
      address: shopper,
    });
    const editedSend = await sendOf(edited.refund.id);
    await t.db
      .updateTable('send_transactions')
      .set({ amount_raw: usdt('9').toString() })
      .where('id', '=', editedSend.id)
      .execute();
    expect(await send(1)).toEqual(['withdrawal']);
    expect(await sendOf(edited.refund.id)).toMatchObject({ status: 6, signed_tx: null });

    // The database says 60 USDT were paid; the chain's receipt says 10.
    await t.db
      .updateTable('invoice_payments')
      .set({ amount_raw: usdt('60').toString() })
      .where('invoice_id', '=', invoiceId)
      .execute();
    const inflated = await refund(appId, invoiceId, {
      amountKind: 'custom',
      amount: '40',
      address: shopper,
    });
    expect(inflated.refund.status).toBe('queued');
    expect(await send(1)).toEqual(['withdrawal']);
    expect(await sendOf(inflated.refund.id)).toMatchObject({ status: 6, signed_tx: null });
    expect(await refundRow(t.db, appId, inflated.refund.id)).toMatchObject({ status: 'failed' });
    expect(await balanceOf(shopper)).toBe(0n);
  });

  it('a completed refund whose block a reorg takes away: refund.reorged, sent again, completed, paid once', async () => {
    const { appId, shopper } = await merchant();
    const invoiceId = await settledInvoice(appId, '10', 'USD', '10');
    const made = await refund(appId, invoiceId, {
      amountKind: 'custom',
      amount: '3',
      address: shopper,
    });
    const snapshot = await node.snapshot();
    await send(2);
    expect(await refundRow(t.db, appId, made.refund.id)).toMatchObject({ status: 'completed' });
    expect(await balanceOf(shopper)).toBe(usdt('3'));
    // Another history from before its broadcast, longer than the old one.
    await node.revert(snapshot);
    await node.mine(40);
    expect(await balanceOf(shopper)).toBe(0n);
    await send(2);
    expect(await refundRow(t.db, appId, made.refund.id)).toMatchObject({ status: 'completed' });
    expect(await balanceOf(shopper)).toBe(usdt('3'));
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('resource_id', '=', made.refund.id)
      .orderBy('resource_seq', 'asc')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'refund.created',
      'refund.completed',
      'refund.reorged',
      'refund.completed',
    ]);
    const { id } = await sendOf(made.refund.id);
    expect(
      await t.db.selectFrom('chain_txs').select('status').where('ref_id', '=', id).execute(),
    ).toEqual([{ status: 'mined' }]);
  });
});
