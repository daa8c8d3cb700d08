import { isIP } from 'node:net';
import type { Compilable, Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../db/connection';
import { prepared } from '../db/prepared';
import { EVERY_OWNER } from '../db/ownerChanges';
import type { AppsTable, Database } from '../db/schema';
import type { components } from '../generated/portal.gen';
import { recordAccountEvent, type ClientInfo } from './accountEvents';
import { checkPayoutAddress } from './addresses';
import { ConflictError, fieldInvalid, InvalidError, NotFoundError } from './errors';
import { ChainNotServedError, type GasBalanceReader } from './chain/balances';
import { newId } from './ids';
import { pageEnvelope, type Page } from '../../../src/shared/paging';
import { microToDecimal } from './money';
import { currentSubscription } from './subscriptions';
import { APP_MESSAGES, APPS_WITHOUT_SUBSCRIPTION } from '../../../src/shared/apps';
import { testMethodsByChain, type LocalChains } from './testDeposits';
import { dailyLogs, methodTotals, type FeeLeg } from './appUsage';
import { rowCounts } from './maintainedCounts';
import { deliveryPage, ipnLogView } from './webhooks/portal';

type Executor = Kysely<Database> | Transaction<Database>;
type Schemas = components['schemas'];
type App = Schemas['App'];

const APP_MSG = {
  appNameRequired: APP_MESSAGES.appNameRequired,
  projectUrlRequired: APP_MESSAGES.projectUrlRequired,
  invalidUrl: APP_MESSAGES.invalidUrl,
  invalidIp: (entry: string) => `'${entry}' is not a valid IP address or CIDR range.`,
  tooManyIps: `The IP whitelist may hold at most 100 entries.`,
  appLimit: (limit: number, subscribed: boolean) =>
    subscribed
      ? `Your package allows ${limit} app${limit === 1 ? '' : 's'}. Upgrade your subscription to create more.`
      : `Without a subscription you can create ${limit} app${limit === 1 ? '' : 's'}. Subscribe to a package to create more.`,
  readyNeedsMethod: 'Add a payment method before marking the app Ready.',
} as const;

const MAX_WHITELIST_ENTRIES = 100;

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

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigIntToIpv4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => ((n >> shift) & 255n).toString()).join('.');
}

function expandIpv6(ip: string): bigint {
  // The WHATWG URL parser canonicalises IPv6 (including embedded IPv4) into hex groups.
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function bigIntToIpv6(n: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i -= 1) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** One whitelist entry in canonical form (CIDR host bits cleared), or null when invalid. */
export function normaliseIpEntry(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined || address.includes('%')) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  const value = version === 4 ? ipv4ToBigInt(address) : expandIpv6(address);
  const render = version === 4 ? bigIntToIpv4 : bigIntToIpv6;
  if (prefix === undefined) return render(value);
  if (!/^\d{1,3}$/.test(prefix)) return null;
  const length = Number(prefix);
  if (length > bits) return null;
  const hostBits = BigInt(bits - length);
  const network = (value >> hostBits) << hostBits;
  return `${render(network)}/${length}`;
}

/**
 * The whitelist as entered (commas, spaces or newlines between entries) -> the stored form:
 * canonical entries, duplicates dropped, one per line; null for an empty list (any address).
 */
export function normaliseWhitelist(
  raw: string | undefined,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const entries = (raw ?? '').split(/[\s,;]+/).filter((e) => e !== '');
  if (entries.length === 0) return { ok: true, value: null };
  if (entries.length > MAX_WHITELIST_ENTRIES) return { ok: false, message: APP_MSG.tooManyIps };
  const out: string[] = [];
  for (const entry of entries) {
    const normal = normaliseIpEntry(entry);
    if (normal === null) return { ok: false, message: APP_MSG.invalidIp(entry) };
    if (!out.includes(normal)) out.push(normal);
  }
  return { ok: true, value: out.join('\n') };
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
function toAppView(row: Selectable<AppsTable>, methodCount: number, nowIso: string): App {
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
  };
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
      .where('apps.user_id', '=', userId)
      .orderBy('apps.created_at', 'asc')
      .orderBy('apps.id', 'asc'),
  { ownerOf: (p) => p.userId },
);

