import { sql, type Expression, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { engineOf } from '../db/connection';
import type { Database, DepositStatus, SendStatus } from '../db/schema';
import { joinRawParts, rawParts, sumMicro } from '../db/sums';
import { ForbiddenError } from './errors';
import { chainAmountToMicro } from './money';
import { currentSubscription } from './subscriptions';

// What an app did, always computed from its receive and send rows, never kept as counters: the
// Daily Logs, the Usage figures, the dashboard's counts and the plan's limits all read the same
// rows through the same predicates, so re-running any of them gives the same numbers and they
// agree with each other.
//   - A deposit counts once credited: Hash Verified (3), Gas Transferred (4), Completed (1); on
//     the day it was credited (rows from before the watcher: the day they were recorded).
//   - A withdrawal counts once Completed (1), on the day it was created.
//   - A credited deposit's amount splits into the gateway's fee (fee_raw, the package's percent
//     recorded at credit; none without a package) and the rest, for the payout address: the
//     sweep's two legs. Both are summed exactly in base units (amount_raw, fee_raw); rows from
//     before the watcher have only amount_micro, and no fee.
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
  const engine = engineOf(db);
  const receives = db
    .selectFrom('receive_transactions')
    .select((eb) => {
      const amount = rawParts(engine, eb.ref('amount_raw'));
      const fee = rawParts(engine, eb.ref('fee_raw'));
      return [
        utcDay(db, eb.fn.coalesce('credited_at', 'created_at')).as('day'),
        'payment_method_id',
        sql<number>`1`.as('deposit_count'),
        'amount_micro as deposit_micro',
        sql<number>`0`.as('withdraw_count'),
        sql<number>`0`.as('withdraw_micro'),
        amount.high.as('amount_high'),
        amount.low.as('amount_low'),
        eb
          .case()
          .when('amount_raw', 'is', null)
          .then(eb.ref('amount_micro'))
          .else(0)
          .end()
          .as('legacy_micro'),
        fee.high.as('fee_high'),
        fee.low.as('fee_low'),
      ];
    })
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
      sql<number>`0`.as('amount_high'),
      sql<number>`0`.as('amount_low'),
      sql<number>`0`.as('legacy_micro'),
      sql<number>`0`.as('fee_high'),
      sql<number>`0`.as('fee_low'),
    ])
    .where('app_id', '=', appId)
    .where('status', '=', SEND_COMPLETED);
  return db.selectFrom(receives.unionAll(sends).as('t'));
}

/**
 * Whether sweeps take the fee leg: only with a fee address (GATEWAY_FEE_ADDRESS); without one the
 * payout address gets every deposit whole, and the figures say so.
 */
export interface FeeLeg {
  feeLeg: boolean;
}

export interface ActivityTotals {
  deposit_count: number;
  /** Exact sums, as BigInt. */
  deposit_micro: bigint;
  withdraw_count: number;
  withdraw_micro: bigint;
  /** The gateway's fee on the deposits, truncated to micro from its exact base-unit sum. */
  fee_micro: bigint;
  /** The deposits less that fee (for the payout address), likewise. */
  payout_micro: bigint;
}

function totalsOf(
  row: {
    deposit_count: string | number | null;
    deposit_micro: string;
    withdraw_count: string | number | null;
    withdraw_micro: string;
    amount_high: string;
    amount_low: string;
    legacy_micro: string;
    fee_high: string;
    fee_low: string;
  },
  decimals: number,
  { feeLeg }: FeeLeg,
): ActivityTotals {
  const amountRaw = joinRawParts(row.amount_high, row.amount_low);
  const feeRaw = feeLeg ? joinRawParts(row.fee_high, row.fee_low) : 0n;
  return {
    deposit_count: Number(row.deposit_count ?? 0),
    deposit_micro: BigInt(row.deposit_micro),
    withdraw_count: Number(row.withdraw_count ?? 0),
    withdraw_micro: BigInt(row.withdraw_micro),
    fee_micro: chainAmountToMicro(feeRaw, decimals),
    // Rows without amount_raw carry no fee: their micro amounts go to the payout whole.
    payout_micro: chainAmountToMicro(amountRaw - feeRaw, decimals) + BigInt(row.legacy_micro),
  };
}

/** The app's days by method (the Daily Logs), newest day first; one page and the total. */
export async function dailyLogs(
  db: Executor,
  appId: string,
  page: { limit: number; offset: number },
  fee: FeeLeg,
) {
  const groups = activityRows(db, appId)
    .innerJoin('payment_methods as pm', 'pm.id', 't.payment_method_id')
    .select((eb) => [
      't.day',
      'pm.id as payment_method_id',
      'pm.network_name',
      'pm.name',
      'pm.sort_order',
      'pm.decimals',
      eb.fn.sum<number>('t.deposit_count').as('deposit_count'),
      sumMicro(eb.ref('t.deposit_micro')).as('deposit_micro'),
      eb.fn.sum<number>('t.withdraw_count').as('withdraw_count'),
      sumMicro(eb.ref('t.withdraw_micro')).as('withdraw_micro'),
      sumMicro(eb.ref('t.amount_high')).as('amount_high'),
      sumMicro(eb.ref('t.amount_low')).as('amount_low'),
      sumMicro(eb.ref('t.legacy_micro')).as('legacy_micro'),
      sumMicro(eb.ref('t.fee_high')).as('fee_high'),
      sumMicro(eb.ref('t.fee_low')).as('fee_low'),
    ])
    .groupBy(['t.day', 'pm.id', 'pm.network_name', 'pm.name', 'pm.sort_order', 'pm.decimals']);
  const [rows, count] = await Promise.all([
    groups
      .orderBy('t.day', 'desc')
      .orderBy('pm.sort_order', 'asc')
      .orderBy('pm.id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom(groups.as('g'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((row) => ({
      day: row.day,
      paymentMethodId: row.payment_method_id,
      networkName: row.network_name,
      name: row.name,
      ...totalsOf(row, row.decimals, fee),
    })),
  };
}

