import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection';
import type { RefundAmountKind, RefundRateKind, RefundStatus } from '../../db/schema';
import { refundRequest, type RequestSigner } from '../../signer/client/requestMac';
import type { GasBalanceReader } from '../chain/balances';
import { checkPayoutAddress } from '../chain/addresses';
import { divide, parseDecimal, toUnits, type Decimal } from '../decimal';
import { ConflictError, fieldInvalid, NotFoundError } from '../errors';
import { newId } from '../ids';
import { refuseOverPlan } from '../apps/plan';
import { INVOICE_MSG, loadInvoices, lockInvoice } from '../invoices/invoices';
import { InvoiceStateRefusal } from '../invoices/stateMachine';
import { invoiceView, type OptionRecord, type PaymentRecord } from '../invoices/views';
import { creditRefundedPayments } from '../invoices/settlement';
import { unitsToDecimal } from '../money';
import { gatewayMethods, type GatewayMethod } from '../payments/accounts';
import {
  cancelSendBeforeSigning,
  gasReserve,
  refuseLostDestination,
  reinitiateWithdrawal,
  WalletRefusedError,
  WITHDRAWAL_MSG,
} from '../payments/withdrawals';
import { currencyDecimals, displayPlaces } from '../rates/currencies';
import type { RateBook } from '../rates/rates';
import { emitRefundEvent } from '../webhooks/events';
import { fundRefund } from './funding';
import { refundRow, refundRows, refundView, sealClaimUrl, type Refund } from './views';
import { codedMessages } from '../messageCodes';

// Refunds: money an app gives back on one of its invoices, in one method the invoice was paid
// in, from the app's operational wallet of that method.
//
// The cap: the refunds of an invoice in a method that still hold their amount (every status but
// cancelled and expired) never total more than its confirmed payments in that method. It is
// checked under the invoice's lock (db/locks.ts), so of two concurrent refunds that together go
// over it, the second to take the lock is refused, on both engines; the signer checks it again
// against the chain before it signs (signer/server/refund.ts).
//
// Where the money goes: an address the merchant gives, or the one the shopper enters on the
// claim page (claims.ts); never the address the payment came from, by design. Once the
// destination is known the web process MACs what the signer may pay (requestMac.ts), and the
// refund is funded (funding.ts): queued for the signer, or awaiting funds.
//
// Statuses: pending_claim -> awaiting_funds -> queued -> processing -> completed, or failed
// (re-initiated back to queued, never paid twice), cancelled (before anything is signed), expired
// (a claim link nobody used). The refund.* events report created, claimed and the ends.

/** How long a claim link lasts. */
export const CLAIM_DAYS = 30;

/** Statuses whose amount counts against the cap. */
const RELEASED: readonly RefundStatus[] = ['cancelled', 'expired'];

/** Invoice statuses whose payments are final: settled, or ended without settling. */
const REFUNDABLE = ['settled', 'expired', 'invalid'] as const;

export const REFUND_MSG = {
  ...codedMessages('refund', {
    invoiceState: (status: string) =>
      `The invoice is ${status}: refund it once it is settled, expired or invalid, when its payments are final.`,
    nothingPaid: 'Nothing confirmed was paid on this invoice: there is nothing to refund.',
    notPaidIn: (code: string, paid: string) =>
      `The invoice was not paid in ${code}: it was paid in ${paid}.`,
    whichMethod: (paid: string) =>
      `The invoice was paid in ${paid}: name the method to refund in (method).`,
    notOverpaid: 'The invoice was not overpaid: refund it in full or a custom amount.',
    overpaidIn: (code: string) => `The invoice was overpaid in ${code}: refund in that method.`,
    overpaidDone: 'The overpaid part was refunded already.',
    allRefunded: (code: string) => `Everything paid in ${code} was refunded already.`,
    noLockedRate: (asset: string, currency: string) =>
      `The invoice locked no rate for ${asset}: refund an amount in ${asset}, or in ${currency} at the current rate (rate current).`,
    amountRequired: 'amount is required with amount_kind custom, like "10.00".',
    amountOnlyCustom: 'amount and currency are taken with amount_kind custom only.',
    currency: (invoiceCurrency: string, asset: string) =>
      `currency must be the invoice's currency (${invoiceCurrency}) or the token (${asset}).`,
    zero: (asset: string) => `The amount is less than the smallest unit of ${asset}: refund more.`,
    overCap: (left: string, asset: string, code: string, asked: string) =>
      `At most ${left} ${asset} can be refunded in ${code}, what was paid less what was refunded already; ${asked} ${asset} was asked.`,
    invoiceAddress:
      "address is the invoice's own address: the refund would be paid to the gateway, not the shopper.",
    notCancellable: (status: string) =>
      `The refund is ${status}: only a refund pending its claim, awaiting funds, queued or failed can be cancelled.`,
    signed: 'The refund’s transaction is signed and may be mined: it can no longer be cancelled.',
    notFailed: (status: string) =>
      `The refund is ${status}: only a failed refund can be re-initiated.`,
  } as const),
  /** A withdrawal's words (and code): the same refusal. */
  decimals: WITHDRAWAL_MSG.decimals,
} as const;

