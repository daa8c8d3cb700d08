import type { Kysely } from 'kysely';
import { addOwnerTriggers, appOwner, ownColumn, type OwnerOf } from './0240_owner_changes';

/** Reference data every user reads: a change voids every kept read (db/ownerChanges.ts). */
const everyone: OwnerOf[] = [{ columns: [], of: () => `'*'` }];

/** An app's rows: its user's, and the app's own (app-scoped reads are kept under the app). */
const ofApp: OwnerOf[] = [appOwner, ownColumn('app_id')];

/** A kept count belongs to its owner, an app or a user (the ledger's), and to the app's user. */
const ofCount: OwnerOf[] = [
  {
    columns: ['owner_id'],
    of: (r) => `(SELECT apps.user_id FROM apps WHERE apps.id = ${r}.owner_id)`,
  },
  ownColumn('owner_id'),
];

/**
 * Owner triggers (migration 0240) for the tables of the reads kept per process: get-apps, the
 * dashboard and the plan's counts, app details, and the gateway's key lookup.
 */
export const KEPT_READ_OWNERS: [string, OwnerOf[]][] = [
  ['apps', [ownColumn('user_id'), ownColumn('id')]],
  ['app_payment_methods', ofApp],
  ['subscriptions', [ownColumn('user_id')]],
  ['packages', everyone],
  ['payment_methods', everyone],
  ['ledger_entries', [ownColumn('user_id')]],
  ['account_events', [ownColumn('user_id')]],
  ['app_daily_usage', ofApp],
  ['receive_transactions', ofApp],
  ['send_transactions', ofApp],
  ['app_accounts', ofApp],
  ['api_logs', ofApp],
  ['api_keys', ofApp],
  ['webhook_deliveries', ofApp],
  ['webhook_events', ofApp],
  ['row_counts', ofCount],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await addOwnerTriggers(db, KEPT_READ_OWNERS);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
