import { type Insertable, type Selectable, type Transaction } from 'kysely';
import { engineOf, type Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import { handOutAddress } from '../chain/addressPool';
import { BRANCH_PATHS } from '../chain/derivationCounters';
import { prepared, type Executor } from '../../db/prepared';
import { sharedTransactions } from '../../db/sharedTransactions';
import { insertRows, runNamed, type TableRows } from '../../db/rowInserts';
import type { Database, InvoicePaymentOptionsTable, InvoicesTable } from '../../db/schema';
import { refuseOverPlan } from '../apps/plan';
import type { ChainAdapter } from '../chain/adapter';
import { tronAddressFromEvm } from '../chain/addresses';
import { servedTokenContract } from '../chain/specChains';
import { afterCursor, pageOf } from '../cursor';
import { compare, divide, parseDecimal, toUnits } from '../decimal';
import { InvalidError, NotFoundError, type FieldErrors } from '../errors';
import { newTimeOrderedId } from '../ids';
import { codedMessages } from '../messageCodes';
import { gatewayMethods, type GatewayMethod } from '../payments/accounts';
import { WITHDRAWAL_MSG } from '../payments/withdrawals';
import {
  currencyDecimals,
  displayPlaces,
  tooManyPlaces,
  unknownCurrency,
} from '../rates/currencies';
import type { LockedRate, RateBook } from '../rates/rates';
import {
  emitInvoiceEvents,
  emitManyInvoiceEvents,
  recordFirstEventsWith,
  type InvoiceEventType,
} from '../webhooks/events';
import { invoiceClock } from './chainClock';
import { creditSettledInvoice } from './settlement';
import {
  cancelState,
  markState,
  nextState,
  type InvoiceState,
  type Transition,
} from './stateMachine';
import {
  invoiceView,
  machineInvoice,
  machinePayments,
  type InvoiceRecord,
  type RefundRecord,
  type OptionRecord,
  type PaymentRecord,
} from './views';

// Invoices: a price in a currency, paid before an expiry in one of the app's methods at a rate
// locked at creation, at an address of its own. Its address is derived from the gateway's xpub
// on a branch of its own (account/3/<index>, one index per invoice from its branch's counter, as
// accounts' are): one EVM address serves every EVM method of the invoice (an EVM address is the
// same on every EVM chain), and Tron's is the same key in Tron's form. Statuses and flags move only through the state machine (stateMachine.ts), each move with
// its events in the same transaction, under the invoice's lock.

export const INVOICE_BRANCH = BRANCH_PATHS.invoices;

/**
 * An invoice id the app does not have, and a new invoice's refusals (the id, the size of the
 * metadata and the method code are values; a too-precise amount's is currencies.ts', a method
 * the app has not enabled is withdrawals.ts').
 */
export const INVOICE_MSG = codedMessages('invoice', {
  notFound: (id: string) => `No invoice ${id}.`,
  amountZero: 'amount must be above 0, like "49.90".',
  amountTooHigh: 'amount must be at most 1000000000, like "49.90".',
  metadataTooLarge: (bytes: string) =>
    `metadata must be at most 4 KB of JSON (4096 bytes); this is ${bytes}.`,
  redirectUrlInvalid:
    'redirect_url must name a host a browser can reach, like "https://shop.example.com/thanks".',
  noDepositMethod:
    "The app has no method with For Deposit on: switch one on in the portal's Payment Setting tab.",
  depositsOff: (code: string) => `Deposits of ${code} are switched off for this app.`,
} as const);
const DEFAULT_EXPIRES_IN = 900;
const MAX_AMOUNT = parseDecimal('1000000000');
const METADATA_BYTES = 4096;

export interface NewInvoice {
  appId: string;
  amount: string;
  currency: string;
  methods?: readonly string[];
  orderId?: string;
  description?: string;
  buyerEmail?: string;
  metadata?: Record<string, unknown>;
  expiresIn?: number;
  redirectUrl?: string;
  /** The origin the checkout page is served from: `<origin>/pay/<id>`. */
  checkoutOrigin: string;
  now: Date;
  /** Where a method's token is on its chain as this server reads it (USDT_CONTRACT on a test chain). */
  tokenOnChain: (chainId: number, listed: string) => string;
  /** The payment link a shopper makes it from (domain/paymentLinks/). */
  paymentLinkId?: string;
  /**
   * Runs in the transaction that writes the invoice, once its rows are written and before its
   * event: what must commit with it or not at all (a payment link's visit). A throw rolls the
   * invoice back.
   */
  alsoInTransaction?: (trx: Transaction<Database>, invoiceId: string) => Promise<void>;
}

/**
 * `NewInvoice.tokenOnChain` for a server whose deposit chain is `chain`: its adapter says where a
 * listed token is on it; other chains' tokens are at CHAIN_TOKEN_CONTRACTS (`tokenContracts`),
 * else where the method lists them.
 */
export function tokenOnChainOf(
  chain: Pick<ChainAdapter, 'chainId' | 'tokenContract'>,
  tokenContracts: ReadonlyMap<number, string>,
) {
  return (chainId: number, listed: string): string =>
    chainId === chain.chainId
      ? chain.tokenContract(listed)
      : servedTokenContract(tokenContracts, chainId, listed);
}

/** The request's own faults, each under its field; all of them at once. */
function refusals(input: NewInvoice): FieldErrors {
  const errors: FieldErrors = {};
  const places = currencyDecimals(input.currency);
  if (places === undefined) {
    errors.currency = [unknownCurrency(input.currency)];
  }
  const amount = parseDecimal(input.amount);
  if (amount.units === 0n) errors.amount = [INVOICE_MSG.amountZero];
  else if (compare(amount, MAX_AMOUNT) > 0) {
    errors.amount = [INVOICE_MSG.amountTooHigh];
  } else if (places !== undefined && amount.places > places) {
    // Trailing zeros past the currency's decimals change nothing, and are refused all the same:
    // the amount is kept exactly as sent.
    errors.amount = [tooManyPlaces(input.currency, places, 'amount', input.amount)];
  }
  if (input.metadata !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(input.metadata));
    if (bytes > METADATA_BYTES) {
      errors.metadata = [INVOICE_MSG.metadataTooLarge(String(bytes))];
    }
  }
  const redirect =
    input.redirectUrl === undefined ? undefined : redirectUrlFault(input.redirectUrl);
  if (redirect !== undefined) errors.redirect_url = [redirect];
  return errors;
}

