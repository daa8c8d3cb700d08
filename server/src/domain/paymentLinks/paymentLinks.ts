import { randomBytes } from 'node:crypto';
import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { Executor } from '../../db/prepared';
import type { Database, PaymentLinksTable } from '../../db/schema';
import { afterCursor, pageOf } from '../cursor';
import {
  add,
  compare,
  formatFixed,
  isDecimalText,
  parseDecimal,
  rescale,
  type Decimal,
} from '../decimal';
import { ConflictError, InvalidError, NotFoundError, type FieldErrors } from '../errors';
import { newId } from '../ids';
import { codedMessages } from '../messageCodes';
import {
  createInvoice,
  getInvoice,
  methodsAsked,
  redirectUrlFault,
  type NewInvoice,
} from '../invoices/invoices';
import { gatewayMethods } from '../payments/accounts';
import { currencyDecimals, tooManyPlaces, unknownCurrency, valuePlaces } from '../rates/currencies';
import type { RateBook } from '../rates/rates';

// Payment links: a merchant's reusable page, made without code, at `<origin>/l/<slug>`: a title,
// a description, a fixed price or one the shopper chooses (within an optional range), in a
// currency, with the methods it offers, an optional expiry and an optional number of paid
// invoices it takes. Each "Pay" on its page makes an invoice through createInvoice, the one
// every invoice is made by (its checks, its rates, the plan's room), with the link's id on it.
// The slug is the page's key, random and unguessable (the id is the API's); each drawing of the
// page carries a visit token, and a visit makes at most one invoice however often it is posted.
// Every function takes the app's id: the gateway's and the portal's callers own the app check.

/** What a link's `status` says, from its row, its uses and the time. */
export type PaymentLinkStatus = 'active' | 'expired' | 'used_up' | 'deactivated';

/** Invoice statuses that use a link up: paid, or paid and waiting for confirmations. */
const USES: readonly ('processing' | 'settled')[] = ['processing', 'settled'];

const TITLE_MAX = 120;
const DESCRIPTION_MAX = 500;
const MAX_USES = 1_000_000;
const MAX_AMOUNT = parseDecimal('1000000000');
const SLUG_LENGTH = 16;
const SLUG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A link id the app does not have, and a new link's refusals (the id, a price's field, the
 * minimum and the time now are values; a too-precise price's is currencies.ts').
 */
const PAYMENT_LINK_MSG = codedMessages('paymentLink', {
  notFound: (id: string) => `No payment link ${id}.`,
  priceNotDecimal: (field: string) => `${field} must be a decimal string like "25.00".`,
  priceZero: (field: string) => `${field} must be above 0, like "25.00".`,
  priceTooHigh: (field: string) => `${field} must be at most 1000000000, like "25.00".`,
  titleEmpty: 'title must not be empty, like "Donation".',
  titleTooLong: `title must be at most ${TITLE_MAX} characters, like "Donation".`,
  descriptionTooLong: `description must be at most ${DESCRIPTION_MAX} characters, like "Thank you for your support".`,
  amountAndRange:
    'Give either amount (a fixed price) or amount_min and amount_max (the shopper chooses within them), not both.',
  maxBelowMin: (min: string) =>
    `amount_max must be at least amount_min (${min}), like "${min}" or more.`,
  expiresAtInvalid: 'expires_at must be an RFC 3339 date-time, like "2026-12-31T23:59:59Z".',
  expiresAtPast: (now: string) =>
    `expires_at must be in the future (it is ${now} now), like "2026-12-31T23:59:59Z".`,
  maxUsesInvalid: `max_uses must be a whole number from 1 to ${MAX_USES}, like 100.`,
} as const);

export interface NewPaymentLink {
  appId: string;
  title: string;
  description?: string;
  /** A fixed price; absent, the shopper chooses it (within amountMin and amountMax if given). */
  amount?: string;
  amountMin?: string;
  amountMax?: string;
  currency: string;
  /** Method codes; absent, every method with For Deposit on when the shopper pays. */
  methods?: readonly string[];
  redirectUrl?: string;
  /** An RFC 3339 time in the future. */
  expiresAt?: string;
  /** Paid invoices it takes (processing or settled ones), at least 1. */
  maxUses?: number;
  /** The origin the link's page is served from: `<origin>/l/<slug>`. */
  origin: string;
  now: Date;
}

