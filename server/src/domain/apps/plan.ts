import { type Kysely, type Transaction } from 'kysely';
import { changesOf } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { ForbiddenError } from '../errors';
import { currentSubscription, subscriptionTables } from '../billing/subscriptions';
import { CREDITED_STATUSES, PLAN_SEND_STATUSES } from './usage';
import { codedMessages } from '../messageCodes';

// The plan: credited deposits (a settled invoice once, whatever the methods it was paid in) and
// withdrawals are the package's transactions, counted from the daily totals (usage.ts) over the
// package's windows; the fee is the package's percent.

type Executor = Kysely<Database> | Transaction<Database>;

/** YYYY-MM-DD of an ISO instant (UTC). */
const dayOf = (instant: string) => new Date(instant).toISOString().slice(0, 10);

/** The user's live apps: test apps' transactions never count against the plan. */
const appsOf = (db: Executor, userId: string) =>
  db.selectFrom('apps').select('id').where('user_id', '=', userId).where('livemode', '=', 1);

/** The plan's whole days from each `d<i>` on, summed over the user's apps: one query per count. */
const wholeDaySums = new Map<number, ReturnType<typeof wholeDaySumsOf>>();

/** The prepared sums of `windows` windows, made once per count. */
function wholeDaySumsFor(windows: number): ReturnType<typeof wholeDaySumsOf> {
  let sums = wholeDaySums.get(windows);
  if (!sums) {
    sums = wholeDaySumsOf(windows);
    wholeDaySums.set(windows, sums);
  }
  return sums;
}

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
          // The transactions they are (an invoice paid in two methods is one: usage.ts).
          .select((q) => q.fn.sum<number>('tnx_count').as('n'))
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
 * What the windows' starts ask of the database: each one's first whole day (`d<i>`), and for one
 * that starts inside a day, that day's range.
 */
interface WindowDays {
  days: Record<string, string>;
  partials: ({ start: string; until: string } | undefined)[];
}

/**
 * WindowDays by the windows' starts: a merchant's plan checks ask for the same starts until the
 * day or the subscription changes, and working them out (dates parsed and printed) was a few per
 * cent of a creation's CPU. At most this many are kept; past it they start over.
 */
const windowDays = new Map<string, WindowDays>();
const KEPT_WINDOW_DAYS = 1000;

function windowDaysOf(instants: readonly string[]): WindowDays {
  const key = instants.join('|');
  const known = windowDays.get(key);
  if (known) return known;
  const days: Record<string, string> = {};
  const partials: WindowDays['partials'] = [];
  for (const [i, instant] of instants.entries()) {
    const start = new Date(instant).toISOString();
    // The first whole day of each window: its start's own day unless it starts inside it.
    const atMidnight = start.endsWith('T00:00:00.000Z');
    const until = nextDay(dayOf(start));
    days[`d${i}`] = atMidnight ? dayOf(start) : until.slice(0, 10);
    partials.push(atMidnight ? undefined : { start, until });
  }
  if (windowDays.size >= KEPT_WINDOW_DAYS) windowDays.clear();
  const made = { days, partials };
  windowDays.set(key, made);
  return made;
}

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
  const { days, partials } = windowDaysOf(names.map((name) => windows[name] ?? ''));
  const [row] = await wholeDaySumsFor(names.length)(db, { ...days, userId });
  const record: Record<string, unknown> = row ?? {};
  const counts: Record<string, number> = {};
  for (const [i, name] of names.entries()) {
    const range = partials[i];
    let partial = 0;
    if (range) {
      const [part] = await partialDay(db, { userId, ...range });
      for (const n of [part?.credited, part?.recorded, part?.withdrawals])
        partial += Number(n ?? 0);
    }
    counts[name] = Number(record[`w${i}`] ?? 0) + partial;
  }
  return counts;
}

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

