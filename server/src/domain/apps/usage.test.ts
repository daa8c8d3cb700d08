import { addUser } from '../../../test/accounts';
import { insertApp, insertReceive, insertSend } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { feeOf, percentFraction, startOfUtcDay } from './plan';
import { dailyLogs, methodTotals } from './usage';

/** Sweeps with a fee leg (GATEWAY_FEE_ADDRESS set). */
const FEE_LEG = { feeLeg: true };

// Daily Logs and Usage read the daily totals kept from the receive and send rows: the same rows
// give the same numbers however often they are read, and the two agree.

describe('app usage from the rows', () => {
  const t = testAppPerBlock();
  const APP = 'app_usage';

  beforeAll(async () => {
    const userId = await addUser(t, 'usage');
    await insertApp(t, { id: APP, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
    const deposits: [string, 0 | 1 | 2 | 3 | 4 | 5, number, string | null, string][] = [
      // id, status, micro, credited_at, method
      ['a', 3, 25_500_000, '2026-11-20T23:59:59.999Z', 'pm_usdt_bsc'],
      ['b', 4, 1_000_000, '2026-11-20T00:00:00.000Z', 'pm_usdt_bsc'],
      ['c', 1, 2 ** 53, '2026-11-21T00:00:00.000Z', 'pm_usdt_bsc'], // sums exactly past 2^53
      ['d', 1, 2 ** 53, '2026-11-21T08:00:00.000Z', 'pm_usdt_bsc'],
      ['e', 3, 7_000_000, '2026-11-21T09:00:00.000Z', 'pm_trx'],
      ['f', 0, 9_000_000, null, 'pm_usdt_bsc'], // on its way
      ['g', 2, 9_000_000, null, 'pm_usdt_bsc'],
      ['h', 5, 9_000_000, null, 'pm_usdt_bsc'], // failed
      ['i', 1, 4_000_000, null, 'pm_usdt_bsc'], // from before the watcher: its created_at day
    ];
    for (const [id, status, micro, creditedAt, method] of deposits) {
      await insertReceive(t, {
        id: `rcv_usage_${id}`,
        app_id: APP,
        payment_method_id: method,
        unique_id: `c-${id}`,
        amount_micro: micro,
        deposit_status: status,
        created_at: '2026-11-19T12:00:00.000Z',
        credited_at: creditedAt,
      });
    }
    const sends: [string, 0 | 1 | 6, number, string][] = [
      ['a', 1, 3_000_000, '2026-11-20T10:00:00.000Z'],
      ['b', 6, 5_000_000, '2026-11-20T11:00:00.000Z'], // unsuccessful
      ['c', 1, 1_500_000, '2026-11-22T10:00:00.000Z'], // pays a refund
    ];
    for (const [id, status, micro, createdAt] of sends) {
      await insertSend(t, {
        id: `snd_usage_${id}`,
        app_id: APP,
        amount_micro: micro,
        to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        status,
        refund_id: id === 'c' ? 'rf_usage_c' : null,
        created_at: createdAt,
      });
    }
  });

  it('gives each UTC day and method its credited deposits and completed withdrawals', async () => {
    const page = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, FEE_LEG);
    expect(page.total).toBe(5);
    expect(
      page.rows.map((r) => [
        r.day,
        r.paymentMethodId,
        r.deposit_count,
        r.deposit_micro,
        r.withdraw_count,
        r.withdraw_micro,
        r.refund_count,
        r.refund_micro,
      ]),
    ).toEqual([
      // A refund's send is among the withdrawals, and counted apart as a refund too.
      ['2026-11-22', 'pm_usdt_bsc', 0, 0n, 1, 1_500_000n, 1, 1_500_000n],
      ['2026-11-21', 'pm_usdt_bsc', 2, 2n ** 54n, 0, 0n, 0, 0n],
      ['2026-11-21', 'pm_trx', 1, 7_000_000n, 0, 0n, 0, 0n],
      ['2026-11-20', 'pm_usdt_bsc', 2, 26_500_000n, 1, 3_000_000n, 0, 0n],
      ['2026-11-19', 'pm_usdt_bsc', 1, 4_000_000n, 0, 0n, 0, 0n],
    ]);
    const second = await dailyLogs(t.db, APP, { limit: 2, offset: 2 }, FEE_LEG);
    expect(second.total).toBe(5);
    expect(second.rows.map((r) => [r.day, r.paymentMethodId])).toEqual([
      ['2026-11-21', 'pm_trx'],
      ['2026-11-20', 'pm_usdt_bsc'],
    ]);
  });

  it('gives the same numbers when run again, and Usage is the Daily Logs summed', async () => {
    const first = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, FEE_LEG);
    const again = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, FEE_LEG);
    expect(again).toEqual(first);
    const totals = await methodTotals(t.db, APP, FEE_LEG);
    expect(await methodTotals(t.db, APP, FEE_LEG)).toEqual(totals);
    for (const method of ['pm_usdt_bsc', 'pm_trx']) {
      const days = first.rows.filter((r) => r.paymentMethodId === method);
      expect(totals.get(method)).toEqual({
        deposit_count: days.reduce((n, d) => n + d.deposit_count, 0),
        deposit_micro: days.reduce((n, d) => n + d.deposit_micro, 0n),
        withdraw_count: days.reduce((n, d) => n + d.withdraw_count, 0),
        withdraw_micro: days.reduce((n, d) => n + d.withdraw_micro, 0n),
        // Rows from before the watcher (amount_micro only) carry no fee: all to the payout.
        fee_micro: 0n,
        payout_micro: days.reduce((n, d) => n + d.deposit_micro, 0n),
        refund_count: days.reduce((n, d) => n + d.refund_count, 0),
        refund_micro: days.reduce((n, d) => n + d.refund_micro, 0n),
      });
    }
    expect(totals.get('pm_usdt_bsc')?.deposit_count).toBe(5);
    expect(totals.get('pm_usdt_bsc')?.deposit_micro).toBe(2n ** 54n + 30_500_000n);
    expect(totals.get('pm_usdt_bsc')?.refund_micro).toBe(1_500_000n);
  });
});