/** What is wrong with a `redirect_url` (an invoice's, a payment link's), or undefined. */
export function redirectUrlFault(text: string): string | undefined {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    return INVOICE_MSG.redirectUrlInvalid;
  }
  return undefined;
}

/** The methods asked for (or every one with For Deposit on), each enabled with deposits on. */
async function chosenMethods(
  db: Db,
  appId: string,
  asked: readonly string[] | undefined,
): Promise<GatewayMethod[]> {
  const enabled = await gatewayMethods(db, appId);
  if (asked === undefined) {
    const open = enabled.filter((m) => m.depositsEnabled);
    if (open.length === 0) {
      throw new InvalidError(undefined, { methods: [INVOICE_MSG.noDepositMethod] });
    }
    return open;
  }
  const { chosen, faults } = methodsAsked(enabled, asked);
  if (faults.length > 0) throw new InvalidError(undefined, { methods: faults });
  return chosen;
}

/**
 * Of the app's `enabled` methods, those `asked` for (in the app's order of methods, whatever
 * order they were asked in), and a sentence for each asked for that is not enabled or has For
 * Deposit off.
 */
export function methodsAsked(
  enabled: readonly GatewayMethod[],
  asked: readonly string[],
): { chosen: GatewayMethod[]; faults: string[] } {
  const faults: string[] = [];
  const chosen: GatewayMethod[] = [];
  for (const code of asked) {
    const method = enabled.find((m) => m.code === code);
    if (!method) faults.push(WITHDRAWAL_MSG.notEnabled(code));
    else if (!method.depositsEnabled) {
      faults.push(INVOICE_MSG.depositsOff(code));
    } else chosen.push(method);
  }
  return { chosen: enabled.filter((m) => chosen.includes(m)), faults };
}

/** The rates a new invoice in `currency` would lock now, per method. */
export async function ratesFor(
  rates: RateBook,
  methods: readonly GatewayMethod[],
  currency: string,
  now: Date,
): Promise<{ method: GatewayMethod; rate: LockedRate }[]> {
  const locked = [];
  for (const method of methods) {
    locked.push({ method, rate: await rates.rateOf(method.name, currency, now) });
  }
  return locked;
}