/** A package's name and a limit are values; what the refusal stops is part of its code. */
const tnxLimit = (name: string, limit: string, what: string) =>
  `The ${name} package's transaction limit (tnx_limit ${limit}) is used up: ${limit} transactions (credited deposits and withdrawals) this subscription. Upgrade the package to ${what}; ${STILL_CREDITED}`;

const PLAN_MESSAGES = codedMessages('plan', {
  noPackageAccount:
    'The merchant has no active package: subscribe to a package to create deposit accounts. Deposits to existing addresses are still credited.',
  noPackageWithdrawal:
    'The merchant has no active package: subscribe to a package to request withdrawals. Deposits to existing addresses are still credited.',
  noPackageInvoice:
    'The merchant has no active package: subscribe to a package to create invoices. Deposits to existing addresses are still credited.',
  tnxLimitAccount: (name: string, limit: string) =>
    tnxLimit(name, limit, 'create deposit accounts'),
  tnxLimitWithdrawal: (name: string, limit: string) => tnxLimit(name, limit, 'request withdrawals'),
  tnxLimitInvoice: (name: string, limit: string) => tnxLimit(name, limit, 'create invoices'),
  dailyLimit: (name: string, limit: string) =>
    `The ${name} package's daily transaction limit (daily_tnx_limit ${limit}) is used up for today (UTC). Try again tomorrow or upgrade the package; ${STILL_CREDITED}`,
} as const);

/** What a plan refusal is about: a new deposit account, a withdrawal, or a new invoice. */
type PlanPurpose = 'account' | 'withdrawal' | 'invoice';

const PLAN_MSG = {
  noPackage: {
    account: PLAN_MESSAGES.noPackageAccount,
    withdrawal: PLAN_MESSAGES.noPackageWithdrawal,
    invoice: PLAN_MESSAGES.noPackageInvoice,
  },
  tnxLimit: {
    account: PLAN_MESSAGES.tnxLimitAccount,
    withdrawal: PLAN_MESSAGES.tnxLimitWithdrawal,
    invoice: PLAN_MESSAGES.tnxLimitInvoice,
  },
  dailyLimit: PLAN_MESSAGES.dailyLimit,
} as const;

const DAY_MS = 86_400_000;
/** The last day startOfUtcDay printed: every creation's plan check asks for today's. */
let lastDay = { ms: Number.NaN, iso: '' };

export function startOfUtcDay(now: Date): string {
  const ms = now.getTime() - (((now.getTime() % DAY_MS) + DAY_MS) % DAY_MS);
  if (ms !== lastDay.ms) lastDay = { ms, iso: new Date(ms).toISOString() };
  return lastDay.iso;
}

// Every new gateway account, invoice and withdrawal asks: prepared, and kept under the app.
const ownerOfApp = prepared(
  { appId: '' },
  (db, p) => db.selectFrom('apps').select(['user_id', 'livemode']).where('id', '=', p.appId),
  { ownerOf: (p, rows) => (rows.length > 0 ? p.appId : undefined) },
);

/** The tables a plan check reads: its verdict holds until one of them changes for the merchant. */
export function planTables(db: Executor): string[] {
  const read = [ownerOfApp, wholeDaySumsFor(2), partialDay].flatMap((query) => [
    ...query.tables(db),
  ]);
  return [...new Set([...read, ...subscriptionTables(db)])].sort();
}

/** What is kept of a check that refused nothing: the verdict alone. */
const ALLOWED = Object.freeze({ allowed: true });

/**
 * Refuses (PlanLimitError) a new deposit account, invoice or withdrawal of a live app's merchant
 * without a package in force, or once its transactions (planTransactionCounts) reach the package's
 * tnx_limit (this subscription) or daily_tnx_limit (this UTC day).
 * Every creation asks, with the same answer until one of the merchant's rows it reads changes (a
 * credited deposit, a withdrawal, a new subscription), the day ends or the subscription does: a
 * check that refused nothing is kept per app that long (db/ownerChanges.ts), where its four kept
 * reads and the windows' arithmetic were 6 % of a creation's CPU (profile). A refusal is made
 * afresh each time.
 */