/** What the link's answers need besides its row: where its page is, and the time. */
export interface LinkContext {
  origin: string;
  now: Date;
}

/** A link as the gateway (and the portal) show it. */
export interface PaymentLinkView {
  id: string;
  url: string;
  title: string;
  description: string | null;
  amount: string | null;
  amount_min: string | null;
  amount_max: string | null;
  currency: string;
  methods: string[] | null;
  redirect_url: string | null;
  expires_at: string | null;
  max_uses: number | null;
  status: PaymentLinkStatus;
  created_at: string;
  updated_at: string;
  totals: {
    invoices: number;
    paid_invoices: number;
    amount_paid: string;
    uses: number;
  };
}

type LinkRow = Selectable<PaymentLinksTable>;

/** 16 characters of [a-z0-9] from the system's randomness, each equally likely (~82 bits). */
function newSlug(): string {
  let slug = '';
  while (slug.length < SLUG_LENGTH) {
    for (const byte of randomBytes(SLUG_LENGTH * 2)) {
      // 252 = 7 × 36: the bytes above it would favour the alphabet's first characters.
      if (byte < 252 && slug.length < SLUG_LENGTH) slug += SLUG_ALPHABET[byte % 36];
    }
  }
  return slug;
}

/** A slug as newSlug makes them: anything else is not one, unasked. */
export function isSlug(text: string): boolean {
  return /^[a-z0-9]{16}$/.test(text);
}

/** What is wrong with a price `field` in `currency` (`places` decimals), or undefined. */
function priceFault(field: string, text: string, currency: string, places: number | undefined) {
  if (!isDecimalText(text)) return PAYMENT_LINK_MSG.priceNotDecimal(field);
  const value = parseDecimal(text);
  if (value.units === 0n) return PAYMENT_LINK_MSG.priceZero(field);
  if (compare(value, MAX_AMOUNT) > 0) return PAYMENT_LINK_MSG.priceTooHigh(field);
  if (places !== undefined && value.places > places) {
    return tooManyPlaces(currency, places, field, text);
  }
  return undefined;
}

/** The request's own faults, each under its field; all of them at once. */
async function refusals(db: Db, input: NewPaymentLink): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const title = input.title.trim();
  if (title === '') errors.title = [PAYMENT_LINK_MSG.titleEmpty];
  else if (input.title.length > TITLE_MAX) errors.title = [PAYMENT_LINK_MSG.titleTooLong];
  if (input.description !== undefined && input.description.length > DESCRIPTION_MAX) {
    errors.description = [PAYMENT_LINK_MSG.descriptionTooLong];
  }
  const places = currencyDecimals(input.currency);
  if (places === undefined) errors.currency = [unknownCurrency(input.currency)];
  const prices = [
    ['amount', input.amount],
    ['amount_min', input.amountMin],
    ['amount_max', input.amountMax],
  ] as const;
  for (const [field, text] of prices) {
    if (text === undefined) continue;
    const fault = priceFault(field, text, input.currency, places);
    if (fault !== undefined) errors[field] = [fault];
  }
  if (
    input.amount !== undefined &&
    (input.amountMin !== undefined || input.amountMax !== undefined)
  ) {
    errors.amount = [...(errors.amount ?? []), PAYMENT_LINK_MSG.amountAndRange];
  } else if (
    input.amountMin !== undefined &&
    input.amountMax !== undefined &&
    errors.amount_min === undefined &&
    errors.amount_max === undefined &&
    compare(parseDecimal(input.amountMin), parseDecimal(input.amountMax)) > 0
  ) {
    errors.amount_max = [PAYMENT_LINK_MSG.maxBelowMin(input.amountMin)];
  }
  if (input.methods !== undefined) {
    const { faults } = methodsAsked(await gatewayMethods(db, input.appId), input.methods);
    if (faults.length > 0) errors.methods = faults;
  }
  if (input.redirectUrl !== undefined) {
    const fault = redirectUrlFault(input.redirectUrl);
    if (fault !== undefined) errors.redirect_url = [fault];
  }
  if (input.expiresAt !== undefined) {
    const at = Date.parse(input.expiresAt);
    if (Number.isNaN(at)) {
      errors.expires_at = [PAYMENT_LINK_MSG.expiresAtInvalid];
    } else if (at <= input.now.getTime()) {
      errors.expires_at = [PAYMENT_LINK_MSG.expiresAtPast(input.now.toISOString())];
    }
  }
  if (
    input.maxUses !== undefined &&
    (!Number.isInteger(input.maxUses) || input.maxUses < 1 || input.maxUses > MAX_USES)
  ) {
    errors.max_uses = [PAYMENT_LINK_MSG.maxUsesInvalid];
  }
  return errors;
}