/** The app's methods with For Deposit on (what GET /rates prices). */
export async function depositMethods(db: Db, appId: string): Promise<GatewayMethod[]> {
  return (await gatewayMethods(db, appId)).filter((m) => m.depositsEnabled);
}

/**
 * A new invoice: checked (every fault named by its field), priced (RateUnavailableError when a
 * pair has no fresh rate: nothing is created), the plan's check (PlanLimitError), then its index,
 * and in one transaction its rows and its `invoice.created` event (shared with the invoices this
 * process creates at the same time: storeShared).
 */
export async function createInvoice(
  db: Db,
  rates: RateBook,
  xpub: string,
  input: NewInvoice,
): Promise<ReturnType<typeof invoiceView>> {
  const errors = refusals(input);
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);
  const methods = await chosenMethods(db, input.appId, input.methods);
  const priced = await ratesFor(rates, methods, input.currency, input.now);
  const amount = parseDecimal(input.amount);
  const [app] = await invoiceSettingsOf(db, { appId: input.appId });
  if (!app) throw new Error(`No app ${input.appId}`);
  const id = newTimeOrderedId('inv', input.now);
  const at = input.now.toISOString();
  const expiresAt = new Date(
    input.now.getTime() + (input.expiresIn ?? DEFAULT_EXPIRES_IN) * 1000,
  ).toISOString();

  // Only room for it is checked, by reads and without a lock: a settled invoice is what counts
  // against the plan. The index is its branch's next (derivationCounters.ts), taken outside the
  // transaction so that creations run side by side; a rollback leaves it unused, never reused.
  await refuseOverPlan(db, input.appId, input.now, 'invoice');
  const { index, evm } = await handOutAddress(db, xpub, 'invoices');
  // The view is made of what is written: nothing else can have touched an invoice that is not
  // committed yet, so reading it back inside the transaction (five reads, each holding SQLite's
  // write lock or a round trip) would find the same.
  const invoice: Selectable<InvoicesTable> = {
    id,
    app_id: input.appId,
    order_id: input.orderId ?? null,
    amount: input.amount,
    currency: input.currency,
    status: 'new',
    paid_partial: 0,
    paid_over: 0,
    paid_late: 0,
    marked: 0,
    invalid_reason: null,
    mark_reason: null,
    description: input.description ?? null,
    buyer_email: input.buyerEmail ?? null,
    metadata: input.metadata === undefined ? null : JSON.stringify(input.metadata),
    redirect_url: input.redirectUrl ?? null,
    checkout_url: `${input.checkoutOrigin}/pay/${id}`,
    underpayment_tolerance: app.invoice_underpayment_tolerance,
    late_window_minutes: app.invoice_late_window_minutes,
    derivation_index: index,
    created_at: at,
    expires_at: expiresAt,
    updated_at: at,
    settled_at: null,
    payment_link_id: input.paymentLinkId ?? null,
  };
  const options = priced.map(({ method, rate }, position) => {
    const shown = displayPlaces(method.name, method.decimals);
    const due = divide(amount, parseDecimal(rate.rate), shown, 'up');
    return {
      method,
      row: {
        invoice_id: id,
        payment_method_id: method.id,
        position,
        chain_id: method.chainId,
        address: method.networkType === 'EVM' ? evm : tronAddressFromEvm(evm),
        token_contract: method.tokenContract
          ? input.tokenOnChain(method.chainId, method.tokenContract)
          : null,
        amount_due_raw: toUnits(due, method.decimals, 'up').toString(),
        rate: rate.rate,
        rate_source: rate.source,
        rate_at: rate.at.toISOString(),
      },
    };
  });
  const view = invoiceView({
    invoice,
    options: options.map(({ method, row }) => ({
      ...row,
      method_code: method.code,
      asset: method.name,
      decimals: method.decimals,
    })),
    payments: [],
    refunds: [],
  });
  const stored: StoredInvoice = {
    invoice,
    options: options.map(({ row }) => row),
    view,
    livemode: app.livemode !== 0,
    alsoInTransaction: input.alsoInTransaction,
    now: input.now,
  };
  // A payment link's invoice also locks its link and may be refused there (db/locks.ts: locks
  // in one order): it goes in a transaction of its own.
  if (input.alsoInTransaction) {
    await db.transaction().execute((trx) => storeInvoices(trx, [stored]));
  } else {
    await storeShared(db, stored);
  }
  return view;
}