export async function listApps(db: Executor, userId: string, nowIso: string): Promise<App[]> {
  const rows = await appsOf(db, { userId });
  return rows.map(({ method_count, ...row }) => toAppView(row, Number(method_count ?? 0), nowIso));
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
    .executeTakeFirstOrThrow();
  if (Number(n) >= limit) throw new InvalidError(APP_MSG.appLimit(limit, sub !== undefined));
}

function checkedAppFields(input: AppFieldsInput): AppFields {
  const checked = checkAppFields(input);
  if (!checked.ok) throw new InvalidError(undefined, checked.errors);
  return checked.value;
}

/** Creates an app within the user's app limit; returns it and the user's apps after. */
export async function createApp(
  db: Db,
  userId: string,
  input: AppFieldsInput,
  nowIso: string,
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
  });
  const apps = await listApps(db, userId, nowIso);
  const app = apps.find((a) => a.id === id);
  if (!app) throw new Error(`App ${id} was created but is not listed`);
  return { app, apps };
}

/** Changes an app's fields and Ready switch; Ready needs a payment method in use. */
/**
 * When a setting that steers money (a payout address, the IP whitelist) changes after it was
 * first set, the signer holds sweeps to it and the app's withdrawals until this time; null when
 * holds are off (SETTINGS_HOLD_HOURS=0).
 */
export function holdEnd(nowIso: string, holdHours: number): string | null {
  return holdHours > 0 ? new Date(Date.parse(nowIso) + holdHours * 3_600_000).toISOString() : null;
}

/** A hold end still ahead of the server's clock (the views show only those, as the signer). */
function isHeld(until: string | null, nowIso: string): until is string {
  return until !== null && Date.parse(until) > Date.parse(nowIso);
}