/** What a refund asks, enough to check and price it (its preview takes no more). */
export interface RefundQuoteAsk {
  appId: string;
  invoiceId: string;
  amountKind: RefundAmountKind;
  amount?: string;
  currency?: string;
  rate?: RefundRateKind;
  method?: string;
  address?: string;
  reason: string;
  now: Date;
  rates: Pick<RateBook, 'rateOf'>;
  /** Where a method's token is on the chain this server reads, when not at its listed contract. */
  tokenOnChain?: (chainId: number, listedContract: string) => string;
}

export interface RefundAsk extends RefundQuoteAsk {
  /** The server's public origin: the claim link is `<origin>/refund/<token>`. */
  origin: string;
  /** Seals the claim link for the merchant's later reads (SECRET_KEY). */
  serverKey: string;
  /** MACs the refund for the signer once its destination is known. */
  sign: RequestSigner;
  /** Reads the operational wallet's balances, on the transaction given. */
  readerFor: (db: Db) => GasBalanceReader;
}

/** What a refund request made: the refund, and its claim link when it has one. */
export interface Refunded {
  refund: Refund;
  claimUrl: string | null;
  /** Where the claim link is mailed: the invoice's buyer_email. */
  buyerEmail: string | null;
}

/**
 * What a refund may be paid in: each method the invoice offered, and each one it was paid in
 * without offering it (a flagged payment, accepted or not: its money is at the invoice's address
 * all the same), with the address paid and the rate an amount in the invoice's currency converts
 * at (the one locked for the same coin or token; null when none was).
 */
type Source = Pick<
  OptionRecord,
  'payment_method_id' | 'method_code' | 'asset' | 'decimals' | 'chain_id' | 'address'
> & { rate: string | null };

function refundSources(
  options: readonly OptionRecord[],
  payments: readonly PaymentRecord[],
): Source[] {
  const sources: Source[] = options.map((o) => ({
    payment_method_id: o.payment_method_id,
    method_code: o.method_code,
    asset: o.asset,
    decimals: o.decimals,
    chain_id: o.chain_id,
    address: o.address,
    rate: o.rate,
  }));
  for (const p of payments) {
    if (p.paid_to === null || sources.some((s) => s.payment_method_id === p.payment_method_id)) {
      continue;
    }
    sources.push({
      payment_method_id: p.payment_method_id,
      method_code: p.method_code,
      asset: p.asset,
      decimals: p.decimals,
      chain_id: p.chain_id,
      address: p.paid_to,
      rate: options.find((o) => o.asset === p.asset)?.rate ?? null,
    });
  }
  return sources;
}

/** Base units per method of the confirmed payments. */
function confirmedByMethod(
  payments: readonly { payment_method_id: string; amount_raw: string; status: string }[],
) {
  const paid = new Map<string, bigint>();
  for (const p of payments) {
    if (p.status !== 'confirmed') continue;
    paid.set(p.payment_method_id, (paid.get(p.payment_method_id) ?? 0n) + BigInt(p.amount_raw));
  }
  return paid;
}