interface StoredInvoice {
  invoice: Selectable<InvoicesTable>;
  options: Insertable<InvoicePaymentOptionsTable>[];
  view: ReturnType<typeof invoiceView>;
  /** Its app's mode (its events' bodies carry it). */
  livemode: boolean;
  alsoInTransaction: NewInvoice['alsoInTransaction'];
  now: Date;
}

/**
 * Invoices stored per transaction when many are created at once, and option rows per insert on
 * SQLite (PostgreSQL takes them all as one parameter: db/rowInserts.ts).
 */
const SHARED_INVOICES = 100;
const OPTION_ROWS = 1000;

/** New invoices' rows and their `invoice.created` events, the events last (they lock the app). */
async function storeInvoices(
  trx: Transaction<Database>,
  items: readonly StoredInvoice[],
): Promise<void> {
  const invoices = items.map((item) => item.invoice);
  const options = items.flatMap((item) => item.options);
  if (engineOf(trx) === 'postgres' && options.length > 0) {
    // One statement for both tables, one round trip fewer (SQLite writes no table in a WITH,
    // and its statements are no round trips). The options' foreign keys are checked at the
    // statement's end, once the invoices are in.
    await runNamed(
      trx,
      insertRows(
        trx.with('stored', (db) => insertRows(db, trx, 'invoices', invoices)),
        trx,
        'invoice_payment_options',
        options,
      ),
    );
  } else {
    await trx.insertInto('invoices').values(invoices).execute();
    for (let from = 0; from < options.length; from += OPTION_ROWS) {
      await trx
        .insertInto('invoice_payment_options')
        .values(options.slice(from, from + OPTION_ROWS))
        .execute();
    }
  }
  for (const item of items) await item.alsoInTransaction?.(trx, item.invoice.id);
  await emitManyInvoiceEvents(
    trx,
    items.map((item) => ({
      appId: item.invoice.app_id,
      invoice: item.view,
      types: ['invoice.created'],
      now: item.now,
    })),
  );
}

/**
 * PostgreSQL: storeInvoices as one statement, with no transaction around it (a payment link's
 * invoice, which locks its link, is not stored this way).
 */
async function storeInOneStatement(db: Db, items: readonly StoredInvoice[]): Promise<void> {
  const written: (TableRows & { name: string })[] = [
    { name: 'stored', table: 'invoices', rows: items.map((item) => item.invoice) },
  ];
  const options = items.flatMap((item) => item.options);
  if (options.length > 0) {
    written.push({ name: 'options', table: 'invoice_payment_options', rows: options });
  }
  await recordFirstEventsWith(
    db,
    written,
    items.map((item) => ({
      appId: item.invoice.app_id,
      type: 'invoice.created',
      resourceId: item.invoice.id,
      uniqueId: item.invoice.order_id,
      data: item.view,
      now: item.now,
    })),
    new Map(items.map((item) => [item.invoice.app_id, item.livemode])),
  );
}

// Invoices created together (a sale's burst) share a transaction, on PostgreSQL a statement:
// db/sharedTransactions.ts.
const storeShared = sharedTransactions(storeInvoices, SHARED_INVOICES, storeInOneStatement);

// Every creation reads it: prepared, and kept under the app.
const invoiceSettingsOf = prepared(
  { appId: '' },
  (db, p) =>
    db
      .selectFrom('apps')
      .select(['invoice_underpayment_tolerance', 'invoice_late_window_minutes', 'livemode'])
      .where('id', '=', p.appId),
  { ownerOf: (p, rows) => (rows.length > 0 ? p.appId : undefined) },
);

/** An invoice's payment options with their methods, in the invoice's order of methods. */
function optionRows(db: Executor) {
  return db
    .selectFrom('invoice_payment_options as o')
    .innerJoin('payment_methods as pm', 'pm.id', 'o.payment_method_id')
    .select([
      'o.invoice_id',
      'o.position',
      'o.payment_method_id',
      'o.chain_id',
      'o.address',
      'o.token_contract',
      'o.amount_due_raw',
      'o.rate',
      'o.rate_source',
      'o.rate_at',
      'pm.name as asset',
      'pm.decimals',
      (eb) => eb.fn.coalesce('pm.code', eb.val('')).as('method_code'),
    ])
    .orderBy('o.position');
}