export async function updateApp(
  db: Db,
  userId: string,
  input: Schemas['UpdateAppRequest'],
  nowIso: string,
  holdHours: number,
): Promise<{ app: App; whitelistHeldUntil: string | null }> {
  const { app_id: appId, status, ...rest } = input;
  const app = await ownedApp(db, userId, appId);
  const fields = checkedAppFields(rest);
  const methods = await countAppMethods(db, app.id);
  if (status === 1 && methods === 0) throw fieldInvalid('status', APP_MSG.readyNeedsMethod);
  // The first whitelist is not held; a change of one already set is.
  const wasSet = (app.whitelist_ip ?? '') !== '';
  const changed = wasSet && (fields.whitelist_ip ?? '') !== app.whitelist_ip;
  const heldUntil = changed ? holdEnd(nowIso, holdHours) : null;
  const updated = await db
    .updateTable('apps')
    .set({
      ...fields,
      status,
      updated_at: nowIso,
      ...(heldUntil ? { whitelist_hold_until: heldUntil } : {}),
    })
    .where('id', '=', app.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { app: toAppView(updated, methods, nowIso), whitelistHeldUntil: heldUntil };
}

// ---------------------------------------------------------------------------------------------
// App detail: six lists paged independently (the spec's `?{type}={page}`).

export const PER_PAGE = 10;

export const LIST_NAMES = [
  'receive',
  'send',
  'accounts',
  'api_logs',
  'callback_data',
  'daily_logs',
] as const;
export type ListName = (typeof LIST_NAMES)[number];

/** The page envelope; `first_page_url` names only this list's own page parameter. */
export function pageOf<T>(
  appId: string,
  list: ListName,
  rows: T[],
  total: number,
  page: number,
): Page<T> {
  const url = `/api/cryptosafelock/app-details/${encodeURIComponent(appId)}?${list}=1`;
  return pageEnvelope(rows, total, page, PER_PAGE, url);
}

type PageNumbers = Partial<Record<ListName, number>>;

/**
 * How page `page` of a newest-first list of `total` rows is read on its (created_at, id) index:
 * up to the middle from the newest end; past it from the oldest end (the rows then reversed), so
 * the last page costs what the first does however many rows the list has.
 */
export function pageRead(
  total: number,
  page: number,
): { direction: 'asc' | 'desc'; offset: number; limit: number } {
  const offset = (page - 1) * PER_PAGE;
  const end = Math.min(offset + PER_PAGE, total);
  if (offset <= total / 2 || end <= offset) {
    return { direction: 'desc', offset, limit: PER_PAGE };
  }
  return { direction: 'asc', offset: total - end, limit: end - offset };
}

/** The rows of a page read by pageRead, newest first (a copy: kept rows are frozen). */
const newestFirst = <T>(rows: readonly T[], direction: 'asc' | 'desc'): readonly T[] =>
  direction === 'asc' ? [...rows].reverse() : rows;

/** The page reads of app details' lists, prepared in both directions (see pageRead). */
type PageParams = { appId: string; limit: number; offset: number };

function pagePrepared<R>(
  build: (db: Executor, p: PageParams, direction: 'asc' | 'desc') => Compilable<R>,
) {
  const sample: PageParams = { appId: '', limit: 0, offset: 0 };
  // Kept under the app (db/ownerChanges.ts): its rows' triggers name it.
  const keeping = { ownerOf: (p: PageParams) => p.appId };
  const byDirection = {
    asc: prepared(sample, (db, p) => build(db, p, 'asc'), keeping),
    desc: prepared(sample, (db, p) => build(db, p, 'desc'), keeping),
  };
  return (db: Executor, appId: string, read: ReturnType<typeof pageRead>) =>
    byDirection[read.direction](db, { appId, limit: read.limit, offset: read.offset });
}

const receivePage = pagePrepared((db, p, direction) =>
  db
    .selectFrom('receive_transactions as r')
    .innerJoin('payment_methods as pm', 'pm.id', 'r.payment_method_id')
    .select([
      'r.id',
      'r.unique_id',
      'r.amount_micro',
      'r.deposit_status',
      'r.created_at',
      'r.thash',
      'r.gas_transfer_txid',
      'r.collect_txid',
      'r.process_datetime',
      'pm.network_name',
      'pm.name',
      'pm.chain_id',
    ])
    .where('r.app_id', '=', p.appId)
    .orderBy('r.created_at', direction)
    .orderBy('r.id', direction)
    .limit(p.limit)
    .offset(p.offset),
);

const sendPage = pagePrepared((db, p, direction) =>
  db
    .selectFrom('send_transactions as s')
    .innerJoin('payment_methods as pm', 'pm.id', 's.payment_method_id')
    .select((eb) => [
      's.id',
      // The signer's tx_hash on gateway rows; thash on rows from before them.
      eb.fn.coalesce('s.tx_hash', 's.thash').as('thash'),
      's.amount_micro',
      's.to_address',
      's.status',
      's.created_at',
      'pm.network_name',
      'pm.name',
      'pm.chain_id',
    ])
    .where('s.app_id', '=', p.appId)
    .orderBy('s.created_at', direction)
    .orderBy('s.id', direction)
    .limit(p.limit)
    .offset(p.offset),
);

const accountPage = pagePrepared((db, p, direction) =>
  db
    .selectFrom('app_accounts')
    .select(['id', 'unique_id', 'address', 'created_at', 'chain_id'])
    .where('app_id', '=', p.appId)
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(p.limit)
    .offset(p.offset),
);

const apiLogPage = pagePrepared((db, p, direction) =>
  db
    .selectFrom('api_logs')
    .select(['id', 'method', 'route', 'ip', 'created_at'])
    .where('app_id', '=', p.appId)
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(p.limit)
    .offset(p.offset),
);

// App details, the most read app screen, runs these on every read: prepared and kept.
const activeMethods = prepared(
  {},
  (db) =>
    db
      .selectFrom('payment_methods')
      .selectAll()
      .where('is_active', '=', 1)
      .orderBy('sort_order', 'asc'),
  { ownerOf: () => EVERY_OWNER },
);

const methodsOfApp = prepared(
  { appId: '' },
  (db, { appId }) =>
    db
      .selectFrom('app_payment_methods')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc'),
  { ownerOf: (p) => p.appId },
);

/** Everything the app detail screen shows, each list at its requested page (1 by default). */
export async function appDetails(
  db: Executor,
  userId: string,
  appId: string,
  pages: PageNumbers,
  local: LocalChains,
  view: FeeLeg & { nowIso: string },
): Promise<Schemas['AppDetails']> {
  const { nowIso } = view;
  const app = await ownedApp(db, userId, appId);
  const at = (list: ListName) => pages[list] ?? 1;
  const offset = (list: ListName) => (at(list) - 1) * PER_PAGE;

  // The reads that need only the app run together (one round trip's wait on PostgreSQL, where
  // each is a pooled connection's; SQLite runs them one after another anyway).
  const [testMethods, methods, totals, used, counts, daily] = await Promise.all([
    testMethodsByChain(db, appId, local),
    activeMethods(db, {}),
    // Usage: the Daily Logs summed per method (appUsage.ts), so the two tabs always agree.
    methodTotals(db, appId, view),
    methodsOfApp(db, { appId }),
    rowCounts(db, ['receive_transactions', 'send_transactions', 'app_accounts', 'api_logs'], appId),
    dailyLogs(db, appId, { limit: PER_PAGE, offset: offset('daily_logs') }, view),
  ]);
  const totalOf = (
    id: string,
    side: 'deposit_micro' | 'withdraw_micro' | 'fee_micro' | 'payout_micro',
  ) => microToDecimal(totals.get(id)?.[side] ?? 0n);
  const countOf = (side: 'deposit_count' | 'withdraw_count') =>
    [...totals.values()].reduce((sum, t) => sum + t[side], 0);
  const receiveTotal = counts.receive_transactions;
  const sendTotal = counts.send_transactions;
  const accountTotal = counts.app_accounts;
  const apiLogTotal = counts.api_logs;

  const read = {
    receive: pageRead(receiveTotal, at('receive')),
    send: pageRead(sendTotal, at('send')),
    accounts: pageRead(accountTotal, at('accounts')),
    api_logs: pageRead(apiLogTotal, at('api_logs')),
  };
  const [receiveRows, sendRows, accountRows, apiLogRows, ipn] = await Promise.all([
    receivePage(db, appId, read.receive),
    sendPage(db, appId, read.send),
    accountPage(db, appId, read.accounts),
    apiLogPage(db, appId, read.api_logs),
    // IPN Logs: the app's webhook deliveries (domain/webhooks).
    deliveryPage(db, appId, { offset: offset('callback_data'), limit: PER_PAGE }),
  ]);
  return {
    app_data: toAppView(app, used.length, nowIso),
    all_payment_methods: methods.map((m): Schemas['PaymentMethod'] => ({
      id: m.id,
      name: m.name,
      network_name: m.network_name,
      network_type: m.network_type,
      logo: m.logo,
      chain_id: m.chain_id,
      is_token: m.is_token,
      token_contract_address: m.token_contract_address,
      total_amount: totalOf(m.id, 'deposit_micro'),
      total_withdraw_amount: totalOf(m.id, 'withdraw_micro'),
      total_gateway_fee: totalOf(m.id, 'fee_micro'),
      total_payout_amount: totalOf(m.id, 'payout_micro'),
    })),
    user_payment_methods: used.map((u): Schemas['UserPaymentMethod'] => ({
      id: u.id,
      payment_method_id: u.payment_method_id,
      gas_address: u.gas_address,
      collect_address: u.collect_address,
      deposit_status: u.deposit_status,
      withdraw_status: u.withdraw_status,
      ...(isHeld(u.payout_hold_until, nowIso) ? { payout_hold_until: u.payout_hold_until } : {}),
    })),
    generated_deposit_address: accountTotal,
    // Credited deposits and completed withdrawals, as Usage shows them (the lists hold all rows).
    total_transaction: { incoming: countOf('deposit_count'), outgoing: countOf('withdraw_count') },
    receive: pageOf(
      appId,
      'receive',
      newestFirst(receiveRows, read.receive.direction).map((r): Schemas['ReceiveTransaction'] => ({
        id: r.id,
        unique_id: r.unique_id,
        network_name: r.network_name,
        amount: microToDecimal(BigInt(r.amount_micro)),
        name: r.name,
        deposit_status: r.deposit_status,
        created_at: r.created_at,
        chain_id: r.chain_id,
        thash: r.thash,
        gas_transfer_txid: r.gas_transfer_txid,
        collect_txid: r.collect_txid,
        process_datetime: r.process_datetime,
      })),
      receiveTotal,
      at('receive'),
    ),
    send: pageOf(
      appId,
      'send',
      newestFirst(sendRows, read.send.direction).map((s): Schemas['SendTransaction'] => ({
        id: s.id,
        thash: s.thash,
        chain_id: s.chain_id,
        network_name: s.network_name,
        amount: microToDecimal(BigInt(s.amount_micro)),
        name: s.name,
        to_address: s.to_address,
        status: s.status,
        created_at: s.created_at,
      })),
      sendTotal,
      at('send'),
    ),
    accounts: pageOf(
      appId,
      'accounts',
      newestFirst(accountRows, read.accounts.direction).map((a): Schemas['Account'] => ({
        id: a.id,
        unique_id: a.unique_id,
        address: a.address,
        created_at: a.created_at,
        test_methods: a.chain_id === null ? [] : (testMethods.get(a.chain_id) ?? []),
      })),
      accountTotal,
      at('accounts'),
    ),
    api_logs: pageOf(
      appId,
      'api_logs',
      newestFirst(apiLogRows, read.api_logs.direction).map((l): Schemas['ApiLog'] => ({
        id: l.id,
        method: l.method,
        route: l.route,
        ip: l.ip,
        created_at: l.created_at,
      })),
      apiLogTotal,
      at('api_logs'),
    ),
    callback_data: pageOf(
      appId,
      'callback_data',
      ipn.rows.map(ipnLogView),
      ipn.total,
      at('callback_data'),
    ),
    daily_logs: pageOf(
      appId,
      'daily_logs',
      daily.rows.map((d): Schemas['DailyLog'] => ({
        id: `${d.day}:${d.paymentMethodId}`,
        date: d.day,
        network_name: d.networkName,
        name: d.name,
        deposit_count: d.deposit_count,
        deposit_volume: microToDecimal(d.deposit_micro),
        withdraw_count: d.withdraw_count,
        withdraw_volume: microToDecimal(d.withdraw_micro),
        gateway_fee_volume: microToDecimal(d.fee_micro),
        payout_volume: microToDecimal(d.payout_micro),
      })),
      daily.total,
      at('daily_logs'),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Payment methods of an app.

/** EVM addresses compare case-insensitively (the case is only a checksum); Tron ones exactly. */
function sameAddress(a: string, b: string): boolean {
  return a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Puts an active payment method in use in the app, paying out to `collect_address`. */
export async function usePaymentMethod(
  db: Db,
  userId: string,
  input: Schemas['UsePaymentMethodRequest'],
  nowIso: string,
): Promise<void> {
  const app = await ownedApp(db, userId, input.user_app_id);
  const method = await db
    .selectFrom('payment_methods')
    .select(['id', 'network_type'])
    .where('id', '=', input.payment_method_id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (!method) throw new NotFoundError();
  const address = checkPayoutAddress(method.network_type, input.collect_address);
  if (!address.ok) throw fieldInvalid('collect_address', address.message);
  const inserted = await db
    .insertInto('app_payment_methods')
    .values({
      id: newId('upm'),
      app_id: app.id,
      payment_method_id: method.id,
      collect_address: address.address,
      // The background job (domain/gasProvisioner.ts) creates the operational wallet.
      gas_address: null,
      gas_index: null,
      deposit_status: 1,
      withdraw_status: 1,
      created_at: nowIso,
    })
    .onConflict((oc) => oc.columns(['app_id', 'payment_method_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    throw new ConflictError('This payment method is already in use in this app.');
  }
}

/**
 * Changes a method in use: its payout address, or its deposit or withdraw switch. A changed payout
 * address starts a hold (see holdEnd); answers its end, or null.
 */
export async function updatePaymentMethod(
  db: Db,
  userId: string,
  input: Schemas['UpdatePaymentMethodRequest'],
  nowIso: string,
  holdHours: number,
): Promise<{ payoutHeldUntil: string | null }> {
  const app = await ownedApp(db, userId, input.user_app_id);
  const used = await db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .select([
      'app_payment_methods.id',
      'app_payment_methods.collect_address',
      'payment_methods.network_type',
    ])
    .where('app_payment_methods.id', '=', input.id)
    .where('app_payment_methods.app_id', '=', app.id)
    .executeTakeFirst();
  if (!used) throw new NotFoundError();
  if (input.type === 'address') {
    const address = checkPayoutAddress(used.network_type, input.collect_address);
    if (!address.ok) throw fieldInvalid('collect_address', address.message);
    // The address set when the method was put in use is the first one: any change is held.
    const heldUntil = address.address !== used.collect_address ? holdEnd(nowIso, holdHours) : null;
    await db
      .updateTable('app_payment_methods')
      .set({
        collect_address: address.address,
        ...(heldUntil ? { payout_hold_until: heldUntil } : {}),
      })
      .where('id', '=', used.id)
      .execute();
    return { payoutHeldUntil: heldUntil };
  }
  if (input.status === undefined) throw fieldInvalid('status', 'Status is required');
  await db
    .updateTable('app_payment_methods')
    .set(
      input.type === 'deposit_status'
        ? { deposit_status: input.status }
        : { withdraw_status: input.status },
    )
    .where('id', '=', used.id)
    .execute();
  return { payoutHeldUntil: null };
}

/**
 * Balances of the Operational Wallet of a method in use, in micro units: only at the gas address
 * the app's method has (another address is unknown), on a chain this server can read.
 */
export async function gasWalletBalances(
  db: Db,
  balances: GasBalanceReader,
  userId: string,
  target: { appId: string; paymentMethodId: string; gasAddress: string },
) {
  const app = await ownedApp(db, userId, target.appId);
  const used = await db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .select([
      'app_payment_methods.gas_address',
      'payment_methods.chain_id',
      'payment_methods.network_name',
      'payment_methods.network_type',
      'payment_methods.is_token',
      'payment_methods.token_contract_address',
      'payment_methods.decimals',
    ])
    .where('app_payment_methods.app_id', '=', app.id)
    .where('app_payment_methods.payment_method_id', '=', target.paymentMethodId)
    .executeTakeFirst();
  if (!used?.gas_address || !sameAddress(used.gas_address, target.gasAddress)) {
    throw new NotFoundError();
  }
  try {
    return await balances.read(used, used.gas_address);
  } catch (error) {
    if (error instanceof ChainNotServedError) throw new InvalidError(error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Transaction state rules: which statuses a deposit can be moved from, and to (a withdrawal's
// Cancel and Reinitiate are domain/withdrawals.ts's: they hold reservations).

/**
 * Only a Failed (5) deposit can be re-initiated. One that failed before its credit goes back to
 * Queued for Verification (2); one that failed moving its money out (gas or sweep, after its
 * credit) goes back to 3 and on from there, the signer reading the chain first.
 */
const DEPOSIT_REQUEUE = { from: [5], to: 2 } as const;
const FAILED_AFTER_CREDIT = ['gas_failed', 'sweep_failed'];

const STATE_MSG = {
  depositNotFailed: 'Only a Failed deposit can be re-initiated.',
} as const;

/** Re-initiates a Failed deposit; the status guard in the update makes it race-free. */
export async function requeueDeposit(db: Db, userId: string, id: string): Promise<void> {
  const row = await db
    .selectFrom('receive_transactions')
    .innerJoin('apps', 'apps.id', 'receive_transactions.app_id')
    .select([
      'receive_transactions.id',
      'receive_transactions.deposit_status',
      'receive_transactions.failure_reason',
    ])
    .where('receive_transactions.id', '=', id)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError();
  const from: readonly number[] = DEPOSIT_REQUEUE.from;
  if (!from.includes(row.deposit_status)) throw new ConflictError(STATE_MSG.depositNotFailed);
  const afterCredit = FAILED_AFTER_CREDIT.includes(row.failure_reason ?? '');
  const result = await db
    .updateTable('receive_transactions')
    .set(
      afterCredit
        ? // process_datetime: the signer reads a revert older than this as history.
          { deposit_status: 3, failure_reason: null, process_datetime: new Date().toISOString() }
        : { deposit_status: DEPOSIT_REQUEUE.to, process_datetime: null },
    )
    .where('id', '=', row.id)
    .where('deposit_status', 'in', DEPOSIT_REQUEUE.from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ConflictError(STATE_MSG.depositNotFailed);
}