/** Base units per method the invoice's refunds hold (all but cancelled and expired ones). */
async function refundedByMethod(db: Db, invoiceId: string): Promise<Map<string, bigint>> {
  const rows = await db
    .selectFrom('refunds')
    .select(['payment_method_id', 'amount_raw'])
    .where('invoice_id', '=', invoiceId)
    .where('status', 'not in', RELEASED)
    .execute();
  const held = new Map<string, bigint>();
  for (const r of rows) {
    held.set(r.payment_method_id, (held.get(r.payment_method_id) ?? 0n) + BigInt(r.amount_raw));
  }
  return held;
}

/** A decimal text's value, or a 422 on `field`. */
function decimalOf(field: string, text: string): Decimal {
  const value = /^[0-9]+(\.[0-9]+)?$/.test(text) ? parseDecimal(text) : null;
  if (!value || value.units === 0n) {
    throw fieldInvalid(field, `${field} must be a decimal number above 0, like "10.00".`);
  }
  return value;
}

interface Priced {
  amountRaw: bigint;
  requestedAmount: string | null;
  requestedCurrency: string | null;
  rate: string | null;
}

/** The token amount asked, before the cap (the caller checks it under the invoice's lock). */
async function priceOf(
  ask: RefundQuoteAsk,
  option: Source,
  invoice: { currency: string },
  overpaidRaw: bigint | null,
  left: bigint,
): Promise<Priced> {
  const none = { requestedAmount: null, requestedCurrency: null, rate: null };
  if (ask.amountKind !== 'custom' && (ask.amount !== undefined || ask.currency !== undefined)) {
    throw fieldInvalid('amount', REFUND_MSG.amountOnlyCustom);
  }
  if (ask.amountKind === 'full') return { amountRaw: left, ...none };
  if (ask.amountKind === 'overpaid') {
    if (overpaidRaw === null) throw fieldInvalid('amount_kind', REFUND_MSG.notOverpaid);
    return { amountRaw: overpaidRaw, ...none };
  }
  if (ask.amount === undefined) throw fieldInvalid('amount', REFUND_MSG.amountRequired);
  const amount = decimalOf('amount', ask.amount);
  const currency = (ask.currency ?? option.asset).toUpperCase();
  if (currency === option.asset || currency === option.method_code.toUpperCase()) {
    if (amount.places > option.decimals) {
      throw fieldInvalid('amount', REFUND_MSG.decimals(option.asset, option.decimals));
    }
    return {
      amountRaw: toUnits(amount, option.decimals, 'down'),
      requestedAmount: ask.amount,
      requestedCurrency: option.asset,
      rate: null,
    };
  }
  if (currency !== invoice.currency.toUpperCase()) {
    throw fieldInvalid('currency', REFUND_MSG.currency(invoice.currency, option.asset));
  }
  const places = currencyDecimals(invoice.currency) ?? option.decimals;
  if (amount.places > places) {
    throw fieldInvalid('amount', REFUND_MSG.decimals(invoice.currency, places));
  }
  if ((ask.rate ?? 'original') === 'original' && option.rate === null) {
    throw fieldInvalid('rate', REFUND_MSG.noLockedRate(option.asset, invoice.currency));
  }
  const rate =
    (ask.rate ?? 'original') === 'original' && option.rate !== null
      ? option.rate
      : (await ask.rates.rateOf(option.asset, invoice.currency, ask.now)).rate;
  // To the token's display precision (2 decimals for a stablecoin), as its prices are: 10.00 EUR
  // at a rate of 0.925925925925925926 is 10.80 USDT, not 10.799999999999999999.
  const shown = displayPlaces(option.asset, option.decimals);
  const tokens = divide(amount, parseDecimal(rate), shown, 'half-up');
  return {
    amountRaw: toUnits(tokens, option.decimals, 'down'),
    requestedAmount: ask.amount,
    requestedCurrency: invoice.currency,
    rate,
  };
}

/** A refund checked and priced, before the cap: what its request and its preview share. */
interface Planned {
  invoice: { id: string; buyer_email: string | null };
  option: Source;
  /** The merchant's address, checked; null for a claim link. */
  address: string | null;
  fromAddress: string;
  /** The overpaid part in the token, when the refund is in the method that went over. */
  overpaidRaw: bigint | null;
  /** The method's confirmed payments, in base units. */
  paidRaw: bigint;
  /** What the invoice's refunds of the method held when it was planned (read without the lock). */
  before: bigint;
  priced: Priced;
}

