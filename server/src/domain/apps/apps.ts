import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { AppsTable, Database } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { recordAccountEvent, type ClientInfo } from '../account/events';
import { fieldInvalid, InvalidError, NotFoundError } from '../errors';
import { newId } from '../ids';
import { currentSubscription } from '../billing/subscriptions';
import { APP_MESSAGES, APPS_WITHOUT_SUBSCRIPTION } from '../../../../src/shared/apps';
import { INVOICE_MESSAGES, isLateWindow, normalTolerance } from '../../../../src/shared/invoices';
import type { RequestSigner } from '../../signer/client/requestMac';
import { NO_PLAN } from '../../signer/client/requestMac';
import { queuePlanRegistration, queueWhitelistRegistration } from './signerRegistration';
import { normaliseWhitelist } from './whitelist';
import { codedMessages } from '../messageCodes';

type Executor = Kysely<Database> | Transaction<Database>;
type Schemas = components['schemas'];
type App = Schemas['App'];

const APP_MESSAGES_CODED = codedMessages('app', {
  appNameRequired: APP_MESSAGES.appNameRequired,
  projectUrlRequired: APP_MESSAGES.projectUrlRequired,
  invalidUrl: APP_MESSAGES.invalidUrl,
  packageAppLimitOne: 'Your package allows 1 app. Upgrade your subscription to create more.',
  packageAppLimit: (limit: string) =>
    `Your package allows ${limit} apps. Upgrade your subscription to create more.`,
  freeAppLimitOne:
    'Without a subscription you can create 1 app. Subscribe to a package to create more.',
  freeAppLimit: (limit: string) =>
    `Without a subscription you can create ${limit} apps. Subscribe to a package to create more.`,
  readyNeedsMethod: 'Add a payment method before marking the app Ready.',
} as const);

/** Merchant Setting's invoice settings (src/shared/invoices.ts, openapi.yaml's x-messages). */
const INVOICE_SETTINGS_MSG = codedMessages('invoiceSettings', {
  toleranceInvalid: INVOICE_MESSAGES.toleranceInvalid,
  lateWindowInvalid: INVOICE_MESSAGES.lateWindowInvalid,
} as const);

const APP_MSG = {
  ...APP_MESSAGES_CODED,
  appLimit: (limit: number, subscribed: boolean) => {
    const m = APP_MESSAGES_CODED;
    if (subscribed) return limit === 1 ? m.packageAppLimitOne : m.packageAppLimit(String(limit));
    return limit === 1 ? m.freeAppLimitOne : m.freeAppLimit(String(limit));
  },
} as const;

/** True for an absolute http(s) URL with a host (the server-side form of 'Please Enter Valid URl'). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

type AppFieldsInput = Schemas['CreateAppRequest'];

export interface AppFields {
  app_name: string;
  project_url: string;
  whitelist_ip: string | null;
  callback_url: string | null;
  info: string | null;
}

/** Server-side checks of create-app / update-app: field -> messages, or the cleaned fields. */
export function checkAppFields(
  input: AppFieldsInput,
): { ok: true; value: AppFields } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const appName = input.app_name.trim();
  const projectUrl = input.project_url.trim();
  const callbackUrl = (input.callback_url ?? '').trim();
  const info = (input.info ?? '').trim();
  if (appName === '') errors.app_name = [APP_MSG.appNameRequired];
  if (projectUrl === '') errors.project_url = [APP_MSG.projectUrlRequired];
  else if (!isHttpUrl(projectUrl)) errors.project_url = [APP_MSG.invalidUrl];
  if (callbackUrl !== '' && !isHttpUrl(callbackUrl)) errors.callback_url = [APP_MSG.invalidUrl];
  const whitelist = normaliseWhitelist(input.whitelist_ip);
  if (!whitelist.ok) errors.whitelist_ip = [whitelist.message];
  if (Object.keys(errors).length > 0 || !whitelist.ok) return { ok: false, errors };
  return {
    ok: true,
    value: {
      app_name: appName,
      project_url: projectUrl,
      whitelist_ip: whitelist.value,
      callback_url: callbackUrl === '' ? null : callbackUrl,
      info: info === '' ? null : info,
    },
  };
}

/**
 * An app as the API shows it. Ready (1) needs a payment method in use; the stored status is
 * the merchant's own switch (Merchant Setting), so an app with methods can still be set Not Ready.
 */
export function toAppView(
  row: Selectable<AppsTable>,
  methodCount: number,
  nowIso: string,
  testAppId: string | null = null,
): App {
  return {
    id: row.id,
    app_name: row.app_name,
    info: row.info,
    project_url: row.project_url,
    whitelist_ip: row.whitelist_ip,
    ...(isHeld(row.whitelist_hold_until, nowIso)
      ? { whitelist_hold_until: row.whitelist_hold_until }
      : {}),
    callback_url: row.callback_url,
    created_at: row.created_at,
    status: methodCount > 0 && row.status === 1 ? 1 : 0,
    invoice_underpayment_tolerance: row.invoice_underpayment_tolerance,
    invoice_late_window_minutes: row.invoice_late_window_minutes,
    logo: row.logo,
    livemode: row.livemode === 1,
    ...(row.live_app_id === null ? {} : { live_app_id: row.live_app_id }),
    ...(testAppId === null ? {} : { test_app_id: testAppId }),
  };
}