/** An invoice's refunds in short, with their methods, oldest first. */
function refundRows(db: Executor) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('payment_methods as pm', 'pm.id', 'r.payment_method_id')
    .select([
      'r.invoice_id',
      'r.id',
      'r.status',
      'r.payment_method_id',
      'r.amount_raw',
      'r.created_at',
      'pm.decimals',
      (eb) => eb.fn.coalesce('pm.code', eb.val('')).as('method_code'),
    ])
    .orderBy('r.created_at')
    .orderBy('r.id');
}

/** An invoice's payments with their methods, in the order they were seen. */
function paymentRows(db: Executor) {
  return db
    .selectFrom('invoice_payments as p')
    .innerJoin('payment_methods as pm', 'pm.id', 'p.payment_method_id')
    .select([
      'p.invoice_id',
      'p.id',
      'p.payment_method_id',
      'p.chain_id',
      'p.tx_hash',
      'p.log_index',
      'p.block_number',
      'p.amount_raw',
      'p.value',
      'p.confirmations',
      'p.status',
      'p.late',
      'p.created_at',
      'p.flag',
      'p.accepted_at',
      'p.paid_to',
      'p.credit_id',
      'pm.decimals',
      'pm.name as asset',
      (eb) => eb.fn.coalesce('pm.code', eb.val('')).as('method_code'),
    ])
    .orderBy('p.seen_at')
    .orderBy('p.block_number')
    .orderBy('p.log_index');
}

// One invoice, what every read, webhook and state change of one invoice loads: four prepared
// queries (db/prepared.ts), built and compiled once per engine. Built by Kysely on each call,
// the first three cost most of a GET /invoices/{id}'s CPU (profile: 591 µs a request).
const oneInvoice = prepared({ appId: '', id: '' }, (db, p) =>
  db.selectFrom('invoices').selectAll().where('id', '=', p.id).where('app_id', '=', p.appId),
);
const oneInvoiceOptions = prepared({ id: '' }, (db, p) =>
  optionRows(db).where('o.invoice_id', '=', p.id),
);
const oneInvoicePayments = prepared({ id: '' }, (db, p) =>
  paymentRows(db).where('p.invoice_id', '=', p.id),
);
const oneInvoiceRefunds = prepared({ id: '' }, (db, p) =>
  refundRows(db).where('r.invoice_id', '=', p.id),
);