describe("the gateway's fee and the payout, from amount_raw and fee_raw", () => {
  const t = testAppPerBlock();
  const APP = 'app_split';
  const usdt = (text: string) => BigInt(text.replace('.', '')) * 10n ** 12n; // 18 decimals, from 6

  beforeAll(async () => {
    const userId = await addUser(t, 'split');
    await insertApp(t, { id: APP, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
    type Row = [string, 0 | 1 | 3 | 4 | 5, string, bigint | null, bigint | null, number, string];
    const rows: Row[] = [
      // id, status, method, amount_raw, fee_raw, amount_micro, credited_at
      // 1000.5 USDT at 1 %: both past int64 in 18 decimals.
      [
        'a',
        3,
        'pm_usdt_bsc',
        usdt('1000.500000'),
        usdt('10.005000'),
        1_000_500_000,
        '2026-11-20T10:00:00.000Z',
      ],
      // 25 USDT and 1 wei at 0.75 %: the wei is dust below a micro-USDT.
      [
        'b',
        1,
        'pm_usdt_bsc',
        usdt('25.000000') + 1n,
        usdt('0.187500'),
        25_000_000,
        '2026-11-20T11:00:00.000Z',
      ],
      // Credited without a package: no fee.
      ['c', 4, 'pm_usdt_bsc', usdt('5.000000'), null, 5_000_000, '2026-11-21T10:00:00.000Z'],
      // From before the watcher: amount_micro only (its created_at day).
      ['d', 1, 'pm_usdt_bsc', null, null, 4_000_000, ''],
      // Failed: never counted.
      ['e', 5, 'pm_usdt_bsc', usdt('9.000000'), usdt('0.090000'), 9_000_000, ''],
      // 6 decimals (USDT on Ethereum): 100 USDT at 1 %.
      ['f', 1, 'pm_usdt_eth', 100_000_000n, 1_000_000n, 100_000_000, '2026-11-21T12:00:00.000Z'],
    ];
    for (const [id, status, method, amountRaw, feeRaw, micro, creditedAt] of rows) {
      await insertReceive(t, {
        id: `rcv_split_${id}`,
        app_id: APP,
        payment_method_id: method,
        unique_id: `s-${id}`,
        amount_micro: micro,
        amount_raw: amountRaw?.toString() ?? null,
        fee_raw: feeRaw?.toString() ?? null,
        deposit_status: status,
        created_at: '2026-11-21T00:00:00.000Z',
        credited_at: creditedAt || null,
      });
    }
  });

  it('truncates each row to micro exactly (past int64) and sums per day and method', async () => {
    const page = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, FEE_LEG);
    const split = page.rows.map((r) => [r.day, r.paymentMethodId, r.fee_micro, r.payout_micro]);
    expect(split).toEqual(
      expect.arrayContaining([
        // 10.005 + 0.1875 fee; 1025.5 USDT + 1 wei less that fee to the payout.
        ['2026-11-20', 'pm_usdt_bsc', 10_192_500n, 1_015_307_500n],
        // No fee on c (no package) nor on d (before the watcher).
        ['2026-11-21', 'pm_usdt_bsc', 0n, 9_000_000n],
        ['2026-11-21', 'pm_usdt_eth', 1_000_000n, 99_000_000n],
      ]),
    );
    expect(split).toHaveLength(3);
  });

  it('gives Usage the same split, summed over the days', async () => {
    const totals = await methodTotals(t.db, APP, FEE_LEG);
    expect(totals.get('pm_usdt_bsc')).toMatchObject({
      deposit_count: 4,
      deposit_micro: 1_034_500_000n,
      fee_micro: 10_192_500n,
      payout_micro: 1_024_307_500n,
    });
    expect(totals.get('pm_usdt_eth')).toMatchObject({
      fee_micro: 1_000_000n,
      payout_micro: 99_000_000n,
    });
  });

  it('sends everything to the payout without a fee address (no fee leg at the sweep)', async () => {
    const totals = await methodTotals(t.db, APP, { feeLeg: false });
    expect(totals.get('pm_usdt_bsc')).toMatchObject({
      fee_micro: 0n,
      payout_micro: 1_034_500_000n,
    });
    const page = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, { feeLeg: false });
    expect(page.rows.every((r) => r.fee_micro === 0n && r.payout_micro === r.deposit_micro)).toBe(
      true,
    );
  });
});

