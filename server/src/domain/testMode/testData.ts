import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { Database } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { ownedApp } from '../apps/apps';
import { ConflictError, ForbiddenError } from '../errors';
import { DELIVER_KIND } from '../webhooks/events';
import { codedMessages } from '../messageCodes';

// Delete test data, as Stripe's: a test app's objects go, what configures it stays (its keys,
// Webhook URl and secret, whitelist, payment methods and operational wallets). One transaction,
// so a failure leaves everything as it was.

export const TEST_DATA_MSG = codedMessages('testData', {
  liveApp: 'Only test data can be deleted: this app is live.',
  moving:
    'A test withdrawal or refund is on its way: delete test data once it has completed, failed or been cancelled.',
  deleted: 'Test data deleted',
} as const);

/** Sends the signer may still be making: Queued to Awaiting Blockchain Confirmation. */
const MOVING = [0, 2, 3, 4, 5] as const;

/** How many of each were deleted, as the contract answers them. */
export type DeletedTestData = components['schemas']['DeleteTestDataResponse']['data'];

type Trx = Transaction<Database>;

const count = (result: { numDeletedRows: bigint }[]) =>
  result.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);

/**
 * Deletes test app `appId`'s objects (the user's; a live app is a ForbiddenError), under the lock
 * of the merchant's money out. A deleted address is never handed out again: indexes come from
 * counters that deleting rows does not lower (derivationCounters.ts). Refused (ConflictError)
 * while a send is on its way.
 */
export async function deleteTestData(
  db: Db,
  userId: string,
  appId: string,
): Promise<DeletedTestData> {
  const app = await ownedApp(db, userId, appId);
  if (app.livemode !== 0) throw new ForbiddenError(TEST_DATA_MSG.liveApp);
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `withdrawals:${userId}`);
    const moving = await trx
      .selectFrom('send_transactions')
      .select('id')
      .where('app_id', '=', app.id)
      .where('status', 'in', MOVING)
      .executeTakeFirst();
    if (moving) throw new ConflictError(TEST_DATA_MSG.moving);
    return deleteObjects(trx, app.id);
  });
}

async function deleteObjects(trx: Trx, appId: string): Promise<DeletedTestData> {
  // Webhooks: the queued wake-ups of the app's deliveries, then the attempts, deliveries and events.
  await trx
    .deleteFrom('jobs')
    .where('kind', '=', DELIVER_KIND)
    .where('key', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select(sql<string>`id || ':' || wake_seq`.as('key'))
        .where('app_id', '=', appId),
    )
    .execute();
  await trx
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) =>
      eb.selectFrom('webhook_deliveries').select('id').where('app_id', '=', appId),
    )
    .execute();
  await trx.deleteFrom('webhook_deliveries').where('app_id', '=', appId).execute();
  const webhookEvents = count(
    await trx.deleteFrom('webhook_events').where('app_id', '=', appId).execute(),
  );

  // Money out first (a refund's send names the refund), then what it refunded.
  const withdrawals = count(
    await trx.deleteFrom('send_transactions').where('app_id', '=', appId).execute(),
  );
  const refunds = count(await trx.deleteFrom('refunds').where('app_id', '=', appId).execute());
  await trx
    .deleteFrom('payment_link_visits')
    .where('payment_link_id', 'in', (eb) =>
      eb.selectFrom('payment_links').select('id').where('app_id', '=', appId),
    )
    .execute();
  await trx.deleteFrom('invoice_payments').where('app_id', '=', appId).execute();
  await trx
    .deleteFrom('invoice_payment_options')
    .where('invoice_id', 'in', (eb) =>
      eb.selectFrom('invoices').select('id').where('app_id', '=', appId),
    )
    .execute();
  const invoices = count(await trx.deleteFrom('invoices').where('app_id', '=', appId).execute());
  const paymentLinks = count(
    await trx.deleteFrom('payment_links').where('app_id', '=', appId).execute(),
  );
  const deposits = count(
    await trx.deleteFrom('receive_transactions').where('app_id', '=', appId).execute(),
  );
  const accounts = count(
    await trx.deleteFrom('app_accounts').where('app_id', '=', appId).execute(),
  );
  const apiLogs = count(await trx.deleteFrom('api_logs').where('app_id', '=', appId).execute());
  // What the triggers left of the daily totals: rows of zeros.
  await trx.deleteFrom('app_daily_usage').where('app_id', '=', appId).execute();
  await trx
    .deleteFrom('idempotency_keys')
    .where(
      'scope',
      'in',
      ['withdrawal', 'invoice', 'refund', 'payment_link'].map((what) => `${what}:${appId}`),
    )
    .execute();
  return {
    accounts,
    invoices,
    deposits,
    withdrawals,
    refunds,
    payment_links: paymentLinks,
    webhook_events: webhookEvents,
    api_logs: apiLogs,
  };
}