/**
 * Checks the invoice, the method, the address and the wallet, and prices the amount asked,
 * reading what the invoice's refunds hold now (the cap itself is the caller's).
 */
async function planRefund(db: Db, ask: RefundQuoteAsk): Promise<Planned> {
  const [record] = await loadInvoices(db, ask.appId, [ask.invoiceId]);
  if (!record) throw new NotFoundError(INVOICE_MSG.notFound(ask.invoiceId));
  const { invoice, options, payments } = record;
  if (!(REFUNDABLE as readonly string[]).includes(invoice.status)) {
    throw new InvoiceStateRefusal(invoice.status, REFUND_MSG.invoiceState(invoice.status));
  }
  const paid = confirmedByMethod(payments);
  const paidOptions = refundSources(options, payments).filter(
    (o) => (paid.get(o.payment_method_id) ?? 0n) > 0n,
  );
  if (paidOptions.length === 0) throw fieldInvalid('amount_kind', REFUND_MSG.nothingPaid);
  const paidIn = paidOptions.map((o) => o.method_code).join(' and ');
  const view = invoiceView(record);
  let option: Source | undefined;
  if (ask.method !== undefined) {
    option = paidOptions.find((o) => o.method_code === ask.method);
    if (!option) throw fieldInvalid('method', REFUND_MSG.notPaidIn(ask.method, paidIn));
  } else if (ask.amountKind === 'overpaid' && view.overpaid) {
    option = paidOptions.find((o) => o.method_code === view.overpaid?.method);
  } else if (paidOptions.length === 1) {
    option = paidOptions[0];
  }
  if (!option) throw fieldInvalid('method', REFUND_MSG.whichMethod(paidIn));
  const chosen = option;

  const method = (await gatewayMethods(db, ask.appId)).find(
    (m) => m.id === chosen.payment_method_id,
  );
  if (!method) throw fieldInvalid('method', WITHDRAWAL_MSG.notEnabled(chosen.method_code));
  if (method.networkType !== 'EVM' || gasReserve(method.chainId) === undefined) {
    throw fieldInvalid('method', WITHDRAWAL_MSG.notSupported(method.code, method.network));
  }
  const address = ask.address === undefined ? null : await destination(db, ask, method, chosen);
  const wallet = await db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('app_id', '=', ask.appId)
    .where('payment_method_id', '=', method.id)
    .executeTakeFirst();
  if (!wallet?.gas_address) {
    throw new WalletRefusedError('wallet_not_ready', WITHDRAWAL_MSG.walletNotReady(method.code));
  }

  // The overpaid part, exact in the token, as the invoice shows it (rounded down).
  const overpaidRaw =
    invoice.paid_over === 1 && view.overpaid && view.overpaid.method === chosen.method_code
      ? toUnits(parseDecimal(view.overpaid.amount), chosen.decimals, 'down')
      : null;
  if (ask.amountKind === 'overpaid' && view.overpaid && overpaidRaw === null) {
    throw fieldInvalid('method', REFUND_MSG.overpaidIn(view.overpaid.method));
  }
  const paidRaw = paid.get(chosen.payment_method_id) ?? 0n;
  const before = (await refundedByMethod(db, invoice.id)).get(chosen.payment_method_id) ?? 0n;
  const priced = await priceOf(
    ask,
    chosen,
    invoice,
    overpaidRaw === null ? null : overpaidRaw - before,
    paidRaw - before,
  );
  return {
    invoice,
    option: chosen,
    address,
    fromAddress: wallet.gas_address,
    overpaidRaw,
    paidRaw,
    before,
    priced,
  };
}

/**
 * The amount a planned refund pays given what the invoice's refunds of its method hold
 * (`held`), and what is left to refund: refused when zero or over the cap.
 */
function underCap(ask: RefundQuoteAsk, plan: Planned, held: bigint) {
  const left = plan.paidRaw - held;
  const amountRaw =
    ask.amountKind === 'full'
      ? left
      : ask.amountKind === 'overpaid'
        ? (plan.overpaidRaw ?? 0n) - held
        : plan.priced.amountRaw;
  refuseOverCap(ask, plan.option, amountRaw, left);
  return { amountRaw, left };
}

