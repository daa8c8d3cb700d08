import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import { engineOf } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { Database, DepositStatus, SendStatus } from '../../db/schema';
import { microOfRaw, sumMicro } from '../../db/sums';

// What an app did: credited deposits and completed withdrawals, per UTC day and method. The
// Daily Logs, the Usage figures, the dashboard's counts and the plan's limits all read the same
// daily totals (app_daily_usage), which triggers keep in the very transaction that writes a
// receive or send row (migration 0230), so they agree with each other and with the rows: the
// totals are exactly what these rules derive from the rows (derivedDailyUsage, which a test and
// `npm run bench:api` hold them to).
//   - A deposit counts once credited: Hash Verified (3), Gas Transferred (4), Completed (1); on
//     the day it was credited (rows from before the watcher: the day they were recorded). It
//     counts as its tnx_count of transactions (deposit_count): 1, but a settled invoice paid in
//     several methods is one deposit per method and one transaction, counted under its first
//     method's, the others 0 (migration 0410). Each is a credited row all the same (deposit_rows,
//     which keeps its day and method in the Daily Logs) with its own amount, fee and net.
//   - A withdrawal counts once Completed (1), on the day it was created. A send that pays a
//     refund (refund_id) is a withdrawal like the others, and counted apart as well
//     (refund_count, refund_micro) so Usage and the Daily Logs mark the refunds among them.
//   - The plan (tnx_limit, daily_tnx_limit, the dashboard's "used") counts the credited deposits
//     and every withdrawal accepted until it is cancelled (PLAN_SEND_STATUSES), also by the day
//     it was created: app_daily_usage keeps those as plan_withdraw_count.
//   - A credited deposit's amount splits into the gateway's fee (fee_raw, the package's percent
//     recorded at credit; none without a package) and the rest, for the payout address: the
//     sweep's two legs, kept as fee_micro and net_micro. Each row's raw amounts are truncated to
//     micro-units before they are summed (microOfRaw: exact however large), so a figure can be a
//     few micro-units off the truncation of the exact base-unit sum (under one per deposit), and
//     fee plus net always equal the truncated amounts. Rows from before the watcher have only
//     amount_micro, and no fee: all of it is net. Without a fee address there is no fee leg
//     (FeeLeg): the payout figure is then fee and net together, applied when they are read.
// Days are UTC days: the server has no idea of the merchant's time zone.

type Executor = Kysely<Database> | Transaction<Database>;

export const CREDITED_STATUSES: readonly DepositStatus[] = [3, 4, 1];
const SEND_COMPLETED = 1;
/** Withdrawals the plan counts: every one accepted, until it is cancelled (7). */
export const PLAN_SEND_STATUSES: readonly SendStatus[] = [0, 1, 2, 3, 4, 5, 6];

/** YYYY-MM-DD (UTC) of an instant column: ISO text on SQLite, timestamptz on PostgreSQL. */
function utcDay(db: Executor, instant: Expression<string | null>): RawBuilder<string> {
  return engineOf(db) === 'postgres'
    ? sql<string>`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${instant}, 1, 10)`;
}

/**
 * One row per credited deposit and per withdrawal the plan counts of the app, with its UTC day;
 * only a completed withdrawal adds to withdraw_count and withdraw_micro.
 */
function activityRows(db: Executor, appId: string) {
  const engine = engineOf(db);
  const receives = db
    .selectFrom('receive_transactions as r')
    .innerJoin('payment_methods as pm', 'pm.id', 'r.payment_method_id')
    .select((eb) => {
      const legacy = eb('r.amount_raw', 'is', null);
      const fee = microOfRaw(engine, eb.ref('r.fee_raw'), eb.ref('pm.decimals'));
      const amount = microOfRaw(engine, eb.ref('r.amount_raw'), eb.ref('pm.decimals'));
      return [
        utcDay(db, eb.fn.coalesce('r.credited_at', 'r.created_at')).as('day'),
        'r.payment_method_id',
        'r.tnx_count as deposit_count',
        'r.amount_micro as deposit_micro',
        sql<number>`0`.as('withdraw_count'),
        sql<number>`0`.as('withdraw_micro'),
        sql<number>`0`.as('plan_withdraw_count'),
        eb.case().when(legacy).then(0).else(fee).end().as('fee_micro'),
        eb
          .case()
          .when(legacy)
          .then(eb.ref('r.amount_micro'))
          .else(eb(amount, '-', fee))
          .end()
          .as('net_micro'),
        sql<number>`1`.as('deposit_rows'),
        sql<number>`0`.as('refund_count'),
        sql<number>`0`.as('refund_micro'),
      ];
    })
    .where('r.app_id', '=', appId)
    .where('r.deposit_status', 'in', CREDITED_STATUSES);
  const sends = db
    .selectFrom('send_transactions')
    .select((eb) => {
      const completed = (then: Expression<number>) =>
        eb.case().when('status', '=', SEND_COMPLETED).then(then).else(0).end();
      const refunded = (then: Expression<number>) =>
        eb
          .case()
          .when(eb.and([eb('status', '=', SEND_COMPLETED), eb('refund_id', 'is not', null)]))
          .then(then)
          .else(0)
          .end();
      return [
        utcDay(db, eb.ref('created_at')).as('day'),
        'payment_method_id',
        sql<number>`0`.as('deposit_count'),
        sql<number>`0`.as('deposit_micro'),
        completed(sql<number>`1`).as('withdraw_count'),
        completed(eb.ref('amount_micro')).as('withdraw_micro'),
        sql<number>`1`.as('plan_withdraw_count'),
        sql<number>`0`.as('fee_micro'),
        sql<number>`0`.as('net_micro'),
        sql<number>`0`.as('deposit_rows'),
        refunded(sql<number>`1`).as('refund_count'),
        refunded(eb.ref('amount_micro')).as('refund_micro'),
      ];
    })
    .where('app_id', '=', appId)
    .where('status', 'in', PLAN_SEND_STATUSES);
  return db.selectFrom(receives.unionAll(sends).as('t'));
}

