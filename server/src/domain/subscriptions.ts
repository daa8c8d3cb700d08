import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { newId } from './ids';
import { balanceMicro, postDebitIfCovered } from './ledger';
import { lockForTransaction } from '../db/locks';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The subscription in force: not replaced by an upgrade/downgrade and not past its end_date.
 * A canceled one (status 2) stays in force until end_date: access continues after cancelling.
 */
export async function currentSubscription(db: Executor, userId: string, nowIso: string) {
  return db
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
    .where('subscriptions.end_date', '>', nowIso)
    .orderBy('subscriptions.created_at', 'desc')
    .executeTakeFirst();
}

/** Without a subscription in force a merchant may have one app (issue: package limits). */
export const APPS_WITHOUT_SUBSCRIPTION = 1;

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

export type PurchaseOutcome =
  | { ok: true; kind: PurchaseKind; subscriptionId: string; invoiceId: string }
  | { ok: false; reason: 'unknown_package' | 'already_active' | 'remarks_required' }
  | {
      ok: false;
      reason: 'insufficient_balance';
      packageName: string;
      priceMicro: bigint;
      balanceMicro: bigint;
    };

/**
 * Buys a package from the wallet balance. Everything happens in one database transaction: the
 * debit is a conditional insert (postDebitIfCovered), so a short balance changes nothing and
 * concurrent purchases cannot overspend. A plan in force (active or canceled) is replaced from
 * now on; compared with an active one by price, a cheaper plan is a downgrade and needs remarks.
 */
export async function purchasePackage(
  db: Kysely<Database>,
  input: { userId: string; packageId: string; remarks?: string; now: Date },
): Promise<PurchaseOutcome> {
  const nowIso = input.now.toISOString();
  const remarks = input.remarks?.trim() || null;
  return db.transaction().execute(async (trx): Promise<PurchaseOutcome> => {
    await lockForTransaction(trx, `money:${input.userId}`);
    const pkg = await trx
      .selectFrom('packages')
      .selectAll()
      .where('id', '=', input.packageId)
      .where('is_active', '=', 1)
      .executeTakeFirst();
    if (!pkg) return { ok: false, reason: 'unknown_package' };
    const current = await currentSubscription(trx, input.userId, nowIso);
    let kind: PurchaseKind = 'new';
    if (current?.status === 1) {
      if (current.package_id === pkg.id) return { ok: false, reason: 'already_active' };
      kind =
        pkg.price_micro > current.price_micro
          ? 'upgrade'
          : pkg.price_micro < current.price_micro
            ? 'downgrade'
            : 'switch';
      if (kind === 'downgrade' && !remarks) return { ok: false, reason: 'remarks_required' };
    }
    const invoiceId = await nextInvoiceId(trx, input.now);
    if (pkg.price_micro > 0) {
      const paid = await postDebitIfCovered(trx, {
        userId: input.userId,
        tnx: invoiceId,
        amountMicro: BigInt(pkg.price_micro),
        source: 'subscription',
        note: `${pkg.name} plan, ${pkg.duration_days} days`,
        createdAt: nowIso,
      });
      if (!paid) {
        return {
          ok: false,
          reason: 'insufficient_balance',
          packageName: pkg.name,
          priceMicro: BigInt(pkg.price_micro),
          balanceMicro: await balanceMicro(trx, input.userId),
        };
      }
    }
    if (current) {
      await trx
        .updateTable('subscriptions')
        .set({ replaced_at: nowIso })
        .where('id', '=', current.id)
        .execute();
    }
    const subscriptionId = newId('sub');
    await trx
      .insertInto('subscriptions')
      .values({
        id: subscriptionId,
        user_id: input.userId,
        package_id: pkg.id,
        price_micro: pkg.price_micro,
        status: 1,
        invoice_id: invoiceId,
        remarks,
        start_date: nowIso,
        end_date: new Date(input.now.getTime() + pkg.duration_days * DAY_MS).toISOString(),
        canceled_at: null,
        replaced_at: null,
        created_at: nowIso,
      })
      .execute();
    return { ok: true, kind, subscriptionId, invoiceId };
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