/**
 * A new link of `appId`: checked (every fault named by its field, all at once; nothing is
 * made), then written, active, with a slug of its own.
 */
export async function createPaymentLink(db: Db, input: NewPaymentLink): Promise<PaymentLinkView> {
  const errors = await refusals(db, input);
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);
  const at = input.now.toISOString();
  const row: LinkRow = {
    id: newId('plink'),
    app_id: input.appId,
    slug: newSlug(),
    title: input.title.trim(),
    description: input.description ?? null,
    amount: input.amount ?? null,
    amount_min: input.amountMin ?? null,
    amount_max: input.amountMax ?? null,
    currency: input.currency,
    methods: input.methods === undefined ? null : JSON.stringify(input.methods),
    redirect_url: input.redirectUrl ?? null,
    expires_at:
      input.expiresAt === undefined ? null : new Date(Date.parse(input.expiresAt)).toISOString(),
    max_uses: input.maxUses ?? null,
    active: 1,
    created_at: at,
    updated_at: at,
  };
  await db.insertInto('payment_links').values(row).execute();
  const [view] = await views(db, input.appId, [row], input);
  if (!view) throw new Error(`Payment link ${row.id} was not written`);
  return view;
}

/** Where a link stands: its merchant's switch first, then its expiry, then its uses. */
export function linkStatus(
  link: Pick<LinkRow, 'active' | 'expires_at' | 'max_uses'>,
  uses: number,
  now: Date,
): PaymentLinkStatus {
  if (link.active !== 1) return 'deactivated';
  if (link.expires_at !== null && Date.parse(link.expires_at) <= now.getTime()) return 'expired';
  if (link.max_uses !== null && uses >= link.max_uses) return 'used_up';
  return 'active';
}

interface Totals {
  invoices: number;
  paid: number;
  uses: number;
  amounts: Decimal[];
}

/** Per link of `ids`, its invoices counted by status and its settled invoices' amounts. */
async function totalsOf(db: Executor, appId: string, ids: readonly string[]) {
  const totals = new Map<string, Totals>(
    ids.map((id) => [id, { invoices: 0, paid: 0, uses: 0, amounts: [] }]),
  );
  if (ids.length === 0) return totals;
  const counts = await db
    .selectFrom('invoices')
    .select((eb) => ['payment_link_id', 'status', eb.fn.countAll<number | string>().as('n')])
    .where('app_id', '=', appId)
    .where('payment_link_id', 'in', ids)
    .groupBy(['payment_link_id', 'status'])
    .execute();
  for (const row of counts) {
    const total = totals.get(row.payment_link_id ?? '');
    if (!total) continue;
    const n = Number(row.n);
    total.invoices += n;
    if (row.status === 'settled') total.paid += n;
    if ((USES as readonly string[]).includes(row.status)) total.uses += n;
  }
  // Decimal text, summed exactly here: a database's sum of text would go through floats.
  const settled = await db
    .selectFrom('invoices')
    .select(['payment_link_id', 'amount'])
    .where('app_id', '=', appId)
    .where('payment_link_id', 'in', ids)
    .where('status', '=', 'settled')
    .execute();
  for (const row of settled)
    totals.get(row.payment_link_id ?? '')?.amounts.push(parseDecimal(row.amount));
  return totals;
}

