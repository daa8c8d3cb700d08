import type { Db } from '../../db/connection';
import { whitelistHash } from '../client/requestMac';
import type { SignerStore } from './store';

// The upgrade: a deployment that ran before the signer kept its own store has its payout
// addresses and whitelist holds only in the shared database. At the store's first start the
// signer takes them from there, once (meta `imported_at` says it did): each payout address in
// effect at the database's hold end when that is still ahead, else at once; each app's whitelist
// with its hold end. From then on only registrations change the store.

const IMPORTED = 'imported_at';

export interface ImportResult {
  payouts: number;
  whitelists: number;
}

/** Imports the shared database's settings unless the store did already; null when it had. */
export async function importSharedSettings(
  store: SignerStore,
  db: Db,
  now: Date,
): Promise<ImportResult | null> {
  if (store.meta(IMPORTED) !== null) return null;
  const methods = await db
    .selectFrom('app_payment_methods')
    .select(['app_id', 'payment_method_id', 'collect_address', 'payout_hold_until'])
    .orderBy('created_at')
    .execute();
  const apps = await db
    .selectFrom('apps')
    .select(['id', 'whitelist_ip', 'whitelist_hold_until'])
    .execute();
  const at = now.getTime();
  /** A hold end of the database, kept only while it is still ahead. */
  const ahead = (until: string | null) =>
    until !== null && Date.parse(until) > at ? Date.parse(until) : null;
  store.transaction(() => {
    for (const m of methods) {
      store.importPayout(
        { appId: m.app_id, paymentMethodId: m.payment_method_id, address: m.collect_address },
        at,
        ahead(m.payout_hold_until) ?? at,
      );
    }
    for (const app of apps) {
      store.importWhitelist(
        { appId: app.id, hash: whitelistHash(app.whitelist_ip) },
        at,
        ahead(app.whitelist_hold_until),
      );
    }
    store.setMeta(IMPORTED, now.toISOString());
  });
  return { payouts: methods.length, whitelists: apps.length };
}
