import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection';
import type { InvoicesTable } from '../../db/schema';
import { dailyLogs, usageBetween, type ActivityTotals } from '../apps/usage';
import { filtered as filteredInvoices } from '../invoices/invoices';
import { microToString, unitsToDecimal } from '../money';
import type { Cell } from './csv';

// What each export holds: its rows, read in chunks newest first (as the portal's lists show
// them), and its columns, versioned. A released version's columns never change (the fixture
// `releasedColumns.json` holds them and a test compares): a change is a new version, and the
// newest is the default.

/** Whose rows an export reads: an app's (the app detail's lists, the gateway) or an account's. */
export type Owner = 'app' | 'user';

/** The rows an export selects by time: `from` included, `to` left out (ISO 8601, UTC). */
export interface Range {
  from?: string;
  to?: string;
}

/** The Invoices tab's other filters, which only the invoices kind takes. */
export interface InvoiceListFilter {
  status?: InvoicesTable['status'];
  orderId?: string;
}

export interface ReadQuery {
  db: Db;
  /** The app's id, or the user's (by the kind's owner). */
  ownerId: string;
  range: Range;
  invoiceFilter?: InvoiceListFilter;
  /** Whether sweeps pay the gateway's fee apart (the Daily Logs' payout figure). */
  feeLeg: boolean;
}

interface KindSource<Row> {
  owner: Owner;
  /** The gateway abilities a key needs to export it (app kinds only). */
  abilities: readonly string[];
  /** Every column any version has, by name. */
  columns: Record<string, (row: Row) => Cell>;
  /** Version n is versions[n - 1]: column names, in order. */
  versions: readonly (readonly string[])[];
  /**
   * The next chunk after the last row read (its time and id; `done` rows read so far), newest
   * first; fewer than `limit` rows ends the export.
   */
  read(
    q: ReadQuery,
    last: Keyset | undefined,
    done: number,
    limit: number,
  ): Promise<readonly Row[]>;
}

/** A kind with its row type closed over: what the stream and the tests use. */
export interface ExportKind {
  owner: Owner;
  abilities: readonly string[];
  versions: readonly (readonly string[])[];
  /** The records of version `version` (1-based), chunk by chunk. */
  chunks(q: ReadQuery, version: number, chunkSize: number): AsyncGenerator<Cell[][]>;
}

/** Where keyset paging resumes: the last row's time and id. */
interface Keyset {
  created_at: string;
  id: string;
}

function keysetOf(row: unknown): Keyset | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  if (!('created_at' in row) || !('id' in row)) return undefined;
  const { created_at, id } = row;
  return typeof created_at === 'string' && typeof id === 'string' ? { created_at, id } : undefined;
}

function kind<Row>(source: KindSource<Row>): ExportKind {
  for (const [index, names] of source.versions.entries()) {
    const unknown = names.filter((name) => !(name in source.columns));
    if (unknown.length > 0) {
      throw new Error(`Version ${index + 1} names unknown columns: ${unknown.join(', ')}`);
    }
  }
  return {
    owner: source.owner,
    abilities: source.abilities,
    versions: source.versions,
    async *chunks(q, version, chunkSize) {
      const names = source.versions[version - 1];
      if (!names) throw new RangeError(`No version ${version}`);
      const cells = names.map((name) => source.columns[name] as (row: Row) => Cell);
      let last: Keyset | undefined;
      let done = 0;
      for (;;) {
        const rows = await source.read(q, last, done, chunkSize);
        if (rows.length > 0) yield rows.map((row) => cells.map((cell) => cell(row)));
        if (rows.length < chunkSize) return;
        last = keysetOf(rows.at(-1));
        done += rows.length;
      }
    },
  };
}