describe('the split truncated row by row', () => {
  const t = testAppPerBlock();
  const APP = 'app_dust';

  it('can leave a fee below the exact sum by under a micro-unit a deposit, never losing any', async () => {
    const userId = await addUser(t, 'dust');
    await insertApp(t, { id: APP, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
    // Two deposits of 1.0000006 USDT (18 decimals), each with a fee of 0.0000006 USDT.
    for (const id of ['a', 'b']) {
      await insertReceive(t, {
        id: `rcv_dust_${id}`,
        app_id: APP,
        unique_id: `dust-${id}`,
        amount_micro: 1_000_000,
        amount_raw: (10n ** 18n + 6n * 10n ** 11n).toString(),
        fee_raw: (6n * 10n ** 11n).toString(),
        deposit_status: 1,
        created_at: '2026-11-21T00:00:00.000Z',
        credited_at: '2026-11-21T10:00:00.000Z',
      });
    }
    const totals = await methodTotals(t.db, APP, FEE_LEG);
    // Exactly the fees are 0.0000012 USDT (1 micro truncated); each row's is 0 micro, so the
    // fee shows 0 and the payout the whole 2 USDT: fee and payout still add up to the deposits.
    expect(totals.get('pm_usdt_bsc')).toMatchObject({
      deposit_micro: 2_000_000n,
      fee_micro: 0n,
      payout_micro: 2_000_000n,
    });
  });
});

describe('the fee a credited deposit records', () => {
  it('reads a package percent exactly', () => {
    expect(percentFraction(1)).toEqual({ text: '1', num: 1n, den: 1n });
    expect(percentFraction(0.75)).toEqual({ text: '0.75', num: 75n, den: 100n });
    expect(percentFraction(0.1)).toEqual({ text: '0.1', num: 1n, den: 10n });
    expect(percentFraction(1e-7).text).toBe('0.0000001');
  });

  it('takes the percent of the raw amount exactly, rounded down', () => {
    // 0.1 % of 9.22 USDT in 18 decimals: past int64, exact.
    expect(feeOf(9_220_000_000_000_000_000n, 0.1)).toBe(9_220_000_000_000_000n);
    expect(feeOf(10n ** 30n + 1n, 0.75)).toBe(75n * 10n ** 26n);
    expect(feeOf(199n, 1)).toBe(1n);
    expect(feeOf(0n, 1)).toBe(0n);
  });
});

test("the daily limit's day starts at midnight UTC, whichever day was asked before", () => {
  const day = (iso: string) => startOfUtcDay(new Date(iso));
  expect(day('2026-12-05T23:59:59.999Z')).toBe('2026-12-05T00:00:00.000Z');
  expect(day('2026-12-06T00:00:00.000Z')).toBe('2026-12-06T00:00:00.000Z');
  expect(day('2026-12-05T00:00:00.001Z')).toBe('2026-12-05T00:00:00.000Z');
  expect(day('1969-12-31T12:00:00.000Z')).toBe('1969-12-31T00:00:00.000Z');
  expect(() => day('not a date')).toThrow(RangeError);
});
