import type { Db } from '../db/connection';
import { demoUserWithout } from './demoUser';
import { purchasePackage } from '../domain/billing/subscriptions';
import type { Clock } from '../domain/time';
import type { RequestSigner } from '../signer/client/requestMac';

// The demo merchant's plan, so Packages, Purchase History, the wallet's subscription due and the
// dashboard's licence card show a real subscription on first start: the Starter package bought
// from the wallet 20 days ago (a real purchase: ledger debit and invoice), 10 days still to run.
// It follows the demo deposits (seedDemoPortal) that pay for it. Created once, never overwritten.

const DEMO_PACKAGE = 'pkg_starter';
const BOUGHT_DAYS_AGO = 20;

export async function seedDemoMoney(db: Db, clock: Clock, sign: RequestSigner): Promise<void> {
  const userId = await demoUserWithout(db, 'subscriptions');
  if (!userId) return;
  // Without the demo deposits the purchase is refused (insufficient balance): then no plan.
  await purchasePackage(db, {
    userId: userId,
    packageId: DEMO_PACKAGE,
    now: new Date(clock().getTime() - BOUGHT_DAYS_AGO * 86_400_000),
    sign,
  });
}