/** The sum of `amounts` in `currency`, to its value places (or the amounts' own, if more). */
function amountPaid(amounts: readonly Decimal[], currency: string): string {
  const sum = amounts.reduce<Decimal>((a, b) => add(a, b), { units: 0n, places: 0 });
  const places = Math.max(valuePlaces(currency), sum.places);
  return formatFixed(rescale(sum, places, 'down'));
}

/** The links `rows` of `appId` as answered, with their totals, in the order of `rows`. */
async function views(
  db: Executor,
  appId: string,
  rows: readonly LinkRow[],
  context: LinkContext,
): Promise<PaymentLinkView[]> {
  const totals = await totalsOf(
    db,
    appId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const total = totals.get(row.id) ?? { invoices: 0, paid: 0, uses: 0, amounts: [] };
    return {
      id: row.id,
      url: `${context.origin}/l/${row.slug}`,
      title: row.title,
      description: row.description,
      amount: row.amount,
      amount_min: row.amount_min,
      amount_max: row.amount_max,
      currency: row.currency,
      methods: row.methods === null ? null : (JSON.parse(row.methods) as string[]),
      redirect_url: row.redirect_url,
      expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      max_uses: row.max_uses,
      status: linkStatus(row, total.uses, context.now),
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
      totals: {
        invoices: total.invoices,
        paid_invoices: total.paid,
        amount_paid: amountPaid(total.amounts, row.currency),
        uses: total.uses,
      },
    };
  });
}

/** The link `id` of `appId` with its totals; NotFoundError when the app has none. */
export async function getPaymentLink(
  db: Db,
  appId: string,
  id: string,
  context: LinkContext,
): Promise<PaymentLinkView> {
  const row = await db
    .selectFrom('payment_links')
    .selectAll()
    .where('id', '=', id)
    .where('app_id', '=', appId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(PAYMENT_LINK_MSG.notFound(id));
  const [view] = await views(db, appId, [row], context);
  if (!view) throw new NotFoundError(PAYMENT_LINK_MSG.notFound(id));
  return view;
}

/** A page of the app's links with their totals, newest first, by (created_at, id) cursor. */
export async function listPaymentLinks(
  db: Db,
  appId: string,
  page: { cursor: string | undefined; limit: number },
  context: LinkContext,
): Promise<{ links: PaymentLinkView[]; nextCursor: string | null }> {
  const rows = await db
    .selectFrom('payment_links')
    .selectAll()
    .where('app_id', '=', appId)
    .$if(page.cursor !== undefined, (q) => q.where(afterCursor('payment_links', page.cursor ?? '')))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, nextCursor } = pageOf('payment_links', rows, page.limit);
  return { links: await views(db, appId, shown, context), nextCursor };
}

/**
 * Page `page` (from 1) of the app's links with their totals, newest first, `perPage` a page,
 * with how many the app has (the portal's numbered pages).
 */
export async function paymentLinkPage(
  db: Db,
  appId: string,
  page: { page: number; perPage: number },
  context: LinkContext,
): Promise<{ links: PaymentLinkView[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('payment_links')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    db
      .selectFrom('payment_links')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow(),
  ]);
  return { links: await views(db, appId, rows, context), total: Number(count.n) };
}

/**
 * The merchant turns the link off: its page says so and makes no more invoices; invoices it
 * made stay payable. Turning off a link that is off changes nothing.
 */
export async function deactivatePaymentLink(
  db: Db,
  appId: string,
  id: string,
  context: LinkContext,
): Promise<PaymentLinkView> {
  await db
    .updateTable('payment_links')
    .set({ active: 0, updated_at: context.now.toISOString() })
    .where('id', '=', id)
    .where('app_id', '=', appId)
    .where('active', '=', 1)
    .execute();
  return getPaymentLink(db, appId, id, context);
}

