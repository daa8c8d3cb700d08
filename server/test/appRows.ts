import type { Insertable } from 'kysely';
import type {
  AppsTable,
  InvoicesTable,
  ReceiveTransactionsTable,
  SendTransactionsTable,
} from '../src/db/schema';
import { newApiKey } from '../src/domain/apps/apiKeys';
import { addUser } from './accounts';
import type { TestApp } from './testApp';

// Rows of a merchant's apps written straight to the database, for tests that need data the API
// cannot make (deposits, withdrawals) or need much of it. Optional columns start blank.

type Row<T, Given extends keyof Insertable<T>> = Pick<Insertable<T>, Given> &
  Partial<Insertable<T>>;

type NewReceive = Row<
  ReceiveTransactionsTable,
  'id' | 'app_id' | 'unique_id' | 'amount_micro' | 'deposit_status' | 'created_at'
>;
type NewInvoice = Row<InvoicesTable, 'id' | 'app_id' | 'status' | 'created_at'>;
type NewSend = Row<
  SendTransactionsTable,
  'id' | 'app_id' | 'amount_micro' | 'to_address' | 'status' | 'created_at'
>;

/** An app named after its id, updated when created. */
export async function insertApp(
  t: TestApp,
  values: Row<AppsTable, 'id' | 'user_id' | 'created_at'>,
): Promise<void> {
  await t.db
    .insertInto('apps')
    .values({
      app_name: values.id,
      info: null,
      project_url: 'https://example.com',
      whitelist_ip: null,
      callback_url: null,
      updated_at: values.created_at,
      ...values,
    })
    .execute();
}

/** USDT (BEP20) in use by an app, with its payout address; switches on unless told otherwise. */
export async function insertAppMethod(
  t: TestApp,
  values: {
    id: string;
    app_id: string;
    payment_method_id?: string;
    deposit_status?: 0 | 1;
    withdraw_status?: 0 | 1;
  },
): Promise<void> {
  await t.db
    .insertInto('app_payment_methods')
    .values({
      payment_method_id: 'pm_usdt_bsc',
      collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      gas_address: null,
      gas_index: null,
      deposit_status: 1,
      withdraw_status: 1,
      created_at: t.clock().toISOString(),
      ...values,
    })
    .execute();
}

/** A live API key of an app with these abilities; returns the key's text, shown once. */
export async function insertApiKey(
  t: TestApp,
  values: { id: string; app_id: string; abilities: string[] },
): Promise<string> {
  const key = newApiKey();
  await t.db
    .insertInto('api_keys')
    .values({
      id: values.id,
      app_id: values.app_id,
      token_name: 'Server',
      token_hash: key.hash,
      token_prefix: key.prefix,
      abilities: JSON.stringify(values.abilities),
      created_at: t.clock().toISOString(),
    })
    .execute();
  return key.key;
}

/** A deposit to an app, in USDT (BEP20), not yet broadcast or collected. */
export async function insertReceive(t: TestApp, values: NewReceive): Promise<void> {
  await t.db
    .insertInto('receive_transactions')
    .values({
      payment_method_id: 'pm_usdt_bsc',
      thash: null,
      gas_transfer_txid: null,
      collect_txid: null,
      process_datetime: null,
      ...values,
    })
    .execute();
}

/** A withdrawal from an app, in USDT (BEP20), not yet broadcast. */
export async function insertSend(t: TestApp, values: NewSend): Promise<void> {
  await t.db
    .insertInto('send_transactions')
    .values({ payment_method_id: 'pm_usdt_bsc', thash: null, ...values })
    .execute();
}

/** Derivation indexes of the invoices written here: unique, far above those the API hands out. */
let invoiceIndex = 800_000;

/** An invoice of an app for 10 USD, expiring when made, with no payment. */
export async function insertInvoice(t: TestApp, values: NewInvoice): Promise<void> {
  await t.db
    .insertInto('invoices')
    .values({
      order_id: null,
      amount: '10',
      currency: 'USD',
      invalid_reason: null,
      mark_reason: null,
      description: null,
      buyer_email: null,
      metadata: null,
      redirect_url: null,
      checkout_url: `https://pay.test/${values.id}`,
      underpayment_tolerance: '0',
      late_window_minutes: 60,
      derivation_index: invoiceIndex++,
      expires_at: values.created_at,
      updated_at: values.created_at,
      settled_at: null,
      payment_link_id: null,
      ...values,
    })
    .execute();
}

/**
 * A package in force for `userId` (default Starter, from now for 30 days): the gateway opens
 * deposit accounts only within a plan (domain/apps/usage.ts).
 */
export async function insertSubscription(
  t: TestApp,
  userId: string,
  plan: { id?: string; packageId?: string; startDate?: string; endDate?: string } = {},
): Promise<void> {
  const start = plan.startDate ?? t.clock().toISOString();
  await t.db
    .insertInto('subscriptions')
    .values({
      id: plan.id ?? `sub_${userId}`,
      user_id: userId,
      package_id: plan.packageId ?? 'pkg_starter',
      price_micro: 0,
      paid_micro: 0,
      credit_micro: 0,
      replaced_kind: null,
      status: 1,
      invoice_id: `INV-${plan.id ?? userId}`,
      remarks: null,
      start_date: start,
      end_date: plan.endDate ?? new Date(Date.parse(start) + 30 * 86_400_000).toISOString(),
      canceled_at: null,
      replaced_at: null,
      created_at: start,
    })
    .execute();
}

/** The webhook event types written for a deposit or withdrawal, in the order they happened. */
export async function eventTypesOf(t: Pick<TestApp, 'db'>, resourceId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('webhook_events')
    .select('type')
    .where('resource_id', '=', resourceId)
    .orderBy('resource_seq')
    .execute();
  return rows.map((row) => row.type);
}

/**
 * A merchant (`merchant_<tag>`) with a plan in force since `planStart` (default now), an app
 * `app_<tag>` whitelisting the local test client, USDT (BEP20) in use (`apm_<tag>`) and a key
 * (`key_<tag>`) with these abilities.
 */
export async function insertMerchantApp(
  t: TestApp,
  tag: string,
  abilities: string[],
  planStart?: string,
): Promise<{ userId: string; appId: string; key: string }> {
  const userId = await addUser(t, `merchant_${tag}`);
  await insertSubscription(t, userId, planStart ? { startDate: planStart } : {});
  const appId = `app_${tag}`;
  await insertApp(t, {
    id: appId,
    user_id: userId,
    created_at: t.clock().toISOString(),
    whitelist_ip: '127.0.0.1',
  });
  await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
  const key = await insertApiKey(t, { id: `key_${tag}`, app_id: appId, abilities });
  return { userId, appId, key };
}
