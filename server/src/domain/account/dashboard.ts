import type { Kysely, Transaction } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { previousSignIn, type SessionRef } from './events';
import { microToDecimal } from '../money';
import { planTransactionCounts, startOfUtcDay } from '../apps/plan';
import { currentSubscription } from '../billing/subscriptions';

type Executor = Kysely<Database> | Transaction<Database>;

/** Recent Activity shows this many ledger entries. */
export const LATEST_ENTRIES = 10;

/** Months are counted in UTC, as days are (appUsage.ts). */
export function startOfUtcMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * The gateway transactions of the user's apps, as the app tabs count them (appUsage.ts): credited
 * deposits and completed withdrawals in total, today and this month, from the daily totals (the
 * windows start at 00:00 UTC, so whole days answer them exactly; the plan's count is appUsage.ts
 * planTransactionCounts). The dashboard's queries are prepared and kept per process until the
 * user's rows change (db/ownerChanges.ts): it is the most read screen.
 */
const transactionCounts = prepared(
  { userId: '', day: '', month: '' },
  (db, p) =>
    db
      .selectFrom('app_daily_usage')
      .where(
        'app_id',
        'in',
        db
          .selectFrom('apps')
          .select('id')
          .where('user_id', '=', p.userId)
          // Test apps' transactions are not the merchant's business figures.
          .where('livemode', '=', 1),
      )
      .select((eb) => {
        const both = eb(eb.ref('deposit_count'), '+', eb.ref('withdraw_count'));
        const countSince = (day: string) =>
          eb.fn.sum<number>(eb.case().when('day', '>=', day).then(both).else(0).end());
        return [
          eb.fn.sum<number>(both).as('total'),
          countSince(p.day).as('daily'),
          countSince(p.month).as('monthly'),
        ];
      }),
  { ownerOf: (p) => p.userId },
);

const latestEntries = prepared(
  { userId: '' },
  (db, { userId }) =>
    db
      .selectFrom('ledger_entries')
      .select(['tnx', 'amount_micro', 'type', 'source', 'note', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(LATEST_ENTRIES),
  { ownerOf: (p) => p.userId },
);

type Schemas = components['schemas'];

/** The dashboard of `userId` as `session` sees it (its last login is the one before). */
export async function dashboardOf(
  db: Executor,
  userId: string,
  now: Date,
  session: SessionRef | null = null,
): Promise<Schemas['DashboardData']> {
  const windows = { day: startOfUtcDay(now), month: startOfUtcMonth(now) };
  // Together: on PostgreSQL each waits for its own round trip, not for the others'.
  const [subscription, [counts], latest, lastLogin] = await Promise.all([
    currentSubscription(db, userId, now.toISOString()),
    transactionCounts(db, {
      userId,
      day: windows.day.slice(0, 10),
      month: windows.month.slice(0, 10),
    }),
    latestEntries(db, { userId }),
    previousSignIn(db, userId, session, now),
  ]);
  const plan = subscription
    ? await planTransactionCounts(db, userId, { used: subscription.start_date })
    : null;
  const sum = (key: 'total' | 'daily' | 'monthly') => Number(counts?.[key] ?? 0);
  return {
    // The sign-in before this session's own, with where it came from.
    last_login_at: lastLogin?.at ?? null,
    last_login_ip: lastLogin?.ip ?? null,
    last_login_device: lastLogin?.device ?? null,
    subscription: subscription
      ? {
          expiry: subscription.end_date,
          // Credited deposits and withdrawals not cancelled, as the plan counts them
          // (appUsage.ts refuseOverPlan).
          transaction_used: plan?.used ?? 0,
          transaction_limit: subscription.tnx_limit,
        }
      : null,
    daily_transaction: sum('daily'),
    monthly_transaction: sum('monthly'),
    total_transaction: sum('total'),
    latest_transacctions: latest.map((entry): Schemas['Transaction'] => ({
      tnx: entry.tnx,
      amount: microToDecimal(BigInt(entry.amount_micro)),
      type: entry.type,
      source: entry.source,
      note: entry.note,
      created_at: entry.created_at,
    })),
  };
}