/**
 * Whether sweeps take the fee leg: only with a fee address (GATEWAY_FEE_ADDRESS); without one the
 * payout address gets every deposit whole, and the figures say so.
 */
export interface FeeLeg {
  feeLeg: boolean;
}

/** Summed figures as read (counts, and exact micro sums as decimal text). */
interface SummedRow {
  deposit_count: string | number | null;
  deposit_micro: string;
  withdraw_count: string | number | null;
  withdraw_micro: string;
  fee_micro: string;
  net_micro: string;
  refund_count: string | number | null;
  refund_micro: string;
}

interface KeptTotals {
  deposit_count: number;
  /** Exact sums, as BigInt. */
  deposit_micro: bigint;
  withdraw_count: number;
  withdraw_micro: bigint;
  /** The credited deposits' fees, each truncated to micro (the fee leg, when there is one). */
  fee_micro: bigint;
  /** Their amounts less those fees, likewise (the payout leg, with a fee leg). */
  net_micro: bigint;
  /** The completed sends that paid refunds (among withdraw_count and withdraw_micro). */
  refund_count: number;
  refund_micro: bigint;
}

function keptTotalsOf(row: SummedRow): KeptTotals {
  return {
    deposit_count: Number(row.deposit_count ?? 0),
    deposit_micro: BigInt(row.deposit_micro),
    withdraw_count: Number(row.withdraw_count ?? 0),
    withdraw_micro: BigInt(row.withdraw_micro),
    fee_micro: BigInt(row.fee_micro),
    net_micro: BigInt(row.net_micro),
    refund_count: Number(row.refund_count ?? 0),
    refund_micro: BigInt(row.refund_micro),
  };
}

export interface ActivityTotals {
  deposit_count: number;
  /** Exact sums, as BigInt. */
  deposit_micro: bigint;
  withdraw_count: number;
  withdraw_micro: bigint;
  /** The gateway's fee on the credited deposits (0 without a fee leg). */
  fee_micro: bigint;
  /** What the sweeps pay the payout address: the deposits less that fee. */
  payout_micro: bigint;
  /** The completed sends that paid refunds (among withdraw_count and withdraw_micro). */
  refund_count: number;
  refund_micro: bigint;
}

function totalsOf(row: SummedRow, { feeLeg }: FeeLeg): ActivityTotals {
  const { fee_micro, net_micro, ...rest } = keptTotalsOf(row);
  return {
    ...rest,
    fee_micro: feeLeg ? fee_micro : 0n,
    payout_micro: feeLeg ? net_micro : net_micro + fee_micro,
  };
}

interface DailyUsage extends KeptTotals {
  day: string;
  paymentMethodId: string;
  /** Withdrawals the plan counts (PLAN_SEND_STATUSES), completed or not. */
  planWithdrawCount: number;
  /** Credited deposit rows, whether they count as transactions or not. */
  depositRows: number;
}

function dailyUsageOf(
  row: SummedRow & {
    day: string;
    payment_method_id: string;
    plan_withdraw_count: string | number | null;
    deposit_rows: string | number | null;
  },
): DailyUsage {
  return {
    day: row.day,
    paymentMethodId: row.payment_method_id,
    ...keptTotalsOf(row),
    planWithdrawCount: Number(row.plan_withdraw_count ?? 0),
    depositRows: Number(row.deposit_rows ?? 0),
  };
}