/** The app of `row` as the API shows it, its methods counted. */
export async function appViewOf(
  db: Executor,
  row: Selectable<AppsTable>,
  nowIso: string,
): Promise<App> {
  return toAppView(row, await countAppMethods(db, row.id), nowIso);
}

/** The user's apps, oldest first (the sidebar list); on every get-apps, so prepared and kept. */
const appsOf = prepared(
  { userId: '' },
  (db, { userId }) =>
    db
      .selectFrom('apps')
      .selectAll('apps')
      .select((eb) =>
        eb
          .selectFrom('app_payment_methods')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('app_payment_methods.app_id', '=', 'apps.id')
          .as('method_count'),
      )
      .select((eb) =>
        eb
          .selectFrom('apps as test')
          .select('test.id')
          .whereRef('test.live_app_id', '=', 'apps.id')
          .as('test_app_id'),
      )
      .where('apps.user_id', '=', userId)
      // Test apps show through their live app (openTestMode), never as apps of their own.
      .where('apps.livemode', '=', 1)
      .orderBy('apps.created_at', 'asc')
      .orderBy('apps.id', 'asc'),
  { ownerOf: (p) => p.userId },
);

export async function listApps(db: Executor, userId: string, nowIso: string): Promise<App[]> {
  const rows = await appsOf(db, { userId });
  return rows.map(({ method_count, test_app_id, ...row }) =>
    toAppView(row, Number(method_count ?? 0), nowIso, test_app_id ?? null),
  );
}

/**
 * The user's app `appId`. Every app-scoped operation looks the app (or the key, method or
 * transaction through its app) up with the user's id: another account's app is as unknown as a
 * missing one, and nothing of it changes.
 */
export async function ownedApp(db: Executor, userId: string, appId: string) {
  const [app] = await appOfUser(db, { userId, appId });
  if (!app) throw new NotFoundError();
  return app;
}

// Every app-scoped operation starts here: prepared.
const appOfUser = prepared(
  { userId: '', appId: '' },
  (db, p) =>
    db.selectFrom('apps').selectAll().where('id', '=', p.appId).where('user_id', '=', p.userId),
  { ownerOf: (p) => p.userId },
);

async function countAppMethods(db: Executor, appId: string): Promise<number> {
  const row = await db
    .selectFrom('app_payment_methods')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The app limit: a user may have as many apps as the current package's app_count, or the
 * no-subscription allowance without one.
 */
async function refuseOverAppLimit(db: Executor, userId: string, nowIso: string): Promise<void> {
  const sub = await currentSubscription(db, userId, nowIso);
  const limit = sub ? sub.app_count : APPS_WITHOUT_SUBSCRIPTION;
  const { n } = await db
    .selectFrom('apps')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('livemode', '=', 1)
    .executeTakeFirstOrThrow();
  if (Number(n) >= limit) throw new InvalidError(APP_MSG.appLimit(limit, sub !== undefined));
}

function checkedAppFields(input: AppFieldsInput): AppFields {
  const checked = checkAppFields(input);
  if (!checked.ok) throw new InvalidError(undefined, checked.errors);
  return checked.value;
}

/**
 * Creates an app within the user's app limit, its whitelist (its first) and the user's plan
 * registered with the signer; returns it and the user's apps after.
 */
export async function createApp(
  db: Db,
  userId: string,
  input: AppFieldsInput,
  nowIso: string,
  sign: RequestSigner,
  client?: ClientInfo,
): Promise<{ app: App; apps: App[] }> {
  const fields = checkedAppFields(input);
  const id = newId('app');
  await db.transaction().execute(async (trx) => {
    // Count and insert in one transaction so two quick submits cannot both pass the limit.
    await refuseOverAppLimit(trx, userId, nowIso);
    // status is the merchant's Ready switch; the app shows Ready once a method is in use too.
    await trx
      .insertInto('apps')
      .values({ id, user_id: userId, ...fields, status: 1, created_at: nowIso, updated_at: nowIso })
      .execute();
    const details = { app_name: fields.app_name };
    await recordAccountEvent(trx, userId, 'app_created', details, { client, at: nowIso });
    await queueWhitelistRegistration(trx, sign, {
      appId: id,
      whitelist: fields.whitelist_ip,
      at: new Date(nowIso),
    });
    const plan = await currentSubscription(trx, userId, nowIso);
    await queuePlanRegistration(trx, sign, {
      appId: id,
      packageId: plan?.package_id ?? NO_PLAN,
      until: plan?.end_date ?? null,
      at: new Date(nowIso),
    });
  });
  const apps = await listApps(db, userId, nowIso);
  const app = apps.find((a) => a.id === id);
  if (!app) throw new Error(`App ${id} was created but is not listed`);
  return { app, apps };
}

/**
 * When a setting that steers money (a payout address, the IP whitelist) changes after it was
 * first set, the signer holds sweeps to it and the app's withdrawals until this time; null when
 * holds are off (SETTINGS_HOLD_HOURS=0).
 */
export function holdEnd(nowIso: string, holdHours: number): string | null {
  return holdHours > 0 ? new Date(Date.parse(nowIso) + holdHours * 3_600_000).toISOString() : null;
}

/** A hold end still ahead of the server's clock (the views show only those, as the signer). */
export function isHeld(until: string | null, nowIso: string): until is string {
  return until !== null && Date.parse(until) > Date.parse(nowIso);
}

/**
 * When the hold on an app's withdrawals ends: the latest end still ahead of `now` among its IP
 * whitelist's hold and the holds of its payout addresses (any method's), or null. The signer
 * refuses to sign a withdrawal until then, so the gateway refuses to accept one.
 */
export async function withdrawalHoldEnd(
  db: Executor,
  appId: string,
  now: Date,
): Promise<string | null> {
  const row = await db
    .selectFrom('apps')
    .select((eb) => [
      'apps.whitelist_hold_until',
      eb
        .selectFrom('app_payment_methods')
        .select((e) => e.fn.max('app_payment_methods.payout_hold_until').as('until'))
        .whereRef('app_payment_methods.app_id', '=', 'apps.id')
        .as('payout_hold_until'),
    ])
    .where('apps.id', '=', appId)
    .executeTakeFirst();
  const nowIso = now.toISOString();
  const holds = [row?.whitelist_hold_until ?? null, row?.payout_hold_until ?? null].filter(
    (until): until is string => isHeld(until, nowIso),
  );
  return holds.sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1) ?? null;
}

