import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import { engineOf } from '../db/connection';
import { prepared } from '../db/prepared';
import type { Database, DepositStatus, SendStatus } from '../db/schema';
import { microOfRaw, sumMicro } from '../db/sums';
import { ForbiddenError } from './errors';
import { currentSubscription } from './subscriptions';

// What an app did: credited deposits and completed withdrawals, per UTC day and method. The
// Daily Logs, the Usage figures, the dashboard's counts and the plan's limits all read the same
// daily totals (app_daily_usage), which triggers keep in the very transaction that writes a
// receive or send row (migration 0230), so they agree with each other and with the rows: the
// totals are exactly what these rules derive from the rows (derivedDailyUsage, which a test and
// `npm run bench:api` hold them to).
//   - A deposit counts once credited: Hash Verified (3), Gas Transferred (4), Completed (1); on
//     the day it was credited (rows from before the watcher: the day they were recorded).
//   - A withdrawal counts once Completed (1), on the day it was created.
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
const PLAN_SEND_STATUSES: readonly SendStatus[] = [0, 1, 2, 3, 4, 5, 6];

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
        sql<number>`1`.as('deposit_count'),
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
      ];
    })
    .where('r.app_id', '=', appId)
    .where('r.deposit_status', 'in', CREDITED_STATUSES);
  const sends = db
    .selectFrom('send_transactions')
    .select((eb) => {
      const completed = (then: Expression<number>) =>
        eb.case().when('status', '=', SEND_COMPLETED).then(then).else(0).end();
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
}

function keptTotalsOf(row: SummedRow): KeptTotals {
  return {
    deposit_count: Number(row.deposit_count ?? 0),
    deposit_micro: BigInt(row.deposit_micro),
    withdraw_count: Number(row.withdraw_count ?? 0),
    withdraw_micro: BigInt(row.withdraw_micro),
    fee_micro: BigInt(row.fee_micro),
    net_micro: BigInt(row.net_micro),
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
}

function dailyUsageOf(
  row: SummedRow & {
    day: string;
    payment_method_id: string;
    plan_withdraw_count: string | number | null;
  },
): DailyUsage {
  return {
    day: row.day,
    paymentMethodId: row.payment_method_id,
    ...keptTotalsOf(row),
    planWithdrawCount: Number(row.plan_withdraw_count ?? 0),
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
    ])
    .where('app_id', '=', appId)
    .execute();
  return rows.map(dailyUsageOf).sort(byDayAndMethod);
}

/** A Daily Logs row: a day and method with a credited deposit or a completed withdrawal. */
const shownInLogs = (eb: ExpressionBuilder<{ u: Database['app_daily_usage'] }, 'u'>) =>
  eb.or([eb('u.deposit_count', '>', 0), eb('u.withdraw_count', '>', 0)]);

const dailyLogRows = prepared(
  { appId: '', limit: 0, offset: 0 },
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
      ])
      .where('u.app_id', '=', p.appId)
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

