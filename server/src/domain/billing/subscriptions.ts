import { NO_PLAN, type RequestSigner } from '../../signer/client/requestMac';
import { queuePlanRegistration } from '../apps/signerRegistration';
import type { Kysely, MigrationResultSet, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { prepared } from '../../db/prepared';
import { newId } from '../ids';
import { balanceMicro, postDebitIfCovered, postEntry } from './ledger';
import { microToDecimal, microToString } from '../money';
import { lockForTransaction } from '../../db/locks';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The subscription in force: not replaced by an upgrade/downgrade and not past its end_date.
 * A canceled one (status 2) stays in force until end_date: access continues after cancelling.
 */
export async function currentSubscription(db: Executor, userId: string, nowIso: string) {
  const rows = await unreplacedSubscriptions(db, { userId });
  return rows.find((row) => row.end_date > nowIso);
}

// Read by the dashboard and every plan check: prepared, and kept per process (db/ownerChanges.ts)
// without the time, so one kept read answers at any time: the user's subscriptions not replaced
// by another, newest first (a few a year), the first not yet ended is the one in force.
const unreplacedSubscriptions = prepared(
  { userId: '' },
  (db, { userId }) =>
    db
      .selectFrom('subscriptions')
      .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
      .selectAll('subscriptions')
      .select([
        'packages.name as package_name',
        'packages.app_count',
        'packages.tnx_limit',
        'packages.daily_tnx_limit',
        'packages.fees',
        'packages.duration_days',
      ])
      .where('subscriptions.user_id', '=', userId)
      .where('subscriptions.replaced_at', 'is', null)
      .orderBy('subscriptions.created_at', 'desc'),
  { ownerOf: (p) => p.userId },
);

/** The tables currentSubscription reads: what a verdict made from it depends on. */
export function subscriptionTables(db: Executor): readonly string[] {
  return unreplacedSubscriptions.tables(db);
}

/** The purchase history is paged by this many rows (contract: 10 per page). */
export const HISTORY_PER_PAGE = 10;
const DAY_MS = 86_400_000;

/** History status: 0 Expired (ended by date or replaced by another plan), 1 Active, 2 Canceled. */
export type HistoryStatus = 0 | 1 | 2;

export function historyStatus(
  row: { status: 1 | 2; end_date: string; replaced_at: string | null },
  nowIso: string,
): HistoryStatus {
  if (row.replaced_at !== null || row.end_date <= nowIso) return 0;
  return row.status;
}

/** Packages on sale, cheapest first. */
export async function listActivePackages(db: Executor) {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('price_micro', 'asc')
    .orderBy('sort_order', 'asc')
    .execute();
}

/** 'INV-<year>-<6 digits>', numbered per year; unique (also a unique column). */
async function nextInvoiceId(db: Executor, now: Date): Promise<string> {
  const prefix = `INV-${now.getUTCFullYear()}-`;
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.max('invoice_id').as('last'))
    .where('invoice_id', 'like', `${prefix}%`)
    .executeTakeFirst();
  const last = row?.last ? Number(row.last.slice(prefix.length)) : 0;
  return `${prefix}${String((Number.isFinite(last) ? last : 0) + 1).padStart(6, '0')}`;
}

export type PurchaseKind = 'new' | 'upgrade' | 'downgrade' | 'switch';
export type ReplacedKind = Exclude<PurchaseKind, 'new'>;

/** Credits are whole cents, so every figure the portal shows with 2 decimals is the exact one. */
const CENT_MICRO = 10_000n;

/**
 * Our proration (docs/decisions.md, Plan changes are prorated): a plan in force is credited for
 * its unused WHOLE days, at the price it was bought for, rounded down to the cent. Whole days keep
 * a quote valid for the rest of the plan's current day, so the amount the merchant agreed to is
 * the amount charged.
 */