/** Whether two reads of invoice rows found them as they were. */
const sameRows = (a: readonly object[], b: readonly object[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * The invoice `id` of `appId` with its options and payments; undefined when it has none.
 *
 * Read by four statements: outside a transaction, a change committed between them (a payment
 * recorded with the flags and status it gives the invoice, in one transaction) would show the row
 * from before it beside the payments from after it. So the row is read again after the rest, and
 * all of it again while the row moved. Inside the transaction holding the invoice's lock nothing
 * moves: one read more.
 */
async function loadInvoice(db: Executor, appId: string, id: string) {
  let [invoice] = await oneInvoice(db, { appId, id });
  while (invoice) {
    const options: OptionRecord[] = await oneInvoiceOptions(db, { id });
    const payments: PaymentRecord[] = await oneInvoicePayments(db, { id });
    const refunds: RefundRecord[] = await oneInvoiceRefunds(db, { id });
    const [again] = await oneInvoice(db, { appId, id });
    if (again && sameRows([again], [invoice])) {
      return { invoice, options, payments, refunds } satisfies InvoiceRecord;
    }
    invoice = again;
  }
  return undefined;
}

/** The invoices `ids` of `appId` with their options and payments, in the order of `ids`. */
export async function loadInvoices(
  db: Executor,
  appId: string,
  ids: readonly string[],
): Promise<InvoiceRecord[]> {
  if (ids.length === 0) return [];
  if (ids.length === 1) {
    const record = await loadInvoice(db, appId, ids[0] ?? '');
    return record ? [record] : [];
  }
  const rows = () =>
    db
      .selectFrom('invoices')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  // As in loadInvoice: the rows read again after the rest, and all of it again while they moved.
  let invoices = await rows();
  let options: (OptionRecord & { invoice_id: string })[];
  let payments: (PaymentRecord & { invoice_id: string })[];
  let refunds: (RefundRecord & { invoice_id: string })[];
  for (;;) {
    options = await optionRows(db).where('o.invoice_id', 'in', ids).execute();
    payments = await paymentRows(db).where('p.invoice_id', 'in', ids).execute();
    refunds = await refundRows(db).where('r.invoice_id', 'in', ids).execute();
    const again = await rows();
    if (sameRows(again, invoices)) break;
    invoices = again;
  }
  const byId = new Map(invoices.map((invoice) => [invoice.id, invoice]));
  return ids.flatMap((id): InvoiceRecord[] => {
    const invoice = byId.get(id);
    if (!invoice) return [];
    return [
      {
        invoice,
        options: options.filter((o) => o.invoice_id === id),
        payments: payments.filter((p) => p.invoice_id === id),
        refunds: refunds.filter((r) => r.invoice_id === id),
      },
    ];
  });
}

/** The tables getInvoice reads: what its answer, kept, depends on (http/keptAnswers.ts). */
export function invoiceTables(db: Db): string[] {
  const queries = [oneInvoice, oneInvoiceOptions, oneInvoicePayments, oneInvoiceRefunds];
  return [...new Set(queries.flatMap((query) => query.tables(db)))].sort();
}

export async function getInvoice(db: Db, appId: string, id: string) {
  const [record] = await loadInvoices(db, appId, [id]);
  if (!record) throw new NotFoundError(INVOICE_MSG.notFound(id));
  return invoiceView(record);
}

export interface InvoiceFilter {
  status?: InvoicesTable['status'];
  orderId?: string;
  /** Only the invoices made from this payment link. */
  paymentLinkId?: string;
  from?: string;
  to?: string;
}

/** The app's invoices that pass `filter`, as a query to finish (order, page); exports read it too. */
export function filtered(db: Db, appId: string, filter: InvoiceFilter) {
  return db
    .selectFrom('invoices')
    .where('app_id', '=', appId)
    .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status ?? 'new'))
    .$if(filter.orderId !== undefined, (q) => q.where('order_id', '=', filter.orderId ?? ''))
    .$if(filter.paymentLinkId !== undefined, (q) =>
      q.where('payment_link_id', '=', filter.paymentLinkId ?? ''),
    )
    .$if(filter.from !== undefined, (q) =>
      q.where('created_at', '>=', new Date(filter.from ?? 0).toISOString()),
    )
    .$if(filter.to !== undefined, (q) =>
      q.where('created_at', '<', new Date(filter.to ?? 0).toISOString()),
    );
}

/** A page of the app's invoices, newest first, by (created_at, id) cursor (the gateway's). */
export async function listInvoices(
  db: Db,
  appId: string,
  filter: InvoiceFilter,
  page: { cursor: string | undefined; limit: number },
) {
  const rows = await filtered(db, appId, filter)
    .select(['id', 'created_at'])
    .$if(page.cursor !== undefined, (q) => q.where(afterCursor('invoices', page.cursor ?? '')))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, nextCursor } = pageOf('invoices', rows, page.limit);
  const records = await loadInvoices(
    db,
    appId,
    shown.map((r) => r.id),
  );
  return { invoices: records.map(invoiceView), nextCursor };
}

/**
 * Page `page` (from 1) of the app's invoices, newest first, `perPage` a page, with how many pass
 * `filter` (the portal's numbered pages).
 */