/** The app's days by method (the Daily Logs), newest day first; one page and the total. */
export async function dailyLogs(
  db: Executor,
  appId: string,
  page: { limit: number; offset: number },
  fee: FeeLeg,
) {
  const [rows, [count]] = await Promise.all([
    dailyLogRows(db, { appId, ...page }),
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

/** YYYY-MM-DD of an ISO instant (UTC). */
const dayOf = (instant: string) => new Date(instant).toISOString().slice(0, 10);

const appsOf = (db: Executor, userId: string) =>
  db.selectFrom('apps').select('id').where('user_id', '=', userId);

/** The plan's whole days from each `d<i>` on, summed over the user's apps: one query per count. */
const wholeDaySums = new Map<number, ReturnType<typeof wholeDaySumsOf>>();

function wholeDaySumsOf(windows: number) {
  const indexes = Array.from({ length: windows }, (_, i) => i);
  const sample: Record<string, string> = { userId: '' };
  for (const i of indexes) sample[`d${i}`] = '';
  return prepared(
    sample,
    (db, p) =>
      db
        .selectFrom('app_daily_usage')
        .where('app_id', 'in', appsOf(db, p.userId ?? ''))
        .select((eb) =>
          indexes.map((i) =>
            eb.fn
              .sum<number>(
                eb
                  .case()
                  .when('day', '>=', p[`d${i}`] ?? '')
                  .then(eb(eb.ref('deposit_count'), '+', eb.ref('plan_withdraw_count')))
                  .else(0)
                  .end(),
              )
              .as(`w${i}`),
          ),
        ),
    { ownerOf: (p) => p.userId },
  );
}

// A window that starts inside a day: that day's transactions from its start, in one statement
// (the plan check runs inside the account lock, where each round trip counts). Each range on its
// own index ((app_id, credited_at) for deposits, (app_id, created_at) for deposits from before
// the watcher and for withdrawals): an OR of the two deposit ranges would read every row.
const partialDay = prepared(
  { userId: '', start: '', until: '' },
  (db, p) =>
    db.selectNoFrom((eb) => {
      const deposits = (column: 'credited_at' | 'created_at') =>
        eb
          .selectFrom('receive_transactions')
          .select(eb.fn.countAll<number>().as('n'))
          .where('app_id', 'in', appsOf(db, p.userId))
          .where('deposit_status', 'in', CREDITED_STATUSES)
          .$if(column === 'created_at', (q) => q.where('credited_at', 'is', null))
          .where(column, '>=', p.start)
          .where(column, '<', p.until);
      return [
        deposits('credited_at').as('credited'),
        deposits('created_at').as('recorded'),
        eb
          .selectFrom('send_transactions')
          .select(eb.fn.countAll<number>().as('n'))
          .where('app_id', 'in', appsOf(db, p.userId))
          .where('status', 'in', PLAN_SEND_STATUSES)
          .where('created_at', '>=', p.start)
          .where('created_at', '<', p.until)
          .as('withdrawals'),
      ];
    }),
  { ownerOf: (p) => p.userId },
);

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * The package's transactions of all the user's apps since each window's start (an instant):
 * credited deposits by the time they were credited, and withdrawals by created_at from their
 * acceptance (so queued ones cannot overrun a limit) until they are cancelled.
 * Whole days come from the daily totals; a window that starts inside a day adds that day's
 * transactions at or after its start, read from the rows of that one day (by index).
 */
export async function planTransactionCounts(
  db: Executor,
  userId: string,
  windows: Record<string, string>,
): Promise<Record<string, number>> {
  const names = Object.keys(windows);
  if (names.length === 0) return {};
  const starts = names.map((name) => new Date(windows[name] ?? 0).toISOString());
  const atMidnight = (start: string) => start.endsWith('T00:00:00.000Z');
  // The first whole day of each window: its start's own day unless it starts inside it.
  const days: Record<string, string> = { userId };
  for (const [i, start] of starts.entries()) {
    days[`d${i}`] = atMidnight(start) ? dayOf(start) : nextDay(dayOf(start)).slice(0, 10);
  }
  let sums = wholeDaySums.get(names.length);
  if (!sums) {
    sums = wholeDaySumsOf(names.length);
    wholeDaySums.set(names.length, sums);
  }
  const [row] = await sums(db, days);
  const record: Record<string, unknown> = row ?? {};
  const counts: Record<string, number> = {};
  for (const [i, name] of names.entries()) {
    const start = starts[i] ?? '';
    let partial = 0;
    if (!atMidnight(start)) {
      const [part] = await partialDay(db, { userId, start, until: nextDay(dayOf(start)) });
      for (const n of [part?.credited, part?.recorded, part?.withdrawals])
        partial += Number(n ?? 0);
    }
    counts[name] = Number(record[`w${i}`] ?? 0) + partial;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// The plan: credited deposits and withdrawals are the package's transactions.

/** A gateway request the merchant's package does not cover (the gateway answers 402). */
export class PlanLimitError extends ForbiddenError {
  constructor(
    readonly code: 'no_package' | 'tnx_limit' | 'daily_tnx_limit',
    message: string,
  ) {
    super(message);
  }
}

/** What a refusal keeps working, after its sentence. */
const STILL_CREDITED = 'deposits to existing addresses are still credited.';

const PLAN_MSG = {
  noPackage: {
    account:
      'The merchant has no active package: subscribe to a package to create deposit accounts. Deposits to existing addresses are still credited.',
    withdrawal:
      'The merchant has no active package: subscribe to a package to request withdrawals. Deposits to existing addresses are still credited.',
  },
  tnxLimit: (name: string, limit: number, what: string) =>
    `The ${name} package's transaction limit (tnx_limit ${limit}) is used up: ${limit} transactions (credited deposits and withdrawals) this subscription. Upgrade the package to ${what}; ${STILL_CREDITED}`,
  dailyLimit: (name: string, limit: number) =>
    `The ${name} package's daily transaction limit (daily_tnx_limit ${limit}) is used up for today (UTC). Try again tomorrow or upgrade the package; ${STILL_CREDITED}`,
} as const;

/** What a plan refusal is about: a new deposit account, or a withdrawal. */
type PlanPurpose = 'account' | 'withdrawal';

const PURPOSE_TEXT: Record<PlanPurpose, string> = {
  account: 'create deposit accounts',
  withdrawal: 'request withdrawals',
};

export function startOfUtcDay(now: Date): string {
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
  ).toISOString();
}

/**
 * Refuses (PlanLimitError) a new deposit account or a withdrawal of `appId`'s merchant without a
 * package in force, or once its transactions (planTransactionCounts) reach the package's
 * tnx_limit (this subscription) or daily_tnx_limit (this UTC day).
 */
// Every new gateway account and withdrawal asks, inside its lock.
const ownerOfApp = prepared({ appId: '' }, (db, p) =>
  db.selectFrom('apps').select('user_id').where('id', '=', p.appId),
);

export async function refuseOverPlan(
  db: Executor,
  appId: string,
  now: Date,
  purpose: PlanPurpose,
): Promise<void> {
  const [app] = await ownerOfApp(db, { appId });
  if (!app) throw new Error(`No app ${appId}`);
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) throw new PlanLimitError('no_package', PLAN_MSG.noPackage[purpose]);
  const counts = await planTransactionCounts(db, app.user_id, {
    used: plan.start_date,
    today: startOfUtcDay(now),
  });
  if ((counts.used ?? 0) >= plan.tnx_limit) {
    throw new PlanLimitError(
      'tnx_limit',
      PLAN_MSG.tnxLimit(plan.package_name, plan.tnx_limit, PURPOSE_TEXT[purpose]),
    );
  }
  if ((counts.today ?? 0) >= plan.daily_tnx_limit) {
    throw new PlanLimitError(
      'daily_tnx_limit',
      PLAN_MSG.dailyLimit(plan.package_name, plan.daily_tnx_limit),
    );
  }
}

/** A decimal percent (a package's `fees`, e.g. 0.75) as an exact fraction numerator/denominator. */
export function percentFraction(percent: number): { text: string; num: bigint; den: bigint } {
  // Plain decimal text (toFixed past String's exponent form); trailing zeros trimmed.
  const raw = /e/i.test(String(percent)) ? percent.toFixed(12) : String(percent);
  const text = raw.includes('.') ? raw.replace(/\.?0+$/, '') : raw;
  const [whole = '0', fraction = ''] = text.split('.');
  return { text, num: BigInt(whole + fraction), den: 10n ** BigInt(fraction.length) };
}

/** The fee `percent` implies on `amountRaw` base units, rounded down (never above the rate). */
export function feeOf(amountRaw: bigint, percent: number): bigint {
  const { num, den } = percentFraction(percent);
  return (amountRaw * num) / (den * 100n);
}

/**
 * What a deposit of `appId` records when it is credited (status 3), by its amount: the fee
 * percent of the merchant's package in force and the fee it implies, exact; both null without a
 * package (the deposit is credited all the same). The withdrawals issue takes the fee at the sweep.
 */
export async function creditTermsOf(
  db: Executor,
  appId: string,
  now: Date,
): Promise<(amountRaw: bigint) => { fee_percent: string | null; fee_raw: string | null }> {
  const [app] = await ownerOfApp(db, { appId });
  if (!app) throw new Error(`No app ${appId}`);
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) return () => ({ fee_percent: null, fee_raw: null });
  const percent = percentFraction(plan.fees).text;
  return (amountRaw) => ({ fee_percent: percent, fee_raw: feeOf(amountRaw, plan.fees).toString() });
}