/** What a refund would pay, as its preview shows it before the merchant confirms. */
export interface RefundPreview {
  method: string;
  chainId: number;
  /** The coin or token paid (USDT, BNB, ...). */
  asset: string;
  /** What it would pay, exactly, in the token. */
  amount: string;
  /** The rate an amount in the invoice's currency is converted at; null for one in the token. */
  rate: string | null;
  rateKind: RefundRateKind;
  /** What is left to refund in the method now, the cap less what its refunds hold. */
  refundable: string;
}

/**
 * Previews a refund (the portal's Refund, before its confirmation): the same checks, price and
 * cap as requestRefund, read without the invoice's lock, and nothing written. The request
 * checks the cap again under the lock, so a refund asked in between can still refuse it.
 */
export async function previewRefund(db: Db, ask: RefundQuoteAsk): Promise<RefundPreview> {
  const plan = await planRefund(db, ask);
  const { amountRaw, left } = underCap(ask, plan, plan.before);
  await refuseOverPlan(db, ask.appId, ask.now, 'withdrawal');
  const { decimals } = plan.option;
  return {
    method: plan.option.method_code,
    chainId: plan.option.chain_id,
    asset: plan.option.asset,
    amount: unitsToDecimal(amountRaw, decimals),
    rate: plan.priced.rate,
    rateKind: ask.rate ?? 'original',
    refundable: unitsToDecimal(left, decimals),
  };
}

/**
 * Asks for a refund (POST /invoices/{id}/refunds, the portal's Refund): checks the invoice, the
 * method, the amount and the address, then under the invoice's lock the cap and the plan, and
 * writes it with its refund.created event: with a claim link (pending_claim), or with the
 * merchant's address, funded at once when the wallet covers it.
 */
export async function requestRefund(db: Db, ask: RefundAsk): Promise<Refunded> {
  const plan = await planRefund(db, ask);
  const { invoice, option: chosen, address, priced } = plan;

  const id = newId('rf');
  const at = ask.now.toISOString();
  const token = address === null ? randomBytes(24).toString('base64url') : null;
  const claimUrl = token === null ? null : `${ask.origin}/refund/${token}`;
  const refund = await db.transaction().execute(async (trx) => {
    await lockInvoice(trx, invoice.id);
    const held = (await refundedByMethod(trx, invoice.id)).get(chosen.payment_method_id) ?? 0n;
    const { amountRaw } = underCap(ask, plan, held);
    await refuseOverPlan(trx, ask.appId, ask.now, 'withdrawal');
    // The money refunded is the shopper's, at the invoice's address: taken in once, if no
    // settlement did, so the merchant does not pay it back out of pocket and leave it there.
    const [record] = await loadInvoices(trx, ask.appId, [invoice.id]);
    if (record) await creditRefundedPayments(trx, record, chosen.payment_method_id, ask.now);
    const row = {
      id,
      app_id: ask.appId,
      invoice_id: invoice.id,
      payment_method_id: chosen.payment_method_id,
      amount_raw: amountRaw.toString(),
      paid_to: chosen.address,
      from_address: plan.fromAddress,
    };
    await trx
      .insertInto('refunds')
      .values({
        ...row,
        status: address === null ? 'pending_claim' : 'awaiting_funds',
        amount_kind: ask.amountKind,
        requested_amount: priced.requestedAmount,
        requested_currency: priced.requestedCurrency,
        rate_kind: ask.rate ?? 'original',
        rate: priced.rate,
        reason: ask.reason,
        address,
        address_source: address === null ? null : 'merchant',
        claim_token_hash: token === null ? null : claimTokenHash(token),
        claim_token_sealed: claimUrl === null ? null : sealClaimUrl(ask.serverKey, id, claimUrl),
        claim_expires_at:
          token === null
            ? null
            : new Date(ask.now.getTime() + CLAIM_DAYS * 86_400_000).toISOString(),
        request_mac: address === null ? null : ask.sign(refundRequest({ ...row, address })),
        created_at: at,
        updated_at: at,
      })
      .execute();
    if (address !== null) await fundRefund(trx, ask.readerFor(trx), id, ask.now);
    const written = refundView(await refundRow(trx, ask.appId, id), { serverKey: ask.serverKey });
    await emitRefundEvent(trx, ask.appId, written, 'refund.created', ask.now);
    return written;
  });
  return { refund, claimUrl, buyerEmail: invoice.buyer_email };
}