/** A link's paid invoices: those processing or settled. */
async function usesOf(db: Executor, link: Pick<LinkRow, 'id' | 'app_id'>): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('app_id', '=', link.app_id)
    .where('payment_link_id', '=', link.id)
    .where('status', 'in', USES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a link's public page shows: the link, its app's name and logo and where it stands. */
export interface PublicPaymentLink {
  link: LinkRow;
  appName: string;
  /** The app's logo, a stored image's file name (public by name), or null. */
  appLogo: string | null;
  /** False for a test app's link: its page says no real money moves. */
  livemode: boolean;
  status: PaymentLinkStatus;
}

/** The link whose page is `/l/<slug>`, or undefined. */
export async function paymentLinkBySlug(
  db: Db,
  slug: string,
  now: Date,
): Promise<PublicPaymentLink | undefined> {
  const found = await db
    .selectFrom('payment_links as l')
    .innerJoin('apps as a', 'a.id', 'l.app_id')
    .selectAll('l')
    .select(['a.app_name', 'a.logo as app_logo', 'a.livemode as app_livemode'])
    .where('l.slug', '=', slug)
    .executeTakeFirst();
  if (!found) return undefined;
  const { app_name: appName, app_logo: appLogo, app_livemode: appLivemode, ...link } = found;
  return {
    link,
    appName,
    appLogo,
    livemode: appLivemode !== 0,
    status: linkStatus(link, await usesOf(db, link), now),
  };
}

/** A pay refused because the link no longer makes invoices: `status` says why. */
export class PaymentLinkClosedError extends ConflictError {
  constructor(readonly status: Exclude<PaymentLinkStatus, 'active'>) {
    super(`The payment link is ${status.replace('_', ' ')}: it makes no more invoices.`);
  }
}

/**
 * The shopper's amount refused: not a number (`invalid`: a plain decimal, its separator a point
 * or a comma, above 0), more decimals than the currency has (`places`), below the link's minimum
 * or above its maximum (`bound` names it).
 */
export class PaymentLinkAmountError extends InvalidError {
  constructor(
    readonly reason: 'invalid' | 'places' | 'tooLow' | 'tooHigh',
    readonly bound?: string,
  ) {
    const message =
      reason === 'invalid'
        ? 'amount must be a decimal number above 0, like "25.00".'
        : reason === 'places'
          ? 'amount has more decimals than its currency.'
          : reason === 'tooLow'
            ? `amount must be at least ${bound ?? ''}.`
            : `amount must be at most ${bound ?? ''}.`;
    super(undefined, { amount: [message] });
  }
}

/**
 * The amount a shopper typed, checked against the link: the plain decimal it is (`25,50` is
 * `25.50`, kept exactly as typed otherwise), or PaymentLinkAmountError.
 */
export function shopperAmount(
  link: Pick<LinkRow, 'currency' | 'amount_min' | 'amount_max'>,
  typed: string,
): string {
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(typed.trim());
  if (!match) throw new PaymentLinkAmountError('invalid');
  const [, whole = '', fraction] = match;
  const text = fraction === undefined ? whole : `${whole}.${fraction}`;
  const value = parseDecimal(text);
  const places = currencyDecimals(link.currency);
  if (places !== undefined && value.places > places) throw new PaymentLinkAmountError('places');
  if (link.amount_min !== null && compare(value, parseDecimal(link.amount_min)) < 0) {
    throw new PaymentLinkAmountError('tooLow', link.amount_min);
  }
  if (value.units === 0n) throw new PaymentLinkAmountError('invalid');
  const max = link.amount_max ?? formatFixed(MAX_AMOUNT);
  if (compare(value, parseDecimal(max)) > 0) throw new PaymentLinkAmountError('tooHigh', max);
  return text;
}

/** The invoice a visit of link `linkId` made, if it made one. */
async function visitInvoice(db: Executor, linkId: string, visit: string) {
  const row = await db
    .selectFrom('payment_link_visits')
    .select('invoice_id')
    .where('payment_link_id', '=', linkId)
    .where('visit', '=', visit)
    .executeTakeFirst();
  return row?.invoice_id;
}

/** Thrown inside the invoice's transaction to roll it back: the visit made one already. */
class VisitTaken extends Error {
  constructor(readonly invoiceId: string) {
    super('The visit has its invoice.');
  }
}

export interface LinkPayment {
  link: LinkRow;
  /** What the shopper typed, when the link has no fixed price. */
  amount: string | undefined;
  /** The visit token of the page the shopper posted. */
  visit: string;
  /** The origin of the checkout page: `<origin>/pay/<id>`. */
  checkoutOrigin: string;
  now: Date;
  tokenOnChain: NewInvoice['tokenOnChain'];
  /**
   * Called once the visit is new, the link open and the amount right, just before the invoice
   * is made: the caller's last word on it (the page's budget of invoices per client address);
   * what it throws is thrown.
   */
  beforeCreating?: () => Promise<void>;
}

/**
 * A shopper's "Pay" on a link's page: the invoice this visit made, if it made one; otherwise,
 * once the link is open (PaymentLinkClosedError) and the amount right (PaymentLinkAmountError),
 * a new invoice through createInvoice (its own refusals: rates, the plan's room, the methods),
 * described by the link's title, in its currency and methods, back to its redirect_url, written
 * in one transaction with the visit's row. Two posts of one visit at once make one invoice: the
 * second waits for the first's lock (on SQLite, its write lock), finds its visit and rolls its own
 * invoice back; should anything get past that, the visit's key refuses the second row, and the
 * visit is read again.
 */
export async function payInvoice(
  db: Db,
  rates: RateBook,
  xpub: string,
  payment: LinkPayment,
): Promise<Awaited<ReturnType<typeof getInvoice>>> {
  const { link, visit, now } = payment;
  const made = await visitInvoice(db, link.id, visit);
  if (made !== undefined) return getInvoice(db, link.app_id, made);
  const status = linkStatus(link, await usesOf(db, link), now);
  if (status !== 'active') throw new PaymentLinkClosedError(status);
  const amount = link.amount ?? shopperAmount(link, payment.amount ?? '');
  await payment.beforeCreating?.();
  try {
    return await createInvoice(db, rates, xpub, {
      appId: link.app_id,
      amount,
      currency: link.currency,
      methods: link.methods === null ? undefined : (JSON.parse(link.methods) as string[]),
      description: link.title,
      redirectUrl: link.redirect_url ?? undefined,
      checkoutOrigin: payment.checkoutOrigin,
      now,
      tokenOnChain: payment.tokenOnChain,
      paymentLinkId: link.id,
      alsoInTransaction: (trx, invoiceId) => recordVisit(trx, link, visit, invoiceId, now),
    });
  } catch (err) {
    const first =
      err instanceof VisitTaken ? err.invoiceId : await visitInvoice(db, link.id, visit);
    if (first !== undefined) return getInvoice(db, link.app_id, first);
    throw err;
  }
}

/** Inside the new invoice's transaction: the link still open, the visit not yet paid, its row. */
async function recordVisit(
  trx: Transaction<Database>,
  link: LinkRow,
  visit: string,
  invoiceId: string,
  now: Date,
): Promise<void> {
  await lockForTransaction(trx, `payment_link:${link.id}`);
  const first = await visitInvoice(trx, link.id, visit);
  if (first !== undefined) throw new VisitTaken(first);
  const current = await trx
    .selectFrom('payment_links')
    .select(['active', 'expires_at', 'max_uses'])
    .where('id', '=', link.id)
    .executeTakeFirstOrThrow();
  const status = linkStatus(current, await usesOf(trx, link), now);
  if (status !== 'active') throw new PaymentLinkClosedError(status);
  await trx
    .insertInto('payment_link_visits')
    .values({
      payment_link_id: link.id,
      visit,
      invoice_id: invoiceId,
      created_at: now.toISOString(),
    })
    .execute();
}
