import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';

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
