import { parseUnits } from 'viem';
import { addUser } from '../../../test/accounts';
import {
  insertApp,
  insertAppMethod,
  insertReceive,
  insertSubscription,
} from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { dashboardOf } from '../account/dashboard';
import { planTransactionCounts } from '../apps/plan';
import { dailyLogs, derivedDailyUsage, methodTotals, storedDailyUsage } from '../apps/usage';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../chain/localAdapter';
import { specUsdt } from '../chain/specChains';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { createInvoice, getInvoice } from './invoices';

// A settled invoice counts once against the plan (tnx_limit, daily_tnx_limit), on the
// dashboard and in Usage, whatever the methods it was paid in; each method's deposit keeps its
// own amount, fee and net for its sweep. Deposits to accounts still count one each.

const USDT = specUsdt(56)?.contract ?? '';
const FEE_LEG = { feeLeg: true };
/** Mid-morning (UTC): the plan's windows start inside the day, and the day does not turn. */
const START = new Date('2026-11-20T09:30:00.000Z');

describe('an invoice paid in two methods', () => {
  const t = testAppPerBlock();
  let serial = 0;

  beforeAll(async () => {
    t.clock.set(START);
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
    await setTableRate(t.db, { pair: 'BNB/USD', rate: '600', maxAgeHours: 24, now: t.clock() });
  });

  const chain = () => chainAdapterFor(t.config, t.db, 56);
  const watch = () => watchDeposits(t.db, chain(), t.clock());
  const pay = (to: string, token: string | null, amount: string) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: token === null ? null : chain().tokenContract(token),
      to,
      amount: parseUnits(amount, 18),
      createdAt: t.clock().toISOString(),
    });

  /** A package of our own (1 % fee), small enough to reach its limits. */
  async function tinyPackage(id: string, limits: { tnx: number; daily: number }) {
    await t.db
      .insertInto('packages')
      .values({
        id,
        name: `Tiny ${id}`,
        price_micro: 1_000_000,
        duration_days: 30,
        fees: 1,
        tnx_limit: limits.tnx,
        daily_tnx_limit: limits.daily,
        app_count: 1,
        sort_order: 9,
        is_active: 0,
      })
      .execute();
  }

  /** A merchant with the package, USDT (BEP20) and BNB for deposits. */
  async function merchant(packageId: string) {
    serial += 1;
    const userId = await addUser(t, `twice_${serial}`);
    await insertSubscription(t, userId, { packageId });
    const appId = `app_twice_${serial}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_twice_${serial}_usdt`, app_id: appId });
    await insertAppMethod(t, {
      id: `apm_twice_${serial}_bnb`,
      app_id: appId,
      payment_method_id: 'pm_bnb',
    });
    return { userId, appId };
  }

  const newInvoice = (appId: string) =>
    createInvoice(t.db, new RateBook({ db: t.db, config: t.config }), resolveWalletXpub(t.config), {
      appId,
      amount: '49.90',
      currency: 'EUR',
      expiresIn: 900,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    });

  /** A new invoice of 49.90 EUR paid 20.00 EUR in USDT and 29.90 EUR in BNB, settled at depth. */
  async function settledInTwo(appId: string) {
    const invoice = await newInvoice(appId);
    expect(invoice.payment_options.map((o) => o.method).sort()).toEqual(['BNB-BSC', 'USDT-BEP20']);
    const address = invoice.payment_options[0]?.address ?? '';
    await pay(address, USDT, '21.6'); // 20.00 EUR at 1.08
    await pay(address, null, '0.05382'); // 32.292 USD: 29.90 EUR
    await watch();
    await mineLocalBlocks(t.db, 20);
    await watch();
    expect(await getInvoice(t.db, appId, invoice.id)).toMatchObject({ status: 'settled' });
    return invoice;
  }

  const creditsOf = (invoiceId: string) =>
    t.db
      .selectFrom('receive_transactions')
      .select(['id', 'payment_method_id', 'deposit_status', 'tnx_count', 'amount_raw', 'fee_raw'])
      .where('unique_id', '=', invoiceId)
      .orderBy('payment_method_id')
      .execute();

  it('is one transaction for the plan, the dashboard and Usage; each method keeps its amounts', async () => {
    await tinyPackage('pkg_twice_room', { tnx: 100, daily: 100 });
    const { userId, appId } = await merchant('pkg_twice_room');
    const invoice = await settledInTwo(appId);
    // One deposit per method, each with its amount and fee; the first option's is the count.
    const first = invoice.payment_options[0]?.method === 'BNB-BSC' ? 'pm_bnb' : 'pm_usdt_bsc';
    const credits = await creditsOf(invoice.id);
    expect(credits).toEqual([
      expect.objectContaining({
        payment_method_id: 'pm_bnb',
        deposit_status: 3,
        tnx_count: first === 'pm_bnb' ? 1 : 0,
        amount_raw: parseUnits('0.05382', 18).toString(),
        fee_raw: parseUnits('0.0005382', 18).toString(),
      }),
      expect.objectContaining({
        payment_method_id: 'pm_usdt_bsc',
        deposit_status: 3,
        tnx_count: first === 'pm_usdt_bsc' ? 1 : 0,
        amount_raw: parseUnits('21.6', 18).toString(),
        fee_raw: parseUnits('0.216', 18).toString(),
      }),
    ]);

    // The plan: a window from inside today (the subscription's start: read from the rows) and
    // one from a midnight (the daily totals).
    expect(
      await planTransactionCounts(t.db, userId, {
        fromStart: START.toISOString(),
        fromMidnight: '2026-11-20T00:00:00.000Z',
      }),
    ).toEqual({ fromStart: 1, fromMidnight: 1 });
    const dashboard = await dashboardOf(t.db, userId, t.clock());
    expect(dashboard).toMatchObject({
      daily_transaction: 1,
      monthly_transaction: 1,
      total_transaction: 1,
      subscription: { transaction_used: 1 },
    });
    // Usage: one incoming transaction in all, each method's volume; the Daily Logs show both
    // methods' days, the BNB one with its volume and no transaction of its own.
    const totals = await methodTotals(t.db, appId, FEE_LEG);
    expect([...totals.values()].reduce((n, m) => n + m.deposit_count, 0)).toBe(1);
    expect(totals.get('pm_usdt_bsc')).toMatchObject({
      deposit_micro: 21_600_000n,
      fee_micro: 216_000n,
      payout_micro: 21_384_000n,
    });
    expect(totals.get('pm_bnb')).toMatchObject({
      deposit_micro: 53_820n,
      fee_micro: 538n,
      payout_micro: 53_282n,
    });
    const logs = await dailyLogs(t.db, appId, { limit: 10, offset: 0 }, FEE_LEG);
    expect(logs.total).toBe(2);
    expect(
      logs.rows
        .map((r) => [r.paymentMethodId, r.deposit_count, r.deposit_micro])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ).toEqual([
      ['pm_bnb', first === 'pm_bnb' ? 1 : 0, 53_820n],
      ['pm_usdt_bsc', first === 'pm_usdt_bsc' ? 1 : 0, 21_600_000n],
    ]);
    expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));

    // The sweeps move each deposit on (Gas Transferred, Completed): the uncounted one's day and
    // method stays, with its amounts, and the counts do not move.
    for (const status of [4, 1] as const) {
      await t.db
        .updateTable('receive_transactions')
        .set({ deposit_status: status })
        .where('unique_id', '=', invoice.id)
        .execute();
      expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));
      expect((await dailyLogs(t.db, appId, { limit: 10, offset: 0 }, FEE_LEG)).total).toBe(2);
      expect(await planTransactionCounts(t.db, userId, { used: START.toISOString() })).toEqual({
        used: 1,
      });
    }

    // A deposit to an account is a transaction of its own, as before.
    await insertReceive(t, {
      id: `rcv_twice_account`,
      app_id: appId,
      payment_method_id: 'pm_bnb',
      unique_id: 'customer-1',
      amount_micro: 1_000_000,
      deposit_status: 3,
      created_at: t.clock().toISOString(),
      credited_at: t.clock().toISOString(),
    });
    expect(
      await planTransactionCounts(t.db, userId, {
        fromStart: START.toISOString(),
        fromMidnight: '2026-11-20T00:00:00.000Z',
      }),
    ).toEqual({ fromStart: 2, fromMidnight: 2 });
    expect(await dashboardOf(t.db, userId, t.clock())).toMatchObject({ total_transaction: 2 });
    expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));
  });

  it.each([
    ['tnx_limit', { tnx: 2, daily: 100 }],
    ['daily_tnx_limit', { tnx: 100, daily: 2 }],
  ] as const)('lets exactly %s invoices paid in two methods through', async (code, limits) => {
    const packageId = `pkg_twice_${code}`;
    await tinyPackage(packageId, limits);
    const { appId } = await merchant(packageId);
    await settledInTwo(appId);
    await settledInTwo(appId);
    // Before: the first invoice took both transactions.
    await expect(newInvoice(appId)).rejects.toMatchObject({ code });
  });
});
