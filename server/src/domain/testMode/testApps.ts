import type { Db } from '../../db/connection';
import type { components } from '../../generated/portal.gen';
import { NO_PLAN, type RequestSigner } from '../../signer/client/requestMac';
import { currentSubscription } from '../billing/subscriptions';
import { testMethodId } from '../chain/paymentMethods';
import { newId } from '../ids';
import { appViewOf, ownedApp } from '../apps/apps';
import {
  queuePayoutRegistration,
  queuePlanRegistration,
  queueWhitelistRegistration,
} from '../apps/signerRegistration';

// An app's test mode is a test app of its own (apps.live_app_id names the live one), so every
// query scoped to an app keeps the modes apart by construction: a test key finds only test
// objects, a live key never sees them, and a test object's id is another app's to a live key.

type App = components['schemas']['App'];

/**
 * The test app of the user's app `appId` (itself when it is one), made on first use: the live
 * app's name and invoice settings, its payment methods on their test networks paying out to the
 * same addresses, no webhook URL and no whitelist yet, each registered with the signer as any
 * app's are. Two first calls at once make one test app (the unique live_app_id).
 */
export async function openTestMode(
  db: Db,
  userId: string,
  appId: string,
  nowIso: string,
  sign: RequestSigner,
): Promise<App> {
  const app = await ownedApp(db, userId, appId);
  if (app.livemode === 0) return appViewOf(db, app, nowIso);
  const found = await testAppRow(db, app.id);
  if (found) return appViewOf(db, found, nowIso);
  const id = newId('app');
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('apps')
      .values({
        id,
        user_id: userId,
        app_name: app.app_name,
        info: app.info,
        project_url: app.project_url,
        whitelist_ip: null,
        callback_url: null,
        status: 1,
        created_at: nowIso,
        updated_at: nowIso,
        invoice_underpayment_tolerance: app.invoice_underpayment_tolerance,
        invoice_late_window_minutes: app.invoice_late_window_minutes,
        livemode: 0,
        live_app_id: app.id,
      })
      .onConflict((oc) => oc.column('live_app_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
    const at = new Date(nowIso);
    const methods = await trx
      .selectFrom('app_payment_methods')
      .select(['payment_method_id', 'collect_address', 'deposit_status', 'withdraw_status'])
      .where('app_id', '=', app.id)
      .execute();
    for (const method of methods) {
      const paymentMethodId = testMethodId(method.payment_method_id);
      await trx
        .insertInto('app_payment_methods')
        .values({
          id: newId('upm'),
          app_id: id,
          payment_method_id: paymentMethodId,
          collect_address: method.collect_address,
          gas_address: null,
          gas_index: null,
          deposit_status: method.deposit_status,
          withdraw_status: method.withdraw_status,
          created_at: nowIso,
        })
        .execute();
      await queuePayoutRegistration(trx, sign, {
        appId: id,
        paymentMethodId,
        address: method.collect_address,
        at,
      });
    }
    await queueWhitelistRegistration(trx, sign, { appId: id, whitelist: null, at });
    const plan = await currentSubscription(trx, userId, nowIso);
    await queuePlanRegistration(trx, sign, {
      appId: id,
      packageId: plan?.package_id ?? NO_PLAN,
      until: plan?.end_date ?? null,
      at,
    });
  });
  const made = await testAppRow(db, app.id);
  if (!made) throw new Error(`The test app of ${app.id} was made but is not found`);
  return appViewOf(db, made, nowIso);
}

function testAppRow(db: Db, liveAppId: string) {
  return db.selectFrom('apps').selectAll().where('live_app_id', '=', liveAppId).executeTakeFirst();
}
