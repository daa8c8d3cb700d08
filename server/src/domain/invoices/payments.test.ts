import { parseUnits } from 'viem';
import { openDb, type Db } from '../../db/connection';
import { addUser } from '../../../test/accounts';
import {
  eventTypesOf,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../chain/localAdapter';
import { specUsdt } from '../chain/specChains';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { watchedMethods } from '../payments/depositScan';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { expireInvoices } from './expiry';
import { cancelInvoice, createInvoice, getInvoice, markInvoice } from './invoices';
import { recordInvoiceTransfers } from './payments';
import { InvoiceStateRefusal } from './stateMachine';
import { acceptPayment } from './strays';
import { ConflictError, InvalidError } from '../errors';

// Payments to invoices on the local chain, through the deposit watcher: partial payments adding
// up, confirmations, the credit of a settled invoice (once), the expiry job, the late window,
// reorgs, and two processes seeing the same payment or expiring the same invoice.

const USDT = specUsdt(56)?.contract ?? '';
const MINUTE = 60_000;

describe('payments to invoices', () => {
  const t = testAppPerBlock();
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
  });

  const chain = () => chainAdapterFor(t.config, t.db, 56);
  const watch = () => watchDeposits(t.db, chain(), t.clock());
  const pay = (to: string, usdt: string, at: Date = t.clock()) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: chain().tokenContract(USDT),
      to,
      amount: parseUnits(usdt, 18),
      createdAt: at.toISOString(),
    });
  const ethereum = () => chainAdapterFor(t.config, t.db, 1);
  /** 53.9 USDT on Ethereum, which the invoices here do not offer; then Ethereum is watched. */
  const payOnEthereum = async (to: string) => {
    await recordLocalChainTransfer(t.db, {
      chainId: 1,
      token: ethereum().tokenContract(specUsdt(1)?.contract ?? ''),
      to,
      amount: parseUnits('53.9', 6),
      createdAt: t.clock().toISOString(),
    });
    return watchDeposits(t.db, ethereum(), t.clock());
  };
  /** 0.1 BNB on BNB Smart Chain, the invoices' chain but not their token; then watched. */
  const payBnb = async (to: string) => {
    await recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: null,
      to,
      amount: parseUnits('0.1', 18),
      createdAt: t.clock().toISOString(),
    });
    return watch();
  };

  /** A merchant with a package and USDT (BEP20), and a new invoice of 49.90 EUR (53.9 USDT). */
  async function newInvoice(expiresIn = 900) {
    serial += 1;
    const userId = await addUser(t, `invoiced_${serial}`);
    await insertSubscription(t, userId);
    const appId = `app_invpay_${serial}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_invpay_${serial}`, app_id: appId });
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
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
      },
    );
    const address = invoice.payment_options[0]?.address ?? '';
    return { appId, id: invoice.id, address };
  }

  const credits = (invoiceId: string) =>
    t.db
      .selectFrom('receive_transactions')
      .select(['deposit_status', 'amount_raw', 'fee_percent', 'fee_raw', 'address'])
      .where('unique_id', '=', invoiceId)
      .execute();

  it('finds USDT sent on another chain, and BNB sent instead: flagged, not counted, announced', async () => {
    const { appId, id, address } = await newInvoice();
    // The invoice offers USDT (BEP20) only; the shopper sends USDT on Ethereum to its address.
    expect(await payOnEthereum(address)).toMatchObject({ invoicePayments: 1 });
    // Then BNB on BNB Smart Chain, the invoice's chain but not its token.
    expect(await payBnb(address)).toMatchObject({ invoicePayments: 1 });
    const stray = {
      status: 'new',
      exceptions: [],
      paid: '0.00',
      due: '49.90',
      payments: [
        expect.objectContaining({
          method: 'USDT-ERC20',
          amount: '53.9',
          value: '0.00',
          status: 'pending',
          flag: 'wrong_network',
          accepted: false,
        }),
        expect.objectContaining({
          method: 'BNB-BSC',
          amount: '0.1',
          value: '0.00',
          flag: 'wrong_asset',
          accepted: false,
        }),
      ],
    };
    expect(await getInvoice(t.db, appId, id)).toMatchObject(stray);
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.payment_received',
    ]);
    // Followed to its confirmations like any payment; seen again, recorded once.
    await mineLocalBlocks(t.db, 15, 1);
    await mineLocalBlocks(t.db, 15);
    await watchDeposits(t.db, ethereum(), t.clock());
    await watch();
    const later = await getInvoice(t.db, appId, id);
    expect(later.payments.map((p) => [p.flag, p.status, p.confirmations])).toEqual([
      ['wrong_network', 'confirmed', 12],
      ['wrong_asset', 'confirmed', 15],
    ]);
    expect(later).toMatchObject({ status: 'new', paid: '0.00' });
    expect(await credits(id)).toEqual([]);
  });

  it('counts a flagged payment once the merchant accepts it: at the locked rate, settled on its own chain and credited there', async () => {
    const { appId, id, address } = await newInvoice();
    await payOnEthereum(address);
    const [stray] = (await getInvoice(t.db, appId, id)).payments;
    const paymentId = stray?.id ?? '';
    expect(paymentId).toMatch(/^ipay_/);
    const rates = new RateBook({ db: t.db, config: t.config });
    const accept = () => acceptPayment(t.db, rates, appId, id, paymentId, t.clock());
    // Its sweep needs a payout address on Ethereum: the app has none yet.
    await expect(accept()).rejects.toThrow(
      new InvalidError(
        "Add USDT-ERC20 to the app's payment methods first: its payout address receives this payment.",
      ),
    );
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'new', paid: '0.00' });
    await insertAppMethod(t, {
      id: `apm_invpay_eth_${serial}`,
      app_id: appId,
      payment_method_id: 'pm_usdt_eth',
    });
    // USDT at the rate the invoice locked for USDT on BNB Smart Chain: 53.9 USDT is 49.90 EUR.
    expect(await accept()).toMatchObject({
      status: 'processing',
      paid: '49.90',
      due: '0.00',
      payments: [expect.objectContaining({ id: paymentId, value: '49.90', accepted: true })],
    });
    await expect(accept()).rejects.toThrow(
      new ConflictError('This payment already counts toward the invoice.'),
    );
    await mineLocalBlocks(t.db, 15, 1);
    await watchDeposits(t.db, ethereum(), t.clock());
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'settled', exceptions: [] });
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);
    // Credited on Ethereum, in its own method, at the address it was sent to.
    expect(
      await t.db
        .selectFrom('receive_transactions')
        .select(['chain_id', 'payment_method_id', 'amount_raw', 'address', 'tnx_count'])
        .where('unique_id', '=', id)
        .execute(),
    ).toEqual([
      {
        chain_id: 1,
        payment_method_id: 'pm_usdt_eth',
        amount_raw: parseUnits('53.9', 6).toString(),
        address,
        tnx_count: 1,
      },
    ]);
    // A settled invoice takes no more: BNB sent now is for a refund.
    await payBnb(address);
    const bnb = (await getInvoice(t.db, appId, id)).payments[1]?.id ?? '';
    await expect(acceptPayment(t.db, rates, appId, id, bnb, t.clock())).rejects.toThrow(
      new InvoiceStateRefusal(
        'settled',
        'The invoice is settled: it takes no more payments. Refund this one instead.',
      ),
    );
  });

  it('adds partial payments up while new, then processing, then settled at depth, credited once', async () => {
    const { appId, id, address } = await newInvoice();
    await pay(address, '21.6'); // 20.00 EUR
    expect(await watch()).toMatchObject({ invoicePayments: 1 });
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'new',
      exceptions: ['paid_partial'],
      paid: '20.00',
      due: '29.90',
      payment_options: [expect.objectContaining({ paid: '21.6', due: '32.3' })],
      payments: [
        expect.objectContaining({
          amount: '21.6',
          value: '20.00',
          confirmations: 1,
          status: 'pending',
        }),
      ],
    });
    await mineLocalBlocks(t.db, 2);
    await pay(address, '32.3');
    await watch();
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'processing',
      exceptions: [],
      paid: '49.90',
      due: '0.00',
      payments: [
        expect.objectContaining({ confirmations: 4, status: 'pending' }),
        expect.objectContaining({ confirmations: 1, status: 'pending' }),
      ],
    });
    await mineLocalBlocks(t.db, 11); // the first has its 15; the second, 12
    await watch();
    expect((await getInvoice(t.db, appId, id)).status).toBe('processing');
    await mineLocalBlocks(t.db, 3);
    await watch();
    const settled = await getInvoice(t.db, appId, id);
    expect(settled).toMatchObject({ status: 'settled', exceptions: [], overpaid: null });
    expect(settled.payments.map((p) => [p.status, p.confirmations])).toEqual([
      ['confirmed', 15],
      ['confirmed', 15],
    ]);
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);
    // One credited deposit at the invoice's address, with the package's fee: counted once.
    expect(await credits(id)).toEqual([
      {
        deposit_status: 3,
        amount_raw: parseUnits('53.9', 18).toString(),
        fee_percent: expect.any(String),
        fee_raw: expect.any(String),
        address,
      },
    ]);
    const usage = await t.db
      .selectFrom('app_daily_usage')
      .select((eb) => eb.fn.sum<number>('deposit_count').as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(Number(usage.n)).toBe(1);
    // Nothing happens twice.
    await mineLocalBlocks(t.db, 5);
    await watch();
    expect(await eventTypesOf(t, id)).toHaveLength(5);
    expect(await credits(id)).toHaveLength(1);
  });

  it('a read while the watcher records a payment shows the payment with the flags it gives', async () => {
    const { appId, id, address } = await newInvoice();
    await pay(address, '20');
    // The watcher's pass commits right after the read took the invoice's row, before the rest.
    let passed = false;
    const racing = new Proxy(t.db, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property !== 'executeQuery' || typeof value !== 'function') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (...args: unknown[]) => {
          const result: unknown = await Reflect.apply(value, target, args);
          if (!passed) {
            passed = true;
            expect(await watch()).toMatchObject({ invoicePayments: 1 });
          }
          return result;
        };
      },
    });

    const read = await getInvoice(racing, appId, id);

    expect(passed).toBe(true);
    expect(read).toMatchObject({ status: 'new', exceptions: ['paid_partial'], paid: '18.51' });
    expect(read.payments).toHaveLength(1);
    expect(read).toEqual(await getInvoice(t.db, appId, id));
  });

  it('flags an overpayment with the excess in both currencies', async () => {
    const { appId, id, address } = await newInvoice();
    await pay(address, '60');
    await watch();
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'processing',
      exceptions: ['paid_over'],
      paid: '55.55',
      overpaid: { value: '5.65', method: 'USDT-BEP20', amount: '6.1' },
    });
  });

  it('counts the same payment once when two processes record it at the same time', async () => {
    const { appId, id, address } = await newInvoice();
    await pay(address, '53.9');
    const other: Db = openDb({ dataDir: t.dataDir, databaseUrl: t.storeEnv.DATABASE_URL });
    try {
      const [method] = await watchedMethods(t.db, chain());
      const transfers = await chain().tokenTransfers(
        chain().tokenContract(USDT),
        [address],
        0,
        await chain().latestBlock(),
      );
      const found = transfers.map((transfer) => ({
        method:
          method ??
          (() => {
            throw new Error('no method');
          })(),
        invoice: { id, appId, address },
        transfer,
        flag: null,
      }));
      const head = await chain().latestBlock();
      const counts = await Promise.all([
        recordInvoiceTransfers(t.db, found, head, t.clock()),
        recordInvoiceTransfers(other, found, head, t.clock()),
      ]);
      expect(counts.sort()).toEqual([0, 1]);
    } finally {
      await other.destroy();
    }
    expect((await getInvoice(t.db, appId, id)).payments).toHaveLength(1);
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.processing',
    ]);
  });

  it('expires an invoice once, across processes, even when the moment was missed', async () => {
    const { appId, id, address } = await newInvoice(300);
    await pay(address, '10');
    await watch();
    // Nothing is due yet.
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    // The server was down when it expired: an hour later, its watcher reads the chain on, and
    // two processes run the job at once.
    const later = new Date(t.clock().getTime() + 60 * MINUTE);
    await watchDeposits(t.db, chain(), later);
    const other: Db = openDb({ dataDir: t.dataDir, databaseUrl: t.storeEnv.DATABASE_URL });
    try {
      await Promise.all([expireInvoices(t.db, later), expireInvoices(other, later)]);
    } finally {
      await other.destroy();
    }
    expect(await expireInvoices(t.db, later)).toBe(0);
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'expired',
      exceptions: ['paid_partial'],
    });
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.expired',
    ]);
  });

  it('settles a payment completed in the late window as paid_late; one after it stays expired', async () => {
    const inWindow = await newInvoice(300);
    const afterWindow = await newInvoice(300);
    t.clock.advance(20 * MINUTE);
    await expireInvoices(t.db, t.clock());
    // Expired at minute 5; the late window (60 min) runs to minute 65.
    await pay(inWindow.address, '53.9');
    await watch();
    expect(await getInvoice(t.db, inWindow.appId, inWindow.id)).toMatchObject({
      status: 'processing',
      exceptions: ['paid_late'],
    });
    await mineLocalBlocks(t.db, 14);
    await watch();
    expect(await getInvoice(t.db, inWindow.appId, inWindow.id)).toMatchObject({
      status: 'settled',
      exceptions: ['paid_late'],
    });
    expect(await eventTypesOf(t, inWindow.id)).toEqual([
      'invoice.created',
      'invoice.expired',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);

    t.clock.advance(50 * MINUTE); // minute 70
    await pay(afterWindow.address, '53.9');
    await mineLocalBlocks(t.db, 14);
    await watch();
    await watch();
    expect(await getInvoice(t.db, afterWindow.appId, afterWindow.id)).toMatchObject({
      status: 'expired',
      exceptions: ['paid_late'],
      payments: [expect.objectContaining({ status: 'confirmed', late: true })],
    });
    expect(await credits(afterWindow.id)).toEqual([]);
  });

  it('sends a processing invoice back to new when a reorg removes its payment, and to invalid once expired', async () => {
    const early = await newInvoice(300);
    const paid = await pay(early.address, '53.9');
    await watch();
    expect((await getInvoice(t.db, early.appId, early.id)).status).toBe('processing');
    await t.db.deleteFrom('chain_transfers').where('tx_hash', '=', paid.txHash).execute();
    await mineLocalBlocks(t.db, 15);
    await watch();
    expect(await getInvoice(t.db, early.appId, early.id)).toMatchObject({
      status: 'new',
      payments: [expect.objectContaining({ status: 'removed', confirmations: 0 })],
      paid: '0.00',
    });

    const late = await newInvoice(300);
    const gone = await pay(late.address, '53.9');
    await watch();
    t.clock.advance(10 * MINUTE);
    await t.db.deleteFrom('chain_transfers').where('tx_hash', '=', gone.txHash).execute();
    await mineLocalBlocks(t.db, 15);
    await watch();
    expect(await getInvoice(t.db, late.appId, late.id)).toMatchObject({
      status: 'invalid',
      invalid_reason: 'payment_removed',
    });
    expect(await eventTypesOf(t, late.id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.invalid',
    ]);
  });

  it('refuses to cancel a paid invoice, and credits one marked settled', async () => {
    const { appId, id, address } = await newInvoice(300);
    await pay(address, '21.6');
    await mineLocalBlocks(t.db, 14);
    await watch();
    await expect(cancelInvoice(t.db, appId, id, t.clock())).rejects.toMatchObject({
      status: 'new',
      message: 'The invoice has payments: it can no longer be cancelled. Mark it invalid instead.',
    });
    const marked = await markInvoice(
      t.db,
      appId,
      id,
      { status: 'settled', reason: 'Short by the exchange fee: accepted.' },
      t.clock(),
    );
    expect(marked).toMatchObject({ status: 'settled', exceptions: ['paid_partial', 'marked'] });
    expect(await credits(id)).toEqual([
      expect.objectContaining({ deposit_status: 3, amount_raw: parseUnits('21.6', 18).toString() }),
    ]);
  });
});
