import { isIP } from 'node:net';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppsTable, Database } from '../db/schema';
import { microToDecimal } from './money';
import { APPS_WITHOUT_SUBSCRIPTION, currentSubscription } from './subscriptions';
import { APP_MESSAGES } from '../../../shared/apps';

type Executor = Kysely<Database> | Transaction<Database>;

export const APP_MSG = {
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

export interface AppFieldsInput {
  app_name: string;
  project_url: string;
  whitelist_ip?: string;
  callback_url?: string;
  info?: string;
}

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

export interface AppView {
  id: string;
  app_name: string;
  info: string | null;
  project_url: string;
  whitelist_ip: string | null;
  callback_url: string | null;
  created_at: string;
  status: 0 | 1;
}

/**
 * An app as the API shows it. Ready (1) needs a payment method in use; the stored status is
 * the merchant's own switch (Merchant Setting), so an app with methods can still be set Not Ready.
 */
export function toAppView(row: Selectable<AppsTable>, methodCount: number): AppView {
  return {
    id: row.id,
    app_name: row.app_name,
    info: row.info,
    project_url: row.project_url,
    whitelist_ip: row.whitelist_ip,
    callback_url: row.callback_url,
    created_at: row.created_at,
    status: methodCount > 0 && row.status === 1 ? 1 : 0,
  };
}

/** The user's apps, oldest first (the sidebar list). */
export async function listApps(db: Executor, userId: string): Promise<AppView[]> {
  const rows = await db
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
    .orderBy('apps.id', 'asc')
    .execute();
  return rows.map(({ method_count, ...row }) => toAppView(row, Number(method_count ?? 0)));
}

/** The user's app `appId`, or undefined (another user's app is as unknown as a missing one). */
export async function findOwnedApp(db: Executor, userId: string, appId: string) {
  return db
    .selectFrom('apps')
    .selectAll()
    .where('id', '=', appId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function countAppMethods(db: Executor, appId: string): Promise<number> {
  const row = await db
    .selectFrom('app_payment_methods')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many apps the user may have now: the package's app_count, or the no-subscription allowance. */
export async function appLimit(
  db: Executor,
  userId: string,
  nowIso: string,
): Promise<{ limit: number; subscribed: boolean }> {
  const sub = await currentSubscription(db, userId, nowIso);
  return sub
    ? { limit: sub.app_count, subscribed: true }
    : { limit: APPS_WITHOUT_SUBSCRIPTION, subscribed: false };
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

export interface Page<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  from: number | null;
  to: number | null;
  total: number;
  first_page_url: string;
}

/** The page envelope; `first_page_url` names only this list's own page parameter. */
export function pageOf<T>(
  appId: string,
  list: ListName,
  rows: T[],
  total: number,
  page: number,
): Page<T> {
  const from = rows.length > 0 ? (page - 1) * PER_PAGE + 1 : null;
  return {
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / PER_PAGE)),
    per_page: PER_PAGE,
    from,
    to: from === null ? null : from + rows.length - 1,
    total,
    first_page_url: `/api/cryptosafelock/app-details/${encodeURIComponent(appId)}?${list}=1`,
  };
}

export type PageNumbers = Partial<Record<ListName, number>>;

async function countRows(
  db: Executor,
  table:
    | 'receive_transactions'
    | 'send_transactions'
    | 'app_accounts'
    | 'api_logs'
    | 'ipn_logs'
    | 'daily_logs',
  appId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Everything the app detail screen shows, each list at its requested page (1 by default). */
export async function appDetails(db: Executor, app: Selectable<AppsTable>, pages: PageNumbers) {
  const appId = app.id;
  const at = (list: ListName) => pages[list] ?? 1;
  const offset = (list: ListName) => (at(list) - 1) * PER_PAGE;

  const methods = await db
    .selectFrom('payment_methods')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('sort_order', 'asc')
    .execute();
  const received = await db
    .selectFrom('receive_transactions')
    .select(['payment_method_id', (e) => e.fn.sum<number>('amount_micro').as('micro')])
    .where('app_id', '=', appId)
    .where('deposit_status', '=', 1)
    .groupBy('payment_method_id')
    .execute();
  const sent = await db
    .selectFrom('send_transactions')
    .select(['payment_method_id', (e) => e.fn.sum<number>('amount_micro').as('micro')])
    .where('app_id', '=', appId)
    .where('status', '=', 1)
    .groupBy('payment_method_id')
    .execute();
  const totalOf = (rows: { payment_method_id: string; micro: number | null }[], id: string) =>
    microToDecimal(Number(rows.find((r) => r.payment_method_id === id)?.micro ?? 0));

  const used = await db
    .selectFrom('app_payment_methods')
    .selectAll()
    .where('app_id', '=', appId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();

  const [receiveTotal, sendTotal, accountTotal, apiLogTotal, ipnTotal, dailyTotal] =
    await Promise.all([
      countRows(db, 'receive_transactions', appId),
      countRows(db, 'send_transactions', appId),
      countRows(db, 'app_accounts', appId),
      countRows(db, 'api_logs', appId),
      countRows(db, 'ipn_logs', appId),
      countRows(db, 'daily_logs', appId),
    ]);

  const receiveRows = await db
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
    .where('r.app_id', '=', appId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(PER_PAGE)
    .offset(offset('receive'))
    .execute();
  const sendRows = await db
    .selectFrom('send_transactions as s')
    .innerJoin('payment_methods as pm', 'pm.id', 's.payment_method_id')
    .select([
      's.id',
      's.thash',
      's.amount_micro',
      's.to_address',
      's.status',
      's.created_at',
      'pm.network_name',
      'pm.name',
      'pm.chain_id',
    ])
    .where('s.app_id', '=', appId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(PER_PAGE)
    .offset(offset('send'))
    .execute();
  const accountRows = await db
    .selectFrom('app_accounts')
    .select(['id', 'unique_id', 'address', 'created_at'])
    .where('app_id', '=', appId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PER_PAGE)
    .offset(offset('accounts'))
    .execute();
  const apiLogRows = await db
    .selectFrom('api_logs')
    .select(['id', 'method', 'route', 'ip', 'created_at'])
    .where('app_id', '=', appId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PER_PAGE)
    .offset(offset('api_logs'))
    .execute();
  const ipnRows = await db
    .selectFrom('ipn_logs')
    .select(['id', 'unique_id', 'event', 'created_at', 'data'])
    .where('app_id', '=', appId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PER_PAGE)
    .offset(offset('callback_data'))
    .execute();
  const dailyRows = await db
    .selectFrom('daily_logs as d')
    .innerJoin('payment_methods as pm', 'pm.id', 'd.payment_method_id')
    .select([
      'd.id',
      'd.date',
      'd.deposit_count',
      'd.deposit_volume_micro',
      'd.withdraw_count',
      'd.withdraw_volume_micro',
      'pm.network_name',
      'pm.name',
    ])
    .where('d.app_id', '=', appId)
    .orderBy('d.date', 'desc')
    .orderBy('pm.sort_order', 'asc')
    .limit(PER_PAGE)
    .offset(offset('daily_logs'))
    .execute();

  return {
    app_data: toAppView(app, used.length),
    all_payment_methods: methods.map((m) => ({
      id: m.id,
      name: m.name,
      network_name: m.network_name,
      network_type: m.network_type,
      logo: m.logo,
      chain_id: m.chain_id,
      is_token: m.is_token,
      token_contract_address: m.token_contract_address,
      total_amount: totalOf(received, m.id),
      total_withdraw_amount: totalOf(sent, m.id),
    })),
    user_payment_methods: used.map((u) => ({
      id: u.id,
      payment_method_id: u.payment_method_id,
      gas_address: u.gas_address,
      collect_address: u.collect_address,
      deposit_status: u.deposit_status,
      withdraw_status: u.withdraw_status,
    })),
    generated_deposit_address: accountTotal,
    total_transaction: { incoming: receiveTotal, outgoing: sendTotal },
    receive: pageOf(
      appId,
      'receive',
      receiveRows.map((r) => ({
        id: r.id,
        unique_id: r.unique_id,
        network_name: r.network_name,
        amount: microToDecimal(r.amount_micro),
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
      sendRows.map((s) => ({
        id: s.id,
        thash: s.thash,
        chain_id: s.chain_id,
        network_name: s.network_name,
        amount: microToDecimal(s.amount_micro),
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
      accountRows.map((a) => ({
        id: a.id,
        unique_id: a.unique_id,
        address: a.address,
        created_at: a.created_at,
      })),
      accountTotal,
      at('accounts'),
    ),
    api_logs: pageOf(
      appId,
      'api_logs',
      apiLogRows.map((l) => ({
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
      ipnRows.map((l) => ({
        id: l.id,
        unique_id: l.unique_id,
        event: l.event,
        created_at: l.created_at,
        data: l.data,
      })),
      ipnTotal,
      at('callback_data'),
    ),
    daily_logs: pageOf(
      appId,
      'daily_logs',
      dailyRows.map((d) => ({
        id: d.id,
        date: d.date,
        network_name: d.network_name,
        name: d.name,
        deposit_count: d.deposit_count,
        deposit_volume: microToDecimal(d.deposit_volume_micro),
        withdraw_count: d.withdraw_count,
        withdraw_volume: microToDecimal(d.withdraw_volume_micro),
      })),
      dailyTotal,
      at('daily_logs'),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Transaction state rules (spec 001 section 4).

/** Only a Failed (5) deposit can be re-initiated; it goes back to Queued for Verification (2). */
export const DEPOSIT_REQUEUE = { from: [5], to: 2 } as const;
/** Processing Transfer (3) and Unsuccessful (6) withdrawals can be cancelled (7) or re-queued (2). */
export const WITHDRAW_ACTIONABLE: readonly number[] = [3, 6];
export const WITHDRAW_CANCELLED = 7;
export const WITHDRAW_REQUEUED = 2;

export const STATE_MSG = {
  depositNotFailed: 'Only a Failed deposit can be re-initiated.',
  withdrawNotCancellable:
    'Only a withdrawal in Processing Transfer or Unsuccessful status can be cancelled.',
  withdrawNotRequeueable:
    'Only a withdrawal in Processing Transfer or Unsuccessful status can be re-initiated.',
} as const;