const byDayAndMethod = (a: DailyUsage, b: DailyUsage) =>
  a.day.localeCompare(b.day) || a.paymentMethodId.localeCompare(b.paymentMethodId);

/**
 * The app's days by method as the rules above derive them from its rows, read in full: what the
 * maintained totals must equal (a check, never a screen's read).
 */
export async function derivedDailyUsage(db: Executor, appId: string): Promise<DailyUsage[]> {
  const rows = await activityRows(db, appId)
    .select((eb) => [
      't.day',
      't.payment_method_id',
      eb.fn.sum<number>('t.deposit_count').as('deposit_count'),
      sumMicro(eb.ref('t.deposit_micro')).as('deposit_micro'),
      eb.fn.sum<number>('t.withdraw_count').as('withdraw_count'),
      sumMicro(eb.ref('t.withdraw_micro')).as('withdraw_micro'),
      eb.fn.sum<number>('t.plan_withdraw_count').as('plan_withdraw_count'),
      sumMicro(eb.ref('t.fee_micro')).as('fee_micro'),
      sumMicro(eb.ref('t.net_micro')).as('net_micro'),
      eb.fn.sum<number>('t.deposit_rows').as('deposit_rows'),
      eb.fn.sum<number>('t.refund_count').as('refund_count'),
      sumMicro(eb.ref('t.refund_micro')).as('refund_micro'),
    ])
    .groupBy(['t.day', 't.payment_method_id'])
    .execute();
  return rows.map(dailyUsageOf).sort(byDayAndMethod);
}

/** The app's maintained daily totals, in the same shape and order as derivedDailyUsage. */
export async function storedDailyUsage(db: Executor, appId: string): Promise<DailyUsage[]> {
  const rows = await db
    .selectFrom('app_daily_usage')
    .select((eb) => [
      'day',
      'payment_method_id',
      'deposit_count',
      sql<string>`cast(${eb.ref('deposit_micro')} as text)`.as('deposit_micro'),
      'withdraw_count',
      sql<string>`cast(${eb.ref('withdraw_micro')} as text)`.as('withdraw_micro'),
      'plan_withdraw_count',
      sql<string>`cast(${eb.ref('fee_micro')} as text)`.as('fee_micro'),
      sql<string>`cast(${eb.ref('net_micro')} as text)`.as('net_micro'),
      'deposit_rows',
      'refund_count',
      sql<string>`cast(${eb.ref('refund_micro')} as text)`.as('refund_micro'),
    ])
    .where('app_id', '=', appId)
    .execute();
  return rows.map(dailyUsageOf).sort(byDayAndMethod);
}

/**
 * A Daily Logs row: a day and method with a credited deposit (one an invoice's transaction is
 * counted under another method's too: its amounts are this method's) or a completed withdrawal.
 */
const shownInLogs = (eb: ExpressionBuilder<{ u: Database['app_daily_usage'] }, 'u'>) =>
  eb.or([eb('u.deposit_rows', '>', 0), eb('u.withdraw_count', '>', 0)]);

/** Every day: the bounds of a Daily Logs read that takes them all. */
const ALL_DAYS = { fromDay: '0001-01-01', toDay: '9999-12-31' };

const dailyLogRows = prepared(
  { appId: '', limit: 0, offset: 0, ...ALL_DAYS },
  (db, p) =>
    db
      .selectFrom('app_daily_usage as u')
      .innerJoin('payment_methods as pm', 'pm.id', 'u.payment_method_id')
      .select((eb) => [
        'u.day',
        'pm.id as payment_method_id',
        'pm.network_name',
        'pm.name',
        'u.deposit_count',
        sql<string>`cast(${eb.ref('u.deposit_micro')} as text)`.as('deposit_micro'),
        'u.withdraw_count',
        sql<string>`cast(${eb.ref('u.withdraw_micro')} as text)`.as('withdraw_micro'),
        sql<string>`cast(${eb.ref('u.fee_micro')} as text)`.as('fee_micro'),
        sql<string>`cast(${eb.ref('u.net_micro')} as text)`.as('net_micro'),
        'u.refund_count',
        sql<string>`cast(${eb.ref('u.refund_micro')} as text)`.as('refund_micro'),
      ])
      .where('u.app_id', '=', p.appId)
      .where('u.day', '>=', p.fromDay)
      .where('u.day', '<', p.toDay)
      .where(shownInLogs)
      .orderBy('u.day', 'desc')
      .orderBy('pm.sort_order', 'asc')
      .orderBy('pm.id', 'asc')
      .limit(p.limit)
      .offset(p.offset),
  { ownerOf: (p) => p.appId },
);