export function unusedCredit(
  plan: { price_micro: number; start_date: string; end_date: string },
  now: Date,
): { creditMicro: bigint; unusedDays: number } {
  const durationDays = Math.max(
    1,
    Math.round((Date.parse(plan.end_date) - Date.parse(plan.start_date)) / DAY_MS),
  );
  const unusedDays = Math.min(
    durationDays,
    Math.max(0, Math.floor((Date.parse(plan.end_date) - now.getTime()) / DAY_MS)),
  );
  const exact = (BigInt(plan.price_micro) * BigInt(unusedDays)) / BigInt(durationDays);
  return { creditMicro: (exact / CENT_MICRO) * CENT_MICRO, unusedDays };
}

export interface PriceChange {
  kind: PurchaseKind;
  /** How the plan in force ends, null without one. */
  replacedKind: ReplacedKind | null;
  replacedName: string | null;
  priceMicro: bigint;
  creditMicro: bigint;
  unusedDays: number;
  /** What the wallet pays now: price less credit, never below 0. */
  dueMicro: bigint;
  /** The credit beyond the price, paid back to the wallet. */
  refundMicro: bigint;
}

type PlanInForce = NonNullable<Awaited<ReturnType<typeof currentSubscription>>>;

function byPrice(newPrice: number, currentPrice: number): ReplacedKind {
  if (newPrice > currentPrice) return 'upgrade';
  return newPrice < currentPrice ? 'downgrade' : 'switch';
}

/** What buying `pkg` now costs against the plan in force: the quote and the charge are one rule. */
export function priceChange(
  pkg: { price_micro: number },
  current: PlanInForce | undefined,
  now: Date,
): PriceChange {
  const priceMicro = BigInt(pkg.price_micro);
  if (!current) {
    return {
      kind: 'new',
      replacedKind: null,
      replacedName: null,
      priceMicro,
      creditMicro: 0n,
      unusedDays: 0,
      dueMicro: priceMicro,
      refundMicro: 0n,
    };
  }
  const { creditMicro, unusedDays } = unusedCredit(current, now);
  const replacedKind = byPrice(pkg.price_micro, current.price_micro);
  return {
    // A canceled plan still in force is replaced and credited, but buying is a new choice.
    kind: current.status === 1 ? replacedKind : 'new',
    replacedKind,
    replacedName: current.package_name,
    priceMicro,
    creditMicro,
    unusedDays,
    dueMicro: priceMicro > creditMicro ? priceMicro - creditMicro : 0n,
    refundMicro: creditMicro > priceMicro ? creditMicro - priceMicro : 0n,
  };
}

export type QuoteOutcome =
  | { ok: true; change: PriceChange; balanceMicro: bigint }
  | { ok: false; reason: 'unknown_package' | 'already_active' };