export async function invoicePage(
  db: Db,
  appId: string,
  filter: InvoiceFilter,
  page: { page: number; perPage: number },
) {
  const [rows, count] = await Promise.all([
    filtered(db, appId, filter)
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    filtered(db, appId, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const records = await loadInvoices(
    db,
    appId,
    rows.map((r) => r.id),
  );
  return { invoices: records.map(invoiceView), total: Number(count.n) };
}

/** The invoice as it is now, its events recorded (call inside the transaction that changed it). */
async function changed(
  trx: Transaction<Database>,
  appId: string,
  id: string,
  types: readonly InvoiceEventType[],
  now: Date,
) {
  const [record] = await loadInvoices(trx, appId, [id]);
  if (!record) throw new NotFoundError(INVOICE_MSG.notFound(id));
  const view = invoiceView(record);
  await emitInvoiceEvents(trx, appId, view, types, now);
  return view;
}

/**
 * Writes the state the machine gave and the events it named (with `seen`, the payment events
 * that led to it), inside the transaction holding the invoice's lock; a newly settled invoice's
 * payments are credited in the same transaction. Nothing is written when nothing changed.
 */
async function writeState(
  trx: Transaction<Database>,
  record: InvoiceRecord,
  { state, events }: Transition,
  now: Date,
  options: { seen?: readonly InvoiceEventType[]; markReason?: string } = {},
) {
  const { invoice } = record;
  const flags = (s: InvoiceState) => [s.paidPartial, s.paidOver, s.paidLate, s.marked].map(Number);
  const before = machineInvoice(invoice);
  const same =
    state.status === before.status &&
    state.invalidReason === before.invalidReason &&
    flags(state).join() === flags(before).join() &&
    options.markReason === undefined;
  const seen = options.seen ?? [];
  if (same && seen.length === 0) return invoiceView(record);
  const settledNow = state.status === 'settled' && invoice.status !== 'settled';
  await trx
    .updateTable('invoices')
    .set({
      status: state.status,
      paid_partial: state.paidPartial ? 1 : 0,
      paid_over: state.paidOver ? 1 : 0,
      paid_late: state.paidLate ? 1 : 0,
      marked: state.marked ? 1 : 0,
      invalid_reason: state.invalidReason,
      ...(options.markReason === undefined ? {} : { mark_reason: options.markReason }),
      ...(settledNow ? { settled_at: now.toISOString() } : {}),
      updated_at: now.toISOString(),
    })
    .where('id', '=', invoice.id)
    .execute();
  if (settledNow) await creditSettledInvoice(trx, record, now);
  return changed(trx, invoice.app_id, invoice.id, [...seen, ...events], now);
}

/**
 * Where the invoice's payments and the time take it now (stateMachine.ts nextState), written with
 * its events; `seen` are payment events to record first (invoice.payment_received). The expiry is
 * judged at `clock`, by default how far the invoice's chains have been read (chainClock.ts). Call
 * inside a transaction that holds the invoice's lock (`lockInvoice`).
 */
export async function advanceInvoice(
  trx: Transaction<Database>,
  appId: string,
  id: string,
  now: Date,
  seen: readonly InvoiceEventType[] = [],
  clock?: Date,
): Promise<void> {
  const [record] = await loadInvoices(trx, appId, [id]);
  if (!record) return;
  const at = clock ?? (await invoiceClock(trx, id, now));
  const moved = nextState(machineInvoice(record.invoice), machinePayments(record.payments), at);
  await writeState(trx, record, moved, now, { seen });
}

/** Serializes every change of one invoice, across processes (db/locks.ts). */
export function lockInvoice(trx: Transaction<Database>, id: string): Promise<void> {
  return lockForTransaction(trx, `invoice:${id}`);
}

/**
 * One manual move (cancel, mark) under the invoice's lock: the state machine decides from the
 * invoice and its payments as they are inside the lock (InvoiceStateRefusal when its status does
 * not allow it), and the change and its events commit together.
 */
async function moveByHand(
  db: Db,
  appId: string,
  id: string,
  now: Date,
  decide: (record: InvoiceRecord) => Transition,
  markReason?: string,
) {
  return db.transaction().execute(async (trx) => {
    await lockInvoice(trx, id);
    const [record] = await loadInvoices(trx, appId, [id]);
    if (!record) throw new NotFoundError(INVOICE_MSG.notFound(id));
    return writeState(trx, record, decide(record), now, { markReason });
  });
}

/** An unpaid new invoice becomes invalid, reason cancelled. */
export async function cancelInvoice(db: Db, appId: string, id: string, now: Date) {
  return moveByHand(db, appId, id, now, (r) =>
    cancelState(machineInvoice(r.invoice), machinePayments(r.payments)),
  );
}

/** The merchant's decision: settled or invalid, flagged marked, with their reason. */
export async function markInvoice(
  db: Db,
  appId: string,
  id: string,
  mark: { status: 'settled' | 'invalid'; reason: string },
  now: Date,
) {
  return moveByHand(
    db,
    appId,
    id,
    now,
    (r) => markState(machineInvoice(r.invoice), machinePayments(r.payments), mark.status),
    mark.reason,
  );
}
