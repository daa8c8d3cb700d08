import { sql, type Expression, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { engineOf } from '../db/connection';
import type { Database, DepositStatus } from '../db/schema';
import { sumMicro } from '../db/sums';
import { ForbiddenError } from './errors';
import { currentSubscription } from './subscriptions';

// What an app did: credited deposits and completed withdrawals, per UTC day and method. The
// Daily Logs, the Usage figures, the dashboard's counts and the plan's limits all read the same
// daily totals (app_daily_usage), which triggers keep in the very transaction that writes a
// receive or send row (migration 0190), so they agree with each other and with the rows: the
// totals are exactly what these rules derive from the rows (derivedDailyUsage, which a test and
// `npm run bench:api` hold them to).
//   - A deposit counts once credited: Hash Verified (3), Gas Transferred (4), Completed (1); on
//     the day it was credited (rows from before the watcher: the day they were recorded).
//   - A withdrawal counts once Completed (1), on the day it was created.
// Days are UTC days: the server has no idea of the merchant's time zone.

type Executor = Kysely<Database> | Transaction<Database>;

export const CREDITED_STATUSES: readonly DepositStatus[] = [3, 4, 1];
const SEND_COMPLETED = 1;

/** YYYY-MM-DD (UTC) of an instant column: ISO text on SQLite, timestamptz on PostgreSQL. */
function utcDay(db: Executor, instant: Expression<string | null>): RawBuilder<string> {
  return engineOf(db) === 'postgres'
    ? sql<string>`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${instant}, 1, 10)`;
}

/** One row per credited deposit and per completed withdrawal of the app, with its UTC day. */
function activityRows(db: Executor, appId: string) {
  const receives = db
    .selectFrom('receive_transactions')
    .select((eb) => [
      utcDay(db, eb.fn.coalesce('credited_at', 'created_at')).as('day'),
      'payment_method_id',
      sql<number>`1`.as('deposit_count'),
      'amount_micro as deposit_micro',
      sql<number>`0`.as('withdraw_count'),
      sql<number>`0`.as('withdraw_micro'),
    ])
    .where('app_id', '=', appId)
    .where('deposit_status', 'in', CREDITED_STATUSES);
  const sends = db
    .selectFrom('send_transactions')
    .select((eb) => [
      utcDay(db, eb.ref('created_at')).as('day'),
      'payment_method_id',
      sql<number>`0`.as('deposit_count'),
      sql<number>`0`.as('deposit_micro'),
      sql<number>`1`.as('withdraw_count'),
      'amount_micro as withdraw_micro',
    ])
    .where('app_id', '=', appId)
    .where('status', '=', SEND_COMPLETED);
  return db.selectFrom(receives.unionAll(sends).as('t'));
}

export interface ActivityTotals {
  deposit_count: number;
  /** Exact sums, as BigInt. */
  deposit_micro: bigint;
  withdraw_count: number;
  withdraw_micro: bigint;
}

function totalsOf(row: {
  deposit_count: string | number | null;
  deposit_micro: string;
  withdraw_count: string | number | null;
  withdraw_micro: string;
}): ActivityTotals {
  return {
    deposit_count: Number(row.deposit_count ?? 0),
    deposit_micro: BigInt(row.deposit_micro),
    withdraw_count: Number(row.withdraw_count ?? 0),
    withdraw_micro: BigInt(row.withdraw_micro),
  };
}

interface DailyUsage extends ActivityTotals {
  day: string;
  paymentMethodId: string;
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
    ])
    .groupBy(['t.day', 't.payment_method_id'])
    .execute();
  return rows
    .map((row) => ({ day: row.day, paymentMethodId: row.payment_method_id, ...totalsOf(row) }))
    .sort(byDayAndMethod);
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
    ])
    .where('app_id', '=', appId)
    .execute();
  return rows
    .map((row) => ({ day: row.day, paymentMethodId: row.payment_method_id, ...totalsOf(row) }))
    .sort(byDayAndMethod);
}

/** The app's days by method (the Daily Logs), newest day first; one page and the total. */
export async function dailyLogs(
  db: Executor,
  appId: string,
  page: { limit: number; offset: number },
) {
  const [rows, count] = await Promise.all([
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
      ])
      .where('u.app_id', '=', appId)
      .orderBy('u.day', 'desc')
      .orderBy('pm.sort_order', 'asc')
      .orderBy('pm.id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    // A day and method is kept only while something counts in it (the triggers drop empty ones).
    db
      .selectFrom('app_daily_usage')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((row) => ({
      day: row.day,
      paymentMethodId: row.payment_method_id,
      networkName: row.network_name,
      name: row.name,
      ...totalsOf(row),
    })),
  };
}

