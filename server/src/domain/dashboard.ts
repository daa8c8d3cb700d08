import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { components } from '../generated/portal.gen';
import { previousSignIn } from './accountEvents';
import { microToDecimal } from './money';
import { CREDITED_STATUSES, planTransactionCounts, startOfUtcDay } from './appUsage';
import { currentSubscription } from './subscriptions';

type Executor = Kysely<Database> | Transaction<Database>;

/** Recent Activity shows this many ledger entries. */
export const LATEST_ENTRIES = 10;

/** Months are counted in UTC, as days are (appUsage.ts). */
export function startOfUtcMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

export interface CountWindows {
  day: string;
  month: string;
}

/**
 * The gateway transactions of the user's apps, as the app tabs count them (appUsage.ts):
 * credited deposits by the time they were credited, completed withdrawals by creation, in
 * total, today and this month (the plan's count is appUsage.ts planTransactionCounts).
 */
function transactionCounts(
  db: Executor,
  table: 'receive_transactions' | 'send_transactions',
  userId: string,
  windows: CountWindows,
) {
  const at = table === 'receive_transactions' ? 'credited_at' : 'created_at';
  return db
    .selectFrom(table)
    .where('app_id', 'in', db.selectFrom('apps').select('id').where('user_id', '=', userId))
    .$if(table === 'receive_transactions', (q) =>
      q.where('receive_transactions.deposit_status', 'in', CREDITED_STATUSES),
    )
    .$if(table === 'send_transactions', (q) => q.where('send_transactions.status', '=', 1))
    .select((eb) => {
      const countSince = (from: string) =>
        eb.fn.sum<number>(eb.case().when(at, '>=', from).then(1).else(0).end());
      return [
        eb.fn.countAll<number>().as('total'),
        countSince(windows.day).as('daily'),
        countSince(windows.month).as('monthly'),
      ];
    });
}

function latestEntries(db: Executor, userId: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['tnx', 'amount_micro', 'type', 'source', 'note', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(LATEST_ENTRIES);
}

/** Every query the dashboard runs (exported so a test can hold each to its index). */
export function dashboardQueries(db: Executor, userId: string, windows: CountWindows) {
  return {
    receiveCounts: transactionCounts(db, 'receive_transactions', userId, windows),
    sendCounts: transactionCounts(db, 'send_transactions', userId, windows),
    latestEntries: latestEntries(db, userId),
  };
}

type Schemas = components['schemas'];

/** The dashboard of `userId` as the session `sessionId` sees it (its last login is the one before). */
export async function dashboardOf(
  db: Executor,
  userId: string,
  now: Date,
  sessionId: string | null = null,
): Promise<Schemas['DashboardData']> {
  const subscription = await currentSubscription(db, userId, now.toISOString());
  const queries = dashboardQueries(db, userId, {
    day: startOfUtcDay(now),
    month: startOfUtcMonth(now),
  });
  const [receive, send, latest, lastLogin, plan] = await Promise.all([
    queries.receiveCounts.executeTakeFirstOrThrow(),
    queries.sendCounts.executeTakeFirstOrThrow(),
    queries.latestEntries.execute(),
    previousSignIn(db, userId, sessionId, now),
    subscription ? planTransactionCounts(db, userId, { used: subscription.start_date }) : null,
  ]);
  const sum = (key: 'total' | 'daily' | 'monthly') =>
    Number(receive[key] ?? 0) + Number(send[key] ?? 0);
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