/** Refuses an amount of zero or over what is left to refund (a 422 naming the field asked). */
function refuseOverCap(ask: RefundQuoteAsk, option: Source, amountRaw: bigint, left: bigint) {
  const field = ask.amountKind === 'custom' ? 'amount' : 'amount_kind';
  if (ask.amountKind === 'full' && left <= 0n) {
    throw fieldInvalid(field, REFUND_MSG.allRefunded(option.method_code));
  }
  if (ask.amountKind === 'overpaid' && amountRaw <= 0n) {
    throw fieldInvalid(field, REFUND_MSG.overpaidDone);
  }
  if (amountRaw <= 0n) throw fieldInvalid(field, REFUND_MSG.zero(option.asset));
  if (amountRaw > left) {
    throw fieldInvalid(
      field,
      REFUND_MSG.overCap(
        unitsToDecimal(left < 0n ? 0n : left, option.decimals),
        option.asset,
        option.method_code,
        unitsToDecimal(amountRaw, option.decimals),
      ),
    );
  }
}

/** A merchant's or shopper's address for the refund, checked as a withdrawal's destination is. */
export async function destination(
  db: Db,
  ask: Pick<RefundQuoteAsk, 'appId' | 'tokenOnChain' | 'address'>,
  method: GatewayMethod,
  option: Pick<OptionRecord, 'address'>,
): Promise<string> {
  const checked = checkPayoutAddress(method.networkType === 'EVM' ? 'EVM' : 'TRON', ask.address);
  if (!checked.ok) throw fieldInvalid('address', WITHDRAWAL_MSG.address(method.network));
  await refuseLostDestination(db, ask, method, checked.address, 'address');
  if (checked.address.toLowerCase() === option.address.toLowerCase()) {
    throw fieldInvalid('address', REFUND_MSG.invoiceAddress);
  }
  return checked.address;
}

/** The SHA-256 (hex) a claim token is found by. */
export function claimTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Cancels a refund (POST /refunds/{id}/cancel): one pending its claim or awaiting funds at once;
 * one queued only while its send is unsigned (a compare-and-set on exactly that), its send
 * cancelled with it. Its amount is refundable again.
 */
export async function cancelRefund(db: Db, appId: string, id: string, now: Date) {
  const current = await refundRow(db, appId, id);
  const moved = await db.transaction().execute(async (trx) => {
    if (current.send_id !== null) {
      // The send's move carries the refund's (sendStatus.ts), with refund.cancelled.
      return cancelSendBeforeSigning(trx, current.send_id, now);
    }
    const result = await trx
      .updateTable('refunds')
      .set({ status: 'cancelled', waiting_message: null, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', 'in', ['pending_claim', 'awaiting_funds'])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    const row = await refundRows(trx).where('refunds.id', '=', id).executeTakeFirstOrThrow();
    await emitRefundEvent(trx, appId, refundView(row, null), 'refund.cancelled', now);
    return true;
  });
  const after = await refundRow(db, appId, id);
  if (!moved) {
    throw new ConflictError(
      after.status === 'processing' || after.status === 'failed'
        ? REFUND_MSG.signed
        : REFUND_MSG.notCancellable(after.status),
    );
  }
  return refundView(after, null);
}

/**
 * Re-initiates a failed refund (the portal's Re-initiate): its send goes back to Queued through
 * the withdrawals' own re-initiate (nothing broadcast, or what was broadcast failed on chain: it
 * is never paid twice; the wallet's reservation taken again), which moves the refund with it.
 */
export async function reinitiateRefund(
  db: Db,
  readerFor: (db: Db) => GasBalanceReader,
  user: { userId: string; appId: string },
  id: string,
  now: Date,
): Promise<Refund> {
  const current = await refundRow(db, user.appId, id);
  if (current.status !== 'failed' || current.send_id === null) {
    throw new ConflictError(REFUND_MSG.notFailed(current.status));
  }
  await reinitiateWithdrawal(db, readerFor, user.userId, current.send_id, now);
  return refundView(await refundRow(db, user.appId, id), null);
}