/** The app's totals per payment method (the Usage figures): the Daily Logs summed. */
export async function methodTotals(
  db: Executor,
  appId: string,
): Promise<Map<string, ActivityTotals>> {
  const rows = await db
    .selectFrom('app_daily_usage')
    .select((eb) => [
      'payment_method_id',
      eb.fn.sum<number>('deposit_count').as('deposit_count'),
      sumMicro(eb.ref('deposit_micro')).as('deposit_micro'),
      eb.fn.sum<number>('withdraw_count').as('withdraw_count'),
      sumMicro(eb.ref('withdraw_micro')).as('withdraw_micro'),
    ])
    .where('app_id', '=', appId)
    .groupBy('payment_method_id')
    .execute();
  return new Map(rows.map((row) => [row.payment_method_id, totalsOf(row)]));
}

/** YYYY-MM-DD of an ISO instant (UTC). */
const dayOf = (instant: string) => new Date(instant).toISOString().slice(0, 10);

/**
 * Credited deposits of all the user's apps since each window's start (an instant).
 * Whole days come from the daily totals; a window that starts inside a day adds that day's
 * deposits credited at or after its start, read from the rows of that one day (by index).
 */
export async function creditedDepositCounts(
  db: Executor,
  userId: string,
  windows: Record<string, string>,
): Promise<Record<string, number>> {
  const apps = db.selectFrom('apps').select('id').where('user_id', '=', userId);
  const names = Object.keys(windows);
  if (names.length === 0) return {};
  const starts = names.map((name) => new Date(windows[name] ?? 0).toISOString());
  const row = await db
    .selectFrom('app_daily_usage')
    .where('app_id', 'in', apps)
    .select((eb) =>
      starts.map((start, i) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              // The start's own day is counted from the rows below unless it starts at 00:00.
              .when('day', start.endsWith('T00:00:00.000Z') ? '>=' : '>', dayOf(start))
              .then(eb.ref('deposit_count'))
              .else(0)
              .end(),
          )
          .as(`w${i}`),
      ),
    )
    .executeTakeFirst();
  const record: Record<string, unknown> = row ?? {};
  const counts: Record<string, number> = {};
  for (const [i, name] of names.entries()) {
    const start = starts[i] ?? '';
    let partial = 0;
    if (!start.endsWith('T00:00:00.000Z')) {
      const next = new Date(Date.parse(`${dayOf(start)}T00:00:00.000Z`) + 86_400_000);
      const until = next.toISOString();
      // Two ranges, each on its own index ((app_id, credited_at), and (app_id, created_at) for
      // rows from before the watcher): an OR of the two would read every row of the apps.
      const credited = (column: 'credited_at' | 'created_at') =>
        db
          .selectFrom('receive_transactions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('app_id', 'in', apps)
          .where('deposit_status', 'in', CREDITED_STATUSES)
          .$if(column === 'created_at', (q) => q.where('credited_at', 'is', null))
          .where(column, '>=', start)
          .where(column, '<', until)
          .executeTakeFirstOrThrow();
      const [byCredit, byRecord] = [await credited('credited_at'), await credited('created_at')];
      partial = Number(byCredit.n) + Number(byRecord.n);
    }
    counts[name] = Number(record[`w${i}`] ?? 0) + partial;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// The plan: credited deposits are the package's transactions.

/** A gateway request the merchant's package does not cover (the gateway answers 402). */
export class PlanLimitError extends ForbiddenError {
  constructor(
    readonly code: 'no_package' | 'tnx_limit' | 'daily_tnx_limit',
    message: string,
  ) {
    super(message);
  }
}

const PLAN_MSG = {
  noPackage:
    'The merchant has no active package: subscribe to a package to create deposit accounts. Deposits to existing addresses are still credited.',
  tnxLimit: (name: string, limit: number) =>
    `The ${name} package's transaction limit (tnx_limit ${limit}) is used up: ${limit} credited deposits this subscription. Upgrade the package to create deposit accounts; deposits to existing addresses are still credited.`,
  dailyLimit: (name: string, limit: number) =>
    `The ${name} package's daily transaction limit (daily_tnx_limit ${limit}) is used up for today (UTC). Try again tomorrow or upgrade the package; deposits to existing addresses are still credited.`,
} as const;

export function startOfUtcDay(now: Date): string {
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
  ).toISOString();
}

/**
 * Refuses (PlanLimitError) a new deposit account of `appId`'s merchant without a package in
 * force, or once its credited deposits reach the package's tnx_limit (this subscription) or
 * daily_tnx_limit (this UTC day).
 */
export async function refuseNewAccountOverPlan(
  db: Executor,
  appId: string,
  now: Date,
): Promise<void> {
  const app = await db
    .selectFrom('apps')
    .select('user_id')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) throw new PlanLimitError('no_package', PLAN_MSG.noPackage);
  const counts = await creditedDepositCounts(db, app.user_id, {
    used: plan.start_date,
    today: startOfUtcDay(now),
  });
  if ((counts.used ?? 0) >= plan.tnx_limit) {
    throw new PlanLimitError('tnx_limit', PLAN_MSG.tnxLimit(plan.package_name, plan.tnx_limit));
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
  const app = await db
    .selectFrom('apps')
    .select('user_id')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) return () => ({ fee_percent: null, fee_raw: null });
  const percent = percentFraction(plan.fees).text;
  return (amountRaw) => ({ fee_percent: percent, fee_raw: feeOf(amountRaw, plan.fees).toString() });
}