// A day and method is kept only while something counts in it (the triggers drop empty ones);
// one holding only withdrawals not completed yet counts for the plan, not in the logs.
const dailyLogCount = prepared(
  { appId: '' },
  (db, p) =>
    db
      .selectFrom('app_daily_usage as u')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('u.app_id', '=', p.appId)
      .where(shownInLogs),
  { ownerOf: (p) => p.appId },
);

/**
 * The app's days by method (the Daily Logs), newest day first; one page and the total (of every
 * day). `days` bounds the page's days: from `fromDay` (included) to `toDay` (left out).
 */
export async function dailyLogs(
  db: Executor,
  appId: string,
  page: { limit: number; offset: number },
  fee: FeeLeg,
  days: { fromDay?: string; toDay?: string } = {},
) {
  const [rows, [count]] = await Promise.all([
    dailyLogRows(db, { appId, ...page, ...ALL_DAYS, ...days }),
    dailyLogCount(db, { appId }),
  ]);
  return {
    total: Number(count?.n ?? 0),
    rows: rows.map((row) => ({
      day: row.day,
      paymentMethodId: row.payment_method_id,
      networkName: row.network_name,
      name: row.name,
      ...totalsOf(row, fee),
    })),
  };
}

const totalsByMethod = prepared(
  { appId: '' },
  (db, p) =>
    db
      .selectFrom('app_daily_usage')
      .select((eb) => [
        'payment_method_id',
        eb.fn.sum<number>('deposit_count').as('deposit_count'),
        sumMicro(eb.ref('deposit_micro')).as('deposit_micro'),
        eb.fn.sum<number>('withdraw_count').as('withdraw_count'),
        sumMicro(eb.ref('withdraw_micro')).as('withdraw_micro'),
        sumMicro(eb.ref('fee_micro')).as('fee_micro'),
        sumMicro(eb.ref('net_micro')).as('net_micro'),
        eb.fn.sum<number>('refund_count').as('refund_count'),
        sumMicro(eb.ref('refund_micro')).as('refund_micro'),
      ])
      .where('app_id', '=', p.appId)
      .groupBy('payment_method_id'),
  { ownerOf: (p) => p.appId },
);

/** The app's totals per payment method (the Usage figures): the Daily Logs summed. */
export async function methodTotals(
  db: Executor,
  appId: string,
  fee: FeeLeg,
): Promise<Map<string, ActivityTotals>> {
  const rows = await totalsByMethod(db, { appId });
  return new Map(rows.map((row) => [row.payment_method_id, totalsOf(row, fee)]));
}

/**
 * The Usage figures over the UTC days from `fromDay` (included) to `toDay` (left out), each
 * bound optional: one row per method money moved through, in the methods' order, with the first
 * and last day it counted. The Usage export's rows.
 */
export async function usageBetween(
  db: Executor,
  appId: string,
  days: { fromDay?: string; toDay?: string },
  fee: FeeLeg,
) {
  let query = db
    .selectFrom('app_daily_usage as u')
    .innerJoin('payment_methods as pm', 'pm.id', 'u.payment_method_id')
    .select((eb) => [
      'pm.id as payment_method_id',
      'pm.name',
      'pm.network_name',
      eb.fn.min('u.day').as('first_day'),
      eb.fn.max('u.day').as('last_day'),
      eb.fn.sum<number>('u.deposit_count').as('deposit_count'),
      sumMicro(eb.ref('u.deposit_micro')).as('deposit_micro'),
      eb.fn.sum<number>('u.withdraw_count').as('withdraw_count'),
      sumMicro(eb.ref('u.withdraw_micro')).as('withdraw_micro'),
      sumMicro(eb.ref('u.fee_micro')).as('fee_micro'),
      sumMicro(eb.ref('u.net_micro')).as('net_micro'),
      eb.fn.sum<number>('u.refund_count').as('refund_count'),
      sumMicro(eb.ref('u.refund_micro')).as('refund_micro'),
    ])
    .where('u.app_id', '=', appId)
    .where(shownInLogs);
  if (days.fromDay !== undefined) query = query.where('u.day', '>=', days.fromDay);
  if (days.toDay !== undefined) query = query.where('u.day', '<', days.toDay);
  const rows = await query
    .groupBy(['pm.id', 'pm.name', 'pm.network_name', 'pm.sort_order'])
    .orderBy('pm.sort_order', 'asc')
    .orderBy('pm.id', 'asc')
    .execute();
  return rows.map((row) => ({
    paymentMethodId: row.payment_method_id,
    name: row.name,
    networkName: row.network_name,
    firstDay: String(row.first_day),
    lastDay: String(row.last_day),
    ...totalsOf(row, fee),
  }));
}