async function activePackage(db: Executor, packageId: string) {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('id', '=', packageId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
}

/** Prices a purchase without making it (the modal's figures). */
export async function quotePurchase(
  db: Executor,
  input: { userId: string; packageId: string; now: Date },
): Promise<QuoteOutcome> {
  const pkg = await activePackage(db, input.packageId);
  if (!pkg) return { ok: false, reason: 'unknown_package' };
  const current = await currentSubscription(db, input.userId, input.now.toISOString());
  if (current?.status === 1 && current.package_id === pkg.id) {
    return { ok: false, reason: 'already_active' };
  }
  return {
    ok: true,
    change: priceChange(pkg, current, input.now),
    balanceMicro: await balanceMicro(db, input.userId),
  };
}

export type PurchaseOutcome =
  | { ok: true; kind: PurchaseKind; subscriptionId: string; invoiceId: string }
  | { ok: false; reason: 'unknown_package' | 'already_active' | 'remarks_required' }
  | { ok: false; reason: 'amount_changed'; dueMicro: bigint }
  | {
      ok: false;
      reason: 'insufficient_balance';
      packageName: string;
      dueMicro: bigint;
      balanceMicro: bigint;
    };

/**
 * Buys a package from the wallet balance. Everything happens in one database transaction: the
 * debit is a conditional insert (postDebitIfCovered), so a short balance changes nothing and
 * concurrent purchases cannot overspend. A plan in force (active or canceled) is replaced from
 * now on and credited for its unused days (priceChange); compared with an active one by price, a
 * cheaper plan is a downgrade and needs remarks. `amountDue` (what the merchant was shown) must
 * still be the amount due, or nothing is charged.
 */
export async function purchasePackage(
  db: Kysely<Database>,
  input: {
    userId: string;
    packageId: string;
    remarks?: string;
    amountDue?: number;
    now: Date;
    /** MACs the new plan's registration with the signer, for each of the user's apps. */
    sign: RequestSigner;
  },
): Promise<PurchaseOutcome> {
  const nowIso = input.now.toISOString();
  const remarks = input.remarks?.trim() || null;
  return db.transaction().execute(async (trx): Promise<PurchaseOutcome> => {
    await lockForTransaction(trx, `money:${input.userId}`);
    const pkg = await activePackage(trx, input.packageId);
    if (!pkg) return { ok: false, reason: 'unknown_package' };
    const current = await currentSubscription(trx, input.userId, nowIso);
    if (current?.status === 1 && current.package_id === pkg.id) {
      return { ok: false, reason: 'already_active' };
    }
    const change = priceChange(pkg, current, input.now);
    if (change.kind === 'downgrade' && !remarks) return { ok: false, reason: 'remarks_required' };
    if (input.amountDue !== undefined && input.amountDue !== microToDecimal(change.dueMicro)) {
      return { ok: false, reason: 'amount_changed', dueMicro: change.dueMicro };
    }
    const invoiceId = await nextInvoiceId(trx, input.now);
    if (change.dueMicro > 0n) {
      const credited =
        change.creditMicro > 0n
          ? `, less ${microToString(change.creditMicro, 2)} USDT for ${change.unusedDays} unused days of ${change.replacedName}`
          : '';
      const paid = await postDebitIfCovered(trx, {
        userId: input.userId,
        tnx: invoiceId,
        amountMicro: change.dueMicro,
        source: 'subscription',
        note: `${pkg.name} plan, ${pkg.duration_days} days${credited}`,
        createdAt: nowIso,
      });
      if (!paid) {
        return {
          ok: false,
          reason: 'insufficient_balance',
          packageName: pkg.name,
          dueMicro: change.dueMicro,
          balanceMicro: await balanceMicro(trx, input.userId),
        };
      }
    }
    if (change.refundMicro > 0n) {
      await postEntry(trx, {
        userId: input.userId,
        tnx: invoiceId,
        amountMicro: change.refundMicro,
        type: 'credit',
        source: 'subscription',
        note: `Unused days of ${change.replacedName} beyond the ${pkg.name} price`,
        createdAt: nowIso,
      });
    }
    if (current) {
      await trx
        .updateTable('subscriptions')
        .set({
          replaced_at: nowIso,
          replaced_kind: change.replacedKind,
          credit_micro: Number(change.creditMicro),
        })
        .where('id', '=', current.id)
        .execute();
    }
    const subscriptionId = newId('sub');
    const endDate = new Date(input.now.getTime() + pkg.duration_days * DAY_MS).toISOString();
    await trx
      .insertInto('subscriptions')
      .values({
        id: subscriptionId,
        user_id: input.userId,
        package_id: pkg.id,
        price_micro: pkg.price_micro,
        paid_micro: Number(change.dueMicro),
        credit_micro: 0,
        replaced_kind: null,
        status: 1,
        invoice_id: invoiceId,
        remarks,
        start_date: nowIso,
        end_date: endDate,
        canceled_at: null,
        replaced_at: null,
        created_at: nowIso,
      })
      .execute();
    // The signer's daily caps follow the plan until its end: a raise (or a longer plan) once its
    // hold is over, a cut at once. A cancelled plan runs to its end, so cancelling tells it nothing.
    const apps = await trx
      .selectFrom('apps')
      .select('id')
      .where('user_id', '=', input.userId)
      .execute();
    for (const app of apps) {
      await queuePlanRegistration(trx, input.sign, {
        appId: app.id,
        packageId: pkg.id,
        until: endDate,
        at: input.now,
      });
    }
    return { ok: true, kind: change.kind, subscriptionId, invoiceId };
  });
}

export type CancelOutcome = 'canceled' | 'not_found' | 'already_canceled' | 'ended';

/** Cancels a subscription in force: nothing is refunded, access continues until end_date. */
export async function cancelSubscription(
  db: Kysely<Database>,
  input: { userId: string; subscriptionId: string; nowIso: string },
): Promise<CancelOutcome> {
  return db.transaction().execute(async (trx): Promise<CancelOutcome> => {
    const row = await trx
      .selectFrom('subscriptions')
      .select(['id', 'status', 'end_date', 'replaced_at'])
      .where('id', '=', input.subscriptionId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    if (!row) return 'not_found';
    if (historyStatus(row, input.nowIso) === 0) return 'ended';
    if (row.status === 2) return 'already_canceled';
    await trx
      .updateTable('subscriptions')
      .set({ status: 2, canceled_at: input.nowIso })
      .where('id', '=', row.id)
      .where('status', '=', 1)
      .execute();
    return 'canceled';
  });
}

/** One page of the user's purchases, newest first. */
export async function listPurchases(
  db: Executor,
  userId: string,
  page: number,
  nowIso: string,
  perPage = HISTORY_PER_PAGE,
) {
  const { total } = await db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select([
      'subscriptions.id',
      'subscriptions.price_micro',
      'subscriptions.paid_micro',
      'subscriptions.credit_micro',
      'subscriptions.replaced_kind',
      'subscriptions.invoice_id',
      'subscriptions.status',
      'subscriptions.start_date',
      'subscriptions.end_date',
      'subscriptions.replaced_at',
      'subscriptions.created_at',
      'packages.name as package',
      'users.name',
      'users.username',
    ])
    .where('subscriptions.user_id', '=', userId)
    .orderBy('subscriptions.created_at', 'desc')
    .orderBy('subscriptions.invoice_id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return {
    total: Number(total),
    rows: rows.map((row) => ({
      ...row,
      status: historyStatus(row, nowIso),
      durationDays: Math.round((Date.parse(row.end_date) - Date.parse(row.start_date)) / DAY_MS),
    })),
  };
}

/**
 * What the merchant still has to deposit to renew the active plan at its package's price: the
 * price less the balance, never below 0; 0 without an active (not canceled) plan.
 */
export async function subscriptionDueMicro(
  db: Executor,
  userId: string,
  nowIso: string,
  balance: bigint,
): Promise<bigint> {
  const current = await currentSubscription(db, userId, nowIso);
  if (current?.status !== 1) return 0n;
  const pkg = await db
    .selectFrom('packages')
    .select('price_micro')
    .where('id', '=', current.package_id)
    .executeTakeFirst();
  const due = BigInt(pkg?.price_micro ?? current.price_micro) - balance;
  return due > 0n ? due : 0n;
}

/** The migration from which plans registered with the signer carry their end. */
const PLAN_ENDS_MIGRATION = '0470_signer_plan_ends';

/**
 * The start that applies PLAN_ENDS_MIGRATION (the web process's or the signer's, whichever
 * migrates first) registers every app's plan again, with its end: plans registered before had
 * none, so the signer would keep their caps past it. Answers how many apps it queued.
 */
export async function registerPlansAtUpgrade(
  db: Kysely<Database>,
  migrated: MigrationResultSet,
  sign: RequestSigner,
  now: Date,
): Promise<number> {
  const applied = migrated.results?.some(
    (r) => r.migrationName === PLAN_ENDS_MIGRATION && r.status === 'Success',
  );
  if (!applied) return 0;
  const apps = await db.selectFrom('apps').select(['id', 'user_id']).execute();
  await db.transaction().execute(async (trx) => {
    for (const app of apps) {
      const plan = await currentSubscription(trx, app.user_id, now.toISOString());
      await queuePlanRegistration(trx, sign, {
        appId: app.id,
        packageId: plan?.package_id ?? NO_PLAN,
        until: plan?.end_date ?? null,
        at: now,
      });
    }
  });
  return apps.length;
}