/**
 * The invoice settings of an update (src/shared/invoices.ts), each kept as it is when absent;
 * both faults at once, each under its field.
 */
function checkedInvoiceSettings(
  tolerance: string | undefined,
  lateWindow: number | undefined,
): { invoice_underpayment_tolerance?: string; invoice_late_window_minutes?: number } {
  const normal = tolerance === undefined ? undefined : normalTolerance(tolerance);
  const errors: Record<string, string[]> = {};
  if (normal === null)
    errors.invoice_underpayment_tolerance = [INVOICE_SETTINGS_MSG.toleranceInvalid];
  if (lateWindow !== undefined && !isLateWindow(lateWindow)) {
    errors.invoice_late_window_minutes = [INVOICE_SETTINGS_MSG.lateWindowInvalid];
  }
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);
  return {
    ...(normal ? { invoice_underpayment_tolerance: normal } : {}),
    ...(lateWindow === undefined ? {} : { invoice_late_window_minutes: lateWindow }),
  };
}

/**
 * Changes an app's fields, Ready switch and invoice settings; Ready needs a payment method in
 * use. A changed whitelist is registered with the signer, which holds it by its own clock.
 */
export async function updateApp(
  db: Db,
  userId: string,
  input: Schemas['UpdateAppRequest'],
  nowIso: string,
  holdHours: number,
  sign: RequestSigner,
): Promise<{ app: App; whitelistHeldUntil: string | null }> {
  const {
    app_id: appId,
    status,
    invoice_underpayment_tolerance: toleranceText,
    invoice_late_window_minutes: lateWindow,
    ...rest
  } = input;
  const app = await ownedApp(db, userId, appId);
  const fields = checkedAppFields(rest);
  const invoiceSettings = checkedInvoiceSettings(toleranceText, lateWindow);
  const methods = await countAppMethods(db, app.id);
  if (status === 1 && methods === 0) throw fieldInvalid('status', APP_MSG.readyNeedsMethod);
  // The first whitelist is not held; a change of one already set is.
  const wasSet = (app.whitelist_ip ?? '') !== '';
  const changed = wasSet && (fields.whitelist_ip ?? '') !== app.whitelist_ip;
  const heldUntil = changed ? holdEnd(nowIso, holdHours) : null;
  const updated = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('apps')
      .set({
        ...fields,
        ...invoiceSettings,
        status,
        updated_at: nowIso,
        ...(heldUntil ? { whitelist_hold_until: heldUntil } : {}),
      })
      .where('id', '=', app.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if ((fields.whitelist_ip ?? '') !== (app.whitelist_ip ?? '')) {
      await queueWhitelistRegistration(trx, sign, {
        appId: app.id,
        whitelist: fields.whitelist_ip,
        at: new Date(nowIso),
      });
    }
    return row;
  });
  return { app: toAppView(updated, methods, nowIso), whitelistHeldUntil: heldUntil };
}
