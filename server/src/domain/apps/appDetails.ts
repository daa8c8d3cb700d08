import type { Compilable, Kysely, Transaction } from 'kysely';
import { prepared } from '../../db/prepared';
import { EVERY_OWNER } from '../../db/ownerChanges';
import type { Database } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { pageEnvelope, type Page } from '../../../../src/shared/paging';
import { microToDecimal } from '../money';
import { testMethodsByChain, type LocalChains } from '../payments/testDeposits';
import { dailyLogs, methodTotals, type FeeLeg } from './usage';
import { rowCounts } from '../maintainedCounts';
import { deliveryPage, ipnLogView } from '../webhooks/portal';
import { ownedApp, isHeld, toAppView } from './apps';

type Executor = Kysely<Database> | Transaction<Database>;
type Schemas = components['schemas'];

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
      'r.waiting_message',
      'r.flag',
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
      's.waiting_message',
      's.refund_id',
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
/** The active methods of one mode: a test app offers the test networks' only. */
const activeMethods = prepared(
  { livemode: 1 as 0 | 1 },
  (db, { livemode }) =>
    db
      .selectFrom('payment_methods')
      .selectAll()
      .where('is_active', '=', 1)
      .where('livemode', '=', livemode)
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
    activeMethods(db, { livemode: app.livemode }),
    // Usage: the Daily Logs summed per method (appUsage.ts), so the two tabs always agree.
    methodTotals(db, appId, view),
    methodsOfApp(db, { appId }),
    rowCounts(db, ['receive_transactions', 'send_transactions', 'app_accounts', 'api_logs'], appId),
    dailyLogs(db, appId, { limit: PER_PAGE, offset: offset('daily_logs') }, view),
  ]);
  const totalOf = (
    id: string,
    side: 'deposit_micro' | 'withdraw_micro' | 'fee_micro' | 'payout_micro' | 'refund_micro',
  ) => microToDecimal(totals.get(id)?.[side] ?? 0n);
  const countOf = (side: 'deposit_count' | 'withdraw_count' | 'refund_count') =>
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
      total_refund_amount: totalOf(m.id, 'refund_micro'),
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
    total_transaction: {
      incoming: countOf('deposit_count'),
      outgoing: countOf('withdraw_count'),
      refunds: countOf('refund_count'),
    },
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
        waiting_reason: r.waiting_message,
        flag: r.flag,
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
        waiting_reason: s.waiting_message,
        refund_id: s.refund_id,
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
        refund_count: d.refund_count,
        refund_volume: microToDecimal(d.refund_micro),
      })),
      daily.total,
      at('daily_logs'),
    ),
  };
}