/** Keyset paging, newest first: the rows strictly before the last one read on (time, id). */
function before(
  timeColumn: string,
  idColumn: string,
  last: Keyset | undefined,
): Expression<SqlBool> {
  if (!last) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) < (${last.created_at}, ${last.id})`;
}

/** The range on a time column. */
function within(timeColumn: string, range: Range): Expression<SqlBool> {
  const from = range.from === undefined ? sql`1 = 1` : sql`${sql.ref(timeColumn)} >= ${range.from}`;
  const to = range.to === undefined ? sql`1 = 1` : sql`${sql.ref(timeColumn)} < ${range.to}`;
  return sql<SqlBool>`${from} and ${to}`;
}

/**
 * The UTC days a range touches (daily figures cannot be split): from the day `from` falls in, to
 * the day after the one before `to` (left out).
 */
function daysOf(range: Range): { fromDay?: string; toDay?: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    ...(range.from === undefined ? {} : { fromDay: day(Date.parse(range.from)) }),
    // The day after the last one holding an instant before `to`.
    ...(range.to === undefined ? {} : { toDay: day(Date.parse(range.to) - 1 + 86_400_000) }),
  };
}

/** A token amount, exact: from its base units when the row has them, else from its micro. */
function tokenAmount(raw: string | null, decimals: number, micro: number): string {
  return raw === null ? microAmount(micro) : unitsToDecimal(BigInt(raw), decimals);
}

/** Micro units (10^-6) as an exact decimal, without trailing zeros. */
function microAmount(micro: number | bigint | string): string {
  return microToString(BigInt(micro)).replace(/\.?0+$/, '');
}

const text = (value: string | number | null): Cell => (value === null ? null : String(value));
const yesNo = (flag: number): Cell => (flag ? 'yes' : 'no');

const DEPOSIT_STATUS: Record<number, string> = {
  0: 'pending',
  1: 'completed',
  2: 'queued_for_verification',
  3: 'credited',
  4: 'gas_transferred',
  5: 'failed',
};

const SEND_STATUS: Record<number, string> = {
  0: 'pending',
  1: 'completed',
  2: 'queued',
  3: 'processing',
  4: 'energy_transferred',
  5: 'awaiting_confirmation',
  6: 'unsuccessful',
  7: 'cancelled',
};

const CHUNK_ORDER = 'desc';

// The Transaction tab's Receive list: the app's deposits.
const deposits = kind({
  owner: 'app',
  abilities: ['deposits:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('receive_transactions as r')
      .innerJoin('payment_methods as pm', 'pm.id', 'r.payment_method_id')
      .select((eb) => [
        'r.id',
        'r.created_at',
        'r.unique_id',
        'r.amount_micro',
        'r.amount_raw',
        'r.deposit_status',
        'r.flag',
        'r.address',
        eb.fn.coalesce('r.tx_hash', 'r.thash').as('tx_hash'),
        'r.gas_transfer_txid',
        'r.collect_txid',
        'r.credited_at',
        'r.process_datetime',
        'r.failure_reason',
        'pm.code',
        'pm.name',
        'pm.network_name',
        'pm.chain_id',
        'pm.decimals',
      ])
      .where('r.app_id', '=', q.ownerId)
      .where(within('r.created_at', q.range))
      .where(before('r.created_at', 'r.id', last))
      .orderBy('r.created_at', CHUNK_ORDER)
      .orderBy('r.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (r) => r.id,
    created_at: (r) => r.created_at,
    unique_id: (r) => r.unique_id,
    method: (r) => r.code,
    asset: (r) => r.name,
    network: (r) => r.network_name,
    chain_id: (r) => text(r.chain_id),
    amount: (r) => tokenAmount(r.amount_raw, r.decimals, r.amount_micro),
    status: (r) => DEPOSIT_STATUS[r.deposit_status] ?? text(r.deposit_status),
    flag: (r) => r.flag,
    address: (r) => r.address,
    tx_hash: (r) => r.tx_hash,
    gas_tx_hash: (r) => r.gas_transfer_txid,
    sweep_tx_hash: (r) => r.collect_txid,
    credited_at: (r) => r.credited_at,
    completed_at: (r) => r.process_datetime,
    failure_reason: (r) => r.failure_reason,
  },
  versions: [
    [
      'id',
      'created_at',
      'unique_id',
      'method',
      'asset',
      'network',
      'chain_id',
      'amount',
      'status',
      'flag',
      'address',
      'tx_hash',
      'gas_tx_hash',
      'sweep_tx_hash',
      'credited_at',
      'completed_at',
      'failure_reason',
    ],
  ],
});

// The Transaction tab's Send list: the app's withdrawals and the sends that pay refunds.
const withdrawals = kind({
  owner: 'app',
  abilities: ['withdrawals:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('send_transactions as s')
      .innerJoin('payment_methods as pm', 'pm.id', 's.payment_method_id')
      .select((eb) => [
        's.id',
        's.created_at',
        's.unique_id',
        's.amount_micro',
        's.amount_raw',
        's.status',
        's.to_address',
        's.from_address',
        eb.fn.coalesce('s.tx_hash', 's.thash').as('tx_hash'),
        's.refund_id',
        's.failure_reason',
        's.final_at',
        'pm.code',
        'pm.name',
        'pm.network_name',
        'pm.chain_id',
        'pm.decimals',
      ])
      .where('s.app_id', '=', q.ownerId)
      .where(within('s.created_at', q.range))
      .where(before('s.created_at', 's.id', last))
      .orderBy('s.created_at', CHUNK_ORDER)
      .orderBy('s.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (s) => s.id,
    created_at: (s) => s.created_at,
    unique_id: (s) => s.unique_id,
    method: (s) => s.code,
    asset: (s) => s.name,
    network: (s) => s.network_name,
    chain_id: (s) => text(s.chain_id),
    amount: (s) => tokenAmount(s.amount_raw, s.decimals, s.amount_micro),
    status: (s) => SEND_STATUS[s.status] ?? text(s.status),
    to_address: (s) => s.to_address,
    from_address: (s) => s.from_address,
    tx_hash: (s) => s.tx_hash,
    refund_id: (s) => s.refund_id,
    failure_reason: (s) => s.failure_reason,
    final_at: (s) => s.final_at,
  },
  versions: [
    [
      'id',
      'created_at',
      'unique_id',
      'method',
      'asset',
      'network',
      'chain_id',
      'amount',
      'status',
      'to_address',
      'from_address',
      'tx_hash',
      'refund_id',
      'failure_reason',
      'final_at',
    ],
  ],
});

// The Transaction tab's Account list: the app's deposit accounts.
const accounts = kind({
  owner: 'app',
  abilities: ['accounts:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('app_accounts as a')
      .select(['a.id', 'a.created_at', 'a.unique_id', 'a.chain_id', 'a.address'])
      .where('a.app_id', '=', q.ownerId)
      .where(within('a.created_at', q.range))
      .where(before('a.created_at', 'a.id', last))
      .orderBy('a.created_at', CHUNK_ORDER)
      .orderBy('a.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (a) => a.id,
    created_at: (a) => a.created_at,
    unique_id: (a) => a.unique_id,
    chain_id: (a) => text(a.chain_id),
    address: (a) => a.address,
  },
  versions: [['id', 'created_at', 'unique_id', 'chain_id', 'address']],
});

// The API Logs tab.
const apiLogs = kind({
  owner: 'app',
  abilities: ['logs:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('api_logs as l')
      .select(['l.id', 'l.created_at', 'l.method', 'l.route', 'l.ip', 'l.status'])
      .where('l.app_id', '=', q.ownerId)
      .where(within('l.created_at', q.range))
      .where(before('l.created_at', 'l.id', last))
      .orderBy('l.created_at', CHUNK_ORDER)
      .orderBy('l.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (l) => l.id,
    created_at: (l) => l.created_at,
    method: (l) => l.method,
    route: (l) => l.route,
    ip: (l) => l.ip,
    status: (l) => text(l.status),
  },
  versions: [['id', 'created_at', 'method', 'route', 'ip', 'status']],
});

// The IPN Logs tab: the app's webhook deliveries (the bodies stay in the portal's View Details).
const ipnLogs = kind({
  owner: 'app',
  abilities: ['logs:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select([
        'd.id',
        'd.created_at',
        'd.event_id',
        'e.type',
        'e.resource_id',
        'e.unique_id',
        'd.status',
        'd.attempts',
        'd.last_status_code',
        'd.redelivery_of',
      ])
      .where('d.app_id', '=', q.ownerId)
      .where(within('d.created_at', q.range))
      .where(before('d.created_at', 'd.id', last))
      .orderBy('d.created_at', CHUNK_ORDER)
      .orderBy('d.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (d) => d.id,
    created_at: (d) => d.created_at,
    event_id: (d) => d.event_id,
    event: (d) => d.type,
    resource_id: (d) => d.resource_id,
    unique_id: (d) => d.unique_id,
    status: (d) => d.status,
    attempts: (d) => text(d.attempts),
    http_code: (d) => text(d.last_status_code),
    redelivery_of: (d) => d.redelivery_of,
  },
  versions: [
    [
      'id',
      'created_at',
      'event_id',
      'event',
      'resource_id',
      'unique_id',
      'status',
      'attempts',
      'http_code',
      'redelivery_of',
    ],
  ],
});

/** The Daily Logs' and Usage's figures, as the tabs show them. */
const figureColumns: Record<string, (row: ActivityTotals) => Cell> = {
  deposit_count: (r) => text(r.deposit_count),
  deposit_volume: (r) => microAmount(r.deposit_micro),
  withdraw_count: (r) => text(r.withdraw_count),
  withdraw_volume: (r) => microAmount(r.withdraw_micro),
  gateway_fee_volume: (r) => microAmount(r.fee_micro),
  payout_volume: (r) => microAmount(r.payout_micro),
  refund_count: (r) => text(r.refund_count),
  refund_volume: (r) => microAmount(r.refund_micro),
};

type DailyRow = Awaited<ReturnType<typeof dailyLogs>>['rows'][number];

// The Daily Logs tab: per UTC day and method, read as the tab reads it (its figures and order).
const dailyLogRows = kind<DailyRow>({
  owner: 'app',
  abilities: ['logs:read'],
  read: async (q, _last, done, limit) => {
    // Days and methods are few (one row per day and method used): paged by position.
    const { rows } = await dailyLogs(q.db, q.ownerId, { limit, offset: done }, q, daysOf(q.range));
    return rows;
  },
  columns: {
    date: (d) => d.day,
    method: (d) => d.paymentMethodId,
    asset: (d) => d.name,
    network: (d) => d.networkName,
    ...figureColumns,
  },
  versions: [
    [
      'date',
      'method',
      'asset',
      'network',
      'deposit_count',
      'deposit_volume',
      'withdraw_count',
      'withdraw_volume',
      'gateway_fee_volume',
      'payout_volume',
      'refund_count',
      'refund_volume',
    ],
  ],
});

type UsageRow = Awaited<ReturnType<typeof usageBetween>>[number];

// The Usage tab: each method's totals over the days the range touches (all of them unfiltered).
const usage = kind<UsageRow>({
  owner: 'app',
  abilities: ['logs:read'],
  read: async (q, _last, done) =>
    // One row per method money moved through: a single chunk.
    done > 0 ? [] : usageBetween(q.db, q.ownerId, daysOf(q.range), q),
  columns: {
    method: (u) => u.paymentMethodId,
    asset: (u) => u.name,
    network: (u) => u.networkName,
    first_day: (u) => u.firstDay,
    last_day: (u) => u.lastDay,
    ...figureColumns,
  },
  versions: [
    [
      'method',
      'asset',
      'network',
      'first_day',
      'last_day',
      'deposit_count',
      'deposit_volume',
      'withdraw_count',
      'withdraw_volume',
      'gateway_fee_volume',
      'payout_volume',
      'refund_count',
      'refund_volume',
    ],
  ],
});

// The Invoices tab.
const invoices = kind({
  owner: 'app',
  abilities: ['invoices:read'],
  read: (q, last, _done, limit) =>
    // The list's own filter (domain/invoices), so the file holds exactly the rows it selects.
    filteredInvoices(q.db, q.ownerId, { ...q.invoiceFilter, ...q.range })
      .select([
        'id',
        'created_at',
        'order_id',
        'amount',
        'currency',
        'status',
        'invalid_reason',
        'paid_partial',
        'paid_over',
        'paid_late',
        'marked',
        'description',
        'buyer_email',
        'payment_link_id',
        'expires_at',
        'settled_at',
      ])
      .where(before('created_at', 'id', last))
      .orderBy('created_at', CHUNK_ORDER)
      .orderBy('id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (i) => i.id,
    created_at: (i) => i.created_at,
    order_id: (i) => i.order_id,
    amount: (i) => i.amount,
    currency: (i) => i.currency,
    status: (i) => i.status,
    invalid_reason: (i) => i.invalid_reason,
    paid_partial: (i) => yesNo(i.paid_partial),
    paid_over: (i) => yesNo(i.paid_over),
    paid_late: (i) => yesNo(i.paid_late),
    marked: (i) => yesNo(i.marked),
    description: (i) => i.description,
    buyer_email: (i) => i.buyer_email,
    payment_link_id: (i) => i.payment_link_id,
    expires_at: (i) => i.expires_at,
    settled_at: (i) => i.settled_at,
  },
  versions: [
    [
      'id',
      'created_at',
      'order_id',
      'amount',
      'currency',
      'status',
      'invalid_reason',
      'paid_partial',
      'paid_over',
      'paid_late',
      'marked',
      'description',
      'buyer_email',
      'payment_link_id',
      'expires_at',
      'settled_at',
    ],
  ],
});

// The payments the watcher found for the app's invoices.
const payments = kind({
  owner: 'app',
  abilities: ['invoices:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('invoice_payments as p')
      .innerJoin('payment_methods as pm', 'pm.id', 'p.payment_method_id')
      .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
      .select([
        'p.id',
        'p.created_at',
        'p.invoice_id',
        'p.chain_id',
        'p.tx_hash',
        'p.log_index',
        'p.amount_raw',
        'p.value',
        'p.status',
        'p.flag',
        'p.accepted_at',
        'p.credit_id',
        'i.currency',
        'pm.code',
        'pm.name',
        'pm.decimals',
      ])
      .where('p.app_id', '=', q.ownerId)
      .where(within('p.created_at', q.range))
      .where(before('p.created_at', 'p.id', last))
      .orderBy('p.created_at', CHUNK_ORDER)
      .orderBy('p.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (p) => p.id,
    created_at: (p) => p.created_at,
    invoice_id: (p) => p.invoice_id,
    method: (p) => p.code,
    asset: (p) => p.name,
    chain_id: (p) => text(p.chain_id),
    amount: (p) => unitsToDecimal(BigInt(p.amount_raw), p.decimals),
    value: (p) => p.value,
    currency: (p) => p.currency,
    status: (p) => p.status,
    flag: (p) => p.flag,
    accepted_at: (p) => p.accepted_at,
    tx_hash: (p) => p.tx_hash,
    log_index: (p) => text(p.log_index),
  },
  versions: [
    [
      'id',
      'created_at',
      'invoice_id',
      'method',
      'asset',
      'chain_id',
      'amount',
      'value',
      'currency',
      'status',
      'flag',
      'accepted_at',
      'tx_hash',
      'log_index',
    ],
  ],
});

// Every payment the app received, tied to where its tokens went: an invoice's payment or a
// deposit account's deposit (the deposits no invoice payment was credited into), then the credit
// that took it in, its sweep (the payout leg) and the gateway's fee leg. A sweep moves the whole
// balance of its address, so the payments one credit took in, and the deposits one sweep took
// along, repeat its fee and payout: `deposit_id` and `sweep_tx_hash` say which rows share them.
const reconciliation = kind({
  owner: 'app',
  abilities: ['invoices:read', 'deposits:read'],
  read: (q, last, _done, limit) => {
    const invoicePayments = q.db
      .selectFrom('invoice_payments as p')
      .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
      .select([
        'p.id',
        'p.created_at',
        'p.payment_method_id',
        sql<number | null>`p.chain_id`.as('chain_id'),
        sql<string | null>`p.tx_hash`.as('tx_hash'),
        sql<string | null>`p.amount_raw`.as('amount_raw'),
        sql<number>`0`.as('amount_micro'),
        sql<string | null>`p.invoice_id`.as('invoice_id'),
        sql<string | null>`null`.as('account_id'),
        sql<string | null>`i.order_id`.as('merchant_id'),
        sql<string | null>`p.credit_id`.as('deposit_id'),
        sql<string | null>`p.status`.as('payment_status'),
      ])
      .where('p.app_id', '=', q.ownerId)
      .where(within('p.created_at', q.range));
    const accountDeposits = q.db
      .selectFrom('receive_transactions as r')
      .select((eb) => [
        'r.id',
        'r.created_at',
        'r.payment_method_id',
        sql<number | null>`r.chain_id`.as('chain_id'),
        eb.fn.coalesce('r.tx_hash', 'r.thash').as('tx_hash'),
        sql<string | null>`r.amount_raw`.as('amount_raw'),
        sql<number>`r.amount_micro`.as('amount_micro'),
        sql<string | null>`null`.as('invoice_id'),
        // The account whose address it was paid to (one per chain, the same address on each).
        eb
          .selectFrom('app_accounts as a')
          .select('a.id')
          .whereRef('a.app_id', '=', 'r.app_id')
          .whereRef('a.unique_id', '=', 'r.unique_id')
          .whereRef('a.address', '=', 'r.address')
          .orderBy('a.id')
          .limit(1)
          .as('account_id'),
        sql<string | null>`r.unique_id`.as('merchant_id'),
        sql<string | null>`r.id`.as('deposit_id'),
        sql<string | null>`null`.as('payment_status'),
      ])
      .where('r.app_id', '=', q.ownerId)
      // An invoice's credit (unique_id the invoice's id) is its payments' rows already.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('invoice_payments as c')
              .select('c.id')
              .whereRef('c.invoice_id', '=', 'r.unique_id')
              .whereRef('c.credit_id', '=', 'r.id'),
          ),
        ),
      )
      .where(within('r.created_at', q.range));
    return (
      q.db
        .selectFrom(invoicePayments.unionAll(accountDeposits).as('x'))
        .innerJoin('payment_methods as pm', 'pm.id', 'x.payment_method_id')
        .leftJoin('receive_transactions as d', 'd.id', 'x.deposit_id')
        // The sweep that completed the deposit (collect_txid), mined.
        .leftJoin('chain_txs as s', (join) =>
          join
            .onRef('s.chain_id', '=', 'd.chain_id')
            .onRef('s.tx_hash', '=', 'd.collect_txid')
            .on('s.purpose', '=', 'sweep')
            .on('s.status', '=', 'mined'),
        )
        // Its fee leg: signed for the deposit the sweep was signed for (or this one, before it).
        .leftJoin('chain_txs as f', (join) =>
          join.on(
            sql<SqlBool>`${sql.ref('f.id')} = (select f2.id from chain_txs f2 where f2.ref_id = coalesce(${sql.ref('s.ref_id')}, ${sql.ref('d.id')}) and f2.purpose = 'sweep_fee' and f2.status = 'mined' order by f2.created_at desc, f2.id desc limit 1)`,
          ),
        )
        .select([
          'x.id',
          'x.created_at',
          'x.chain_id',
          'x.tx_hash',
          'x.amount_raw',
          'x.amount_micro',
          'x.invoice_id',
          'x.account_id',
          'x.merchant_id',
          'x.deposit_id',
          'x.payment_status',
          'pm.code',
          'pm.name',
          'pm.network_name',
          'pm.decimals',
          'pm.livemode',
          sql<number>`${sql.ref('pm.chain_id')}`.as('method_chain_id'),
          sql<number | null>`${sql.ref('d.deposit_status')}`.as('deposit_status'),
          sql<string | null>`${sql.ref('d.collect_txid')}`.as('collect_txid'),
          sql<string | null>`${sql.ref('d.process_datetime')}`.as('process_datetime'),
          sql<string | null>`${sql.ref('d.swept_final_at')}`.as('swept_final_at'),
          sql<string | null>`${sql.ref('s.amount_raw')}`.as('payout_raw'),
          sql<string | null>`${sql.ref('s.to_address')}`.as('payout_address'),
          sql<string | null>`${sql.ref('f.amount_raw')}`.as('fee_raw'),
          sql<string | null>`${sql.ref('f.tx_hash')}`.as('fee_tx_hash'),
        ])
        .where(before('x.created_at', 'x.id', last))
        .orderBy('x.created_at', CHUNK_ORDER)
        .orderBy('x.id', CHUNK_ORDER)
        .limit(limit)
        .execute()
    );
  },
  columns: {
    id: (r) => r.id,
    created_at: (r) => r.created_at,
    livemode: (r) => yesNo(r.livemode),
    method: (r) => r.code,
    asset: (r) => r.name,
    network: (r) => r.network_name,
    chain_id: (r) => text(r.chain_id ?? r.method_chain_id),
    amount: (r) => tokenAmount(r.amount_raw, r.decimals, r.amount_micro),
    tx_hash: (r) => r.tx_hash,
    invoice_id: (r) => r.invoice_id,
    account_id: (r) => r.account_id,
    unique_id: (r) => r.merchant_id,
    deposit_id: (r) => r.deposit_id,
    status: reconciliationStatus,
    fee_amount: (r) => (r.fee_raw === null ? null : unitsToDecimal(BigInt(r.fee_raw), r.decimals)),
    fee_tx_hash: (r) => r.fee_tx_hash,
    sweep_tx_hash: (r) => (r.deposit_status === 1 ? r.collect_txid : null),
    swept_at: (r) => (r.deposit_status === 1 ? r.process_datetime : null),
    payout_amount: (r) =>
      r.deposit_status === 1 && r.payout_raw !== null
        ? unitsToDecimal(BigInt(r.payout_raw), r.decimals)
        : null,
    payout_address: (r) => (r.deposit_status === 1 ? r.payout_address : null),
    final_at: (r) => (r.deposit_status === 1 ? r.swept_final_at : null),
  },
  versions: [
    [
      'id',
      'created_at',
      'livemode',
      'method',
      'asset',
      'network',
      'chain_id',
      'amount',
      'tx_hash',
      'invoice_id',
      'account_id',
      'unique_id',
      'deposit_id',
      'status',
      'fee_amount',
      'fee_tx_hash',
      'sweep_tx_hash',
      'swept_at',
      'payout_amount',
      'payout_address',
      'final_at',
    ],
  ],
});

/**
 * How far a received payment got: `received` (seen, not yet deep enough), `confirmed` (deep
 * enough; for a deposit, credited), `swept` (its sweep mined), `final` (its sweep final), or
 * `failed` (a deposit that failed) and `removed` (a payment a reorg took off the chain).
 */
function reconciliationStatus(r: {
  payment_status: string | null;
  deposit_status: number | null;
  swept_final_at: string | null;
}): string {
  if (r.payment_status === 'removed') return 'removed';
  switch (r.deposit_status) {
    case null:
      return r.payment_status === 'confirmed' ? 'confirmed' : 'received';
    case 1:
      return r.swept_final_at === null ? 'swept' : 'final';
    case 3:
    case 4:
      return 'confirmed';
    case 5:
      return 'failed';
    default:
      return 'received';
  }
}

// The app's refunds.
const refunds = kind({
  owner: 'app',
  abilities: ['refunds:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('refunds as f')
      .innerJoin('payment_methods as pm', 'pm.id', 'f.payment_method_id')
      .select([
        'f.id',
        'f.created_at',
        'f.invoice_id',
        'f.status',
        'f.amount_raw',
        'f.amount_kind',
        'f.reason',
        'f.address',
        'f.send_id',
        'f.failure_reason',
        'pm.code',
        'pm.name',
        'pm.decimals',
      ])
      .where('f.app_id', '=', q.ownerId)
      .where(within('f.created_at', q.range))
      .where(before('f.created_at', 'f.id', last))
      .orderBy('f.created_at', CHUNK_ORDER)
      .orderBy('f.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (f) => f.id,
    created_at: (f) => f.created_at,
    invoice_id: (f) => f.invoice_id,
    method: (f) => f.code,
    asset: (f) => f.name,
    amount: (f) => unitsToDecimal(BigInt(f.amount_raw), f.decimals),
    amount_kind: (f) => f.amount_kind,
    status: (f) => f.status,
    reason: (f) => f.reason,
    address: (f) => f.address,
    send_id: (f) => f.send_id,
    failure_reason: (f) => f.failure_reason,
  },
  versions: [
    [
      'id',
      'created_at',
      'invoice_id',
      'method',
      'asset',
      'amount',
      'amount_kind',
      'status',
      'reason',
      'address',
      'send_id',
      'failure_reason',
    ],
  ],
});

// The app's payment links.
const paymentLinks = kind({
  owner: 'app',
  abilities: ['invoices:read'],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('payment_links as k')
      .select([
        'k.id',
        'k.created_at',
        'k.slug',
        'k.title',
        'k.amount',
        'k.amount_min',
        'k.amount_max',
        'k.currency',
        'k.active',
        'k.expires_at',
        'k.max_uses',
      ])
      .where('k.app_id', '=', q.ownerId)
      .where(within('k.created_at', q.range))
      .where(before('k.created_at', 'k.id', last))
      .orderBy('k.created_at', CHUNK_ORDER)
      .orderBy('k.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (k) => k.id,
    created_at: (k) => k.created_at,
    slug: (k) => k.slug,
    title: (k) => k.title,
    amount: (k) => k.amount,
    amount_min: (k) => k.amount_min,
    amount_max: (k) => k.amount_max,
    currency: (k) => k.currency,
    active: (k) => yesNo(k.active),
    expires_at: (k) => k.expires_at,
    max_uses: (k) => text(k.max_uses),
  },
  versions: [
    [
      'id',
      'created_at',
      'slug',
      'title',
      'amount',
      'amount_min',
      'amount_max',
      'currency',
      'active',
      'expires_at',
      'max_uses',
    ],
  ],
});

// The wallet's ledger (the account's money is USDT).
const ledger = kind({
  owner: 'user',
  abilities: [],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('ledger_entries as e')
      .select(['e.id', 'e.created_at', 'e.tnx', 'e.type', 'e.amount_micro', 'e.source', 'e.note'])
      .where('e.user_id', '=', q.ownerId)
      .where(within('e.created_at', q.range))
      .where(before('e.created_at', 'e.id', last))
      .orderBy('e.created_at', CHUNK_ORDER)
      .orderBy('e.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (e) => e.id,
    created_at: (e) => e.created_at,
    tnx: (e) => e.tnx,
    type: (e) => e.type,
    amount: (e) => microAmount(e.amount_micro),
    currency: () => 'USDT',
    source: (e) => e.source,
    note: (e) => e.note,
  },
  versions: [['id', 'created_at', 'tnx', 'type', 'amount', 'currency', 'source', 'note']],
});

// The wallet's top-ups (its deposits of USDT-BEP20 at the account's own address).
const topUps = kind({
  owner: 'user',
  abilities: [],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('deposits as t')
      .select(['t.id', 't.created_at', 't.tx_hash', 't.log_index', 't.amount_micro', 't.status'])
      .where('t.user_id', '=', q.ownerId)
      .where(within('t.created_at', q.range))
      .where(before('t.created_at', 't.id', last))
      .orderBy('t.created_at', CHUNK_ORDER)
      .orderBy('t.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (t) => t.id,
    created_at: (t) => t.created_at,
    amount: (t) => microAmount(t.amount_micro),
    currency: () => 'USDT',
    status: (t) => (t.status ? 'confirmed' : 'pending'),
    tx_hash: (t) => t.tx_hash,
    log_index: (t) => text(t.log_index),
  },
  versions: [['id', 'created_at', 'amount', 'currency', 'status', 'tx_hash', 'log_index']],
});

// The subscription history.
const subscriptions = kind({
  owner: 'user',
  abilities: [],
  read: (q, last, _done, limit) =>
    q.db
      .selectFrom('subscriptions as s')
      .innerJoin('packages as p', 'p.id', 's.package_id')
      .select([
        's.id',
        's.created_at',
        'p.name',
        's.price_micro',
        's.paid_micro',
        's.credit_micro',
        's.status',
        's.start_date',
        's.end_date',
        's.canceled_at',
        's.replaced_at',
        's.replaced_kind',
      ])
      .where('s.user_id', '=', q.ownerId)
      .where(within('s.created_at', q.range))
      .where(before('s.created_at', 's.id', last))
      .orderBy('s.created_at', CHUNK_ORDER)
      .orderBy('s.id', CHUNK_ORDER)
      .limit(limit)
      .execute(),
  columns: {
    id: (s) => s.id,
    created_at: (s) => s.created_at,
    package: (s) => s.name,
    price: (s) => microAmount(s.price_micro),
    paid: (s) => microAmount(s.paid_micro),
    credit: (s) => microAmount(s.credit_micro),
    currency: () => 'USDT',
    status: (s) => (s.status === 1 ? 'active' : 'canceled'),
    start_date: (s) => s.start_date,
    end_date: (s) => s.end_date,
    canceled_at: (s) => s.canceled_at,
    replaced_at: (s) => s.replaced_at,
    replaced_kind: (s) => s.replaced_kind,
  },
  versions: [
    [
      'id',
      'created_at',
      'package',
      'price',
      'paid',
      'credit',
      'currency',
      'status',
      'start_date',
      'end_date',
      'canceled_at',
      'replaced_at',
      'replaced_kind',
    ],
  ],
});

/** Every export kind, by the name the URLs use. */
export const EXPORT_KINDS = {
  deposits,
  withdrawals,
  accounts,
  api_logs: apiLogs,
  ipn_logs: ipnLogs,
  daily_logs: dailyLogRows,
  usage,
  invoices,
  payments,
  refunds,
  payment_links: paymentLinks,
  reconciliation,
  ledger,
  top_ups: topUps,
  subscriptions,
} as const satisfies Record<string, ExportKind>;

export type ExportKindName = keyof typeof EXPORT_KINDS;

export function isExportKind(name: string): name is ExportKindName {
  return Object.hasOwn(EXPORT_KINDS, name);
}