export async function refuseOverPlan(
  db: Executor,
  appId: string,
  now: Date,
  purpose: PlanPurpose,
): Promise<void> {
  const changes = changesOf(db);
  const key = `plan:${appId}`;
  if (changes?.keptAnswer(key, now.getTime())) return;
  const mark = changes?.begin() ?? null;
  const { owner, until } = await checkPlan(db, appId, now, purpose);
  if (changes && mark !== null && until > now.getTime()) {
    changes.keepAnswer(key, owner, mark, ALLOWED, until, planTables(db));
  }
}

/** refuseOverPlan's reads: the merchant and until when the verdict holds, unless it refuses. */
async function checkPlan(
  db: Executor,
  appId: string,
  now: Date,
  purpose: PlanPurpose,
): Promise<{ owner: string; until: number }> {
  const [app] = await ownerOfApp(db, { appId });
  if (!app) throw new Error(`No app ${appId}`);
  // Test mode is for integrating before any package: its own rate limits bound it, not the plan.
  if (app.livemode === 0) return { owner: app.user_id, until: Infinity };
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  if (!plan) throw new PlanLimitError('no_package', PLAN_MSG.noPackage[purpose]);
  const today = startOfUtcDay(now);
  const counts = await planTransactionCounts(db, app.user_id, {
    used: plan.start_date,
    today,
  });
  if ((counts.used ?? 0) >= plan.tnx_limit) {
    throw new PlanLimitError(
      'tnx_limit',
      PLAN_MSG.tnxLimit[purpose](plan.package_name, String(plan.tnx_limit)),
    );
  }
  if ((counts.today ?? 0) >= plan.daily_tnx_limit) {
    throw new PlanLimitError(
      'daily_tnx_limit',
      PLAN_MSG.dailyLimit(plan.package_name, String(plan.daily_tnx_limit)),
    );
  }
  return {
    owner: app.user_id,
    until: Math.min(Date.parse(today) + DAY_MS, Date.parse(plan.end_date)),
  };
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
export async function creditTermsOf(db: Executor, appId: string, now: Date): Promise<CreditTerms> {
  const [app] = await ownerOfApp(db, { appId });
  if (!app) throw new Error(`No app ${appId}`);
  const plan = await currentSubscription(db, app.user_id, now.toISOString());
  return creditTerms(plan?.fees);
}

type CreditTerms = (amountRaw: bigint) => { fee_percent: string | null; fee_raw: string | null };

function creditTerms(fees: number | undefined): CreditTerms {
  if (fees === undefined) return () => ({ fee_percent: null, fee_raw: null });
  const percent = percentFraction(fees).text;
  return (amountRaw) => ({ fee_percent: percent, fee_raw: feeOf(amountRaw, fees).toString() });
}

/**
 * creditTermsOf for many apps in one statement (a block credits many merchants at once): the
 * package in force is, as in currentSubscription, the newest unreplaced one not yet ended.
 */
export async function creditTermsOfApps(
  db: Executor,
  appIds: readonly string[],
  now: Date,
): Promise<Map<string, CreditTerms>> {
  if (appIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('apps')
    .leftJoin('subscriptions', (join) =>
      join
        .onRef('subscriptions.user_id', '=', 'apps.user_id')
        .on('subscriptions.replaced_at', 'is', null)
        .on('subscriptions.end_date', '>', now.toISOString()),
    )
    .leftJoin('packages', 'packages.id', 'subscriptions.package_id')
    .select(['apps.id', 'packages.fees'])
    .where('apps.id', 'in', appIds)
    .orderBy('subscriptions.created_at', 'desc')
    .execute();
  const fees = new Map<string, number | undefined>();
  for (const row of rows) if (!fees.has(row.id)) fees.set(row.id, row.fees ?? undefined);
  return new Map(
    appIds.map((appId) => {
      if (!fees.has(appId)) throw new Error(`No app ${appId}`);
      return [appId, creditTerms(fees.get(appId))];
    }),
  );
}