/** The app's totals per payment method (the Usage figures): the Daily Logs summed. */
export async function methodTotals(
  db: Executor,
  appId: string,
  fee: FeeLeg,
): Promise<Map<string, ActivityTotals>> {
  const rows = await activityRows(db, appId)
    .innerJoin('payment_methods as pm', 'pm.id', 't.payment_method_id')
    .select((eb) => [
      't.payment_method_id',
      'pm.decimals',
      eb.fn.sum<number>('t.deposit_count').as('deposit_count'),
      sumMicro(eb.ref('t.deposit_micro')).as('deposit_micro'),
      eb.fn.sum<number>('t.withdraw_count').as('withdraw_count'),
      sumMicro(eb.ref('t.withdraw_micro')).as('withdraw_micro'),
      sumMicro(eb.ref('t.amount_high')).as('amount_high'),
      sumMicro(eb.ref('t.amount_low')).as('amount_low'),
      sumMicro(eb.ref('t.legacy_micro')).as('legacy_micro'),
      sumMicro(eb.ref('t.fee_high')).as('fee_high'),
      sumMicro(eb.ref('t.fee_low')).as('fee_low'),
    ])
    .groupBy(['t.payment_method_id', 'pm.decimals'])
    .execute();
  return new Map(rows.map((row) => [row.payment_method_id, totalsOf(row, row.decimals, fee)]));
}

/** Credited deposits of all the user's apps in the windows (since their start), by credited_at. */
async function creditedDepositCounts(
  db: Executor,
  userId: string,
  windows: Record<string, string>,
): Promise<Record<string, number>> {
  const names = Object.keys(windows);
  if (names.length === 0) return {};
  const earliest = names.map((n) => windows[n] ?? '').sort()[0] ?? '';
  const row = await db
    .selectFrom('receive_transactions')
    .where('app_id', 'in', db.selectFrom('apps').select('id').where('user_id', '=', userId))
    .where('deposit_status', 'in', CREDITED_STATUSES)
    .where('credited_at', '>=', earliest)
    .select((eb) =>
      names.map((name) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('credited_at', '>=', windows[name] ?? '')
              .then(1)
              .else(0)
              .end(),
          )
          .as(name),
      ),
    )
    .executeTakeFirst();
  const record: Record<string, unknown> = row ?? {};
  return Object.fromEntries(names.map((name) => [name, Number(record[name] ?? 0)]));
}

/** Withdrawals the plan counts: every one accepted, until it is cancelled (7). */
const PLAN_SEND_STATUSES: readonly SendStatus[] = [0, 1, 2, 3, 4, 5, 6];

/**
 * The package's transactions of all the user's apps in the windows (since their start): credited
 * deposits by credited_at, and withdrawals by created_at from their acceptance (so queued ones
 * cannot overrun a limit) until they are cancelled.
 */
export async function planTransactionCounts(
  db: Executor,
  userId: string,
  windows: Record<string, string>,
): Promise<Record<string, number>> {
  const names = Object.keys(windows);
  const deposits = await creditedDepositCounts(db, userId, windows);
  if (names.length === 0) return deposits;
  const earliest = names.map((n) => windows[n] ?? '').sort()[0] ?? '';
  const row = await db
    .selectFrom('send_transactions')
    .where('app_id', 'in', db.selectFrom('apps').select('id').where('user_id', '=', userId))
    .where('status', 'in', PLAN_SEND_STATUSES)
    .where('created_at', '>=', earliest)
    .select((eb) =>
      names.map((name) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('created_at', '>=', windows[name] ?? '')
              .then(1)
              .else(0)
              .end(),
          )
          .as(name),
      ),
    )
    .executeTakeFirst();
  const record: Record<string, unknown> = row ?? {};
  return Object.fromEntries(
    names.map((name) => [name, (deposits[name] ?? 0) + Number(record[name] ?? 0)]),
  );
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
export async function refuseOverPlan(
  db: Executor,
  appId: string,
  now: Date,
  purpose: PlanPurpose,
): Promise<void> {
  const app = await db
    .selectFrom('apps')
    .select('user_id')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
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
 * What a deposit records when it is credited (status 3): the fee percent of the merchant's
 * package in force and the fee it implies, exact; both null without a package (the deposit is
 * credited all the same). The withdrawals issue takes the fee at the sweep.
 */
export async function creditTerms(
  db: Executor,
  appId: string,
  amountRaw: bigint,
  now: Date,
): Promise<{ fee_percent: string | null; fee_raw: string | null }> {
  const app = await db
    .selectFrom('apps')
    .select('user_id')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) return { fee_percent: null, fee_raw: null };
  return {
    fee_percent: percentFraction(plan.fees).text,
    fee_raw: feeOf(amountRaw, plan.fees).toString(),
  };
}
