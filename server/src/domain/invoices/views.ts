import type { Selectable } from 'kysely';
import type { InvoicePaymentsTable, InvoicesTable, RefundStatus } from '../../db/schema';
import type { components } from '../../generated/gateway.gen';
import { NATIVE_LOG_INDEX } from '../chain/adapter';
import {
  add,
  divide,
  formatDecimal,
  formatFixed,
  parseDecimal,
  rescale,
  subtractFloor,
  toUnits,
  type Decimal,
} from '../decimal';
import { unitsToDecimal } from '../money';
import { displayPlaces, valuePlaces } from '../rates/currencies';
import type { MachineInvoice, MachinePayment } from './stateMachine';
import type { Unmoded } from '../livemode';
import { isTronChain } from '../chain/specChains';

type Invoice = Unmoded<components['schemas']['Invoice']>;

// An invoice as the gateway shows it, shared by its handlers and by the invoice webhooks, whose
// `data` must be exactly what GET /invoices/{id} answers. Values in the invoice's currency are
// written to its decimals (what was paid rounded down, what is due rounded up); token amounts are
// exact, without trailing zeros, as deposits' are.

/** A payment option with its method. */
export interface OptionRecord {
  payment_method_id: string;
  method_code: string;
  /** The coin or token (USDT, BNB, ...): what the rate prices. */
  asset: string;
  decimals: number;
  chain_id: number;
  address: string;
  token_contract: string | null;
  amount_due_raw: string;
  rate: string;
  rate_source: string;
  rate_at: string;
}

/** A payment with its method. */
export type PaymentRecord = Pick<
  Selectable<InvoicePaymentsTable>,
  | 'id'
  | 'payment_method_id'
  | 'chain_id'
  | 'tx_hash'
  | 'log_index'
  | 'block_number'
  | 'amount_raw'
  | 'value'
  | 'confirmations'
  | 'status'
  | 'late'
  | 'created_at'
  | 'flag'
  | 'accepted_at'
  | 'paid_to'
  | 'credit_id'
> & { method_code: string; decimals: number; asset: string };

/**
 * Whether a payment counts toward its invoice: one in a method the invoice offers does; one it
 * did not ask for (another network's or another token's, flagged) only once the merchant accepts
 * it. Neither counts once a reorg removed it.
 */
export function counts(p: Pick<PaymentRecord, 'status' | 'flag' | 'accepted_at'>): boolean {
  return p.status !== 'removed' && (p.flag === null || p.accepted_at !== null);
}

/** A refund of the invoice, in short, with its method. */
export interface RefundRecord {
  id: string;
  status: RefundStatus;
  payment_method_id: string;
  method_code: string;
  decimals: number;
  amount_raw: string;
  created_at: string;
}

export interface InvoiceRecord {
  invoice: Selectable<InvoicesTable>;
  options: OptionRecord[];
  payments: PaymentRecord[];
  refunds: RefundRecord[];
}

/** What the state machine reads of the stored invoice. */
export function machineInvoice(invoice: Selectable<InvoicesTable>): MachineInvoice {
  return {
    status: invoice.status,
    paidPartial: invoice.paid_partial === 1,
    paidOver: invoice.paid_over === 1,
    paidLate: invoice.paid_late === 1,
    marked: invoice.marked === 1,
    invalidReason: invoice.invalid_reason,
    amount: invoice.amount,
    valuePlaces: Math.max(valuePlaces(invoice.currency), parseDecimal(invoice.amount).places),
    expiresAt: new Date(invoice.expires_at),
    underpaymentTolerance: invoice.underpayment_tolerance,
    lateWindowMinutes: invoice.late_window_minutes,
  };
}

export function machinePayments(
  payments: readonly Pick<
    PaymentRecord,
    'value' | 'status' | 'created_at' | 'flag' | 'accepted_at'
  >[],
): MachinePayment[] {
  // A removed payment is the machine's to see (an invoice it took to processing is invalid).
  return payments
    .filter((p) => p.flag === null || p.accepted_at !== null)
    .map((p) => ({
      value: p.value,
      status: p.status,
      paidAt: new Date(p.created_at),
    }));
}

/** EIP-681: `ethereum:<token>@<chain>/transfer?address=…&uint256=…`, or the coin's form. */
export function paymentUri(option: OptionRecord, raw: bigint): string | null {
  if (isTronChain(option.chain_id)) return null;
  return option.token_contract
    ? `ethereum:${option.token_contract}@${option.chain_id}/transfer?address=${option.address}&uint256=${raw}`
    : `ethereum:${option.address}@${option.chain_id}?value=${raw}`;
}

const EXCEPTIONS = ['paid_partial', 'paid_over', 'paid_late', 'marked'] as const;
const ZERO: Decimal = { units: 0n, places: 0 };

/**
 * The refund flags: what went back (completed refunds) against what was confirmed as paid, per
 * method: all of it in every method paid in is `refunded`, any of it `partially_refunded`.
 */
function refundFlags(
  payments: readonly PaymentRecord[],
  refunded: ReadonlyMap<string, bigint>,
): ('partially_refunded' | 'refunded')[] {
  if (refunded.size === 0) return [];
  const confirmed = new Map<string, bigint>();
  for (const p of payments) {
    if (p.status !== 'confirmed' || !counts(p)) continue;
    confirmed.set(
      p.payment_method_id,
      (confirmed.get(p.payment_method_id) ?? 0n) + BigInt(p.amount_raw),
    );
  }
  const all = [...confirmed].every(([method, paid]) => (refunded.get(method) ?? 0n) >= paid);
  return [all ? 'refunded' : 'partially_refunded'];
}

export function invoiceView({ invoice, options, payments, refunds }: InvoiceRecord): Invoice {
  const amount = parseDecimal(invoice.amount);
  const places = Math.max(valuePlaces(invoice.currency), amount.places);
  const inCurrency = (value: Decimal, rounding: 'down' | 'up') =>
    formatFixed(rescale(value, places, rounding));

  // One pass over the payments that count (not removed by a reorg): their value in the
  // currency, each method's token units, and the last one paid (the excess is in its coin).
  let paid: Decimal = ZERO;
  const paidByMethod = new Map<string, bigint>();
  let last: PaymentRecord | undefined;
  for (const p of payments) {
    if (!counts(p)) continue;
    paid = add(paid, parseDecimal(p.value));
    const method = p.payment_method_id;
    paidByMethod.set(method, (paidByMethod.get(method) ?? 0n) + BigInt(p.amount_raw));
    if (last === undefined || p.created_at.localeCompare(last.created_at) >= 0) last = p;
  }
  const left = subtractFloor(amount, paid);
  const refundedByMethod = new Map<string, bigint>();
  for (const r of refunds) {
    if (r.status !== 'completed') continue;
    const method = r.payment_method_id;
    refundedByMethod.set(method, (refundedByMethod.get(method) ?? 0n) + BigInt(r.amount_raw));
  }

  const optionViews = options.map((option) => {
    // What is left, in the coin at the locked rate: only while something is.
    const due =
      left.units === 0n
        ? 0n
        : toUnits(
            divide(
              left,
              parseDecimal(option.rate),
              displayPlaces(option.asset, option.decimals),
              'up',
            ),
            option.decimals,
            'up',
          );
    const amountDue = BigInt(option.amount_due_raw);
    return {
      method: option.method_code,
      chain_id: option.chain_id,
      token_contract: option.token_contract,
      address: option.address,
      amount_due: unitsToDecimal(amountDue, option.decimals),
      rate: option.rate,
      rate_source: option.rate_source,
      rate_at: new Date(option.rate_at).toISOString(),
      payment_uri: paymentUri(option, amountDue),
      paid: unitsToDecimal(paidByMethod.get(option.payment_method_id) ?? 0n, option.decimals),
      due: unitsToDecimal(due, option.decimals),
      refunded: unitsToDecimal(
        refundedByMethod.get(option.payment_method_id) ?? 0n,
        option.decimals,
      ),
    };
  });

  // The excess, in the currency and in the coin of the payment that went over.
  let overpaid: Invoice['overpaid'] = null;
  const lastOption =
    invoice.paid_over === 1 && last
      ? options.find((o) => o.payment_method_id === last.payment_method_id)
      : undefined;
  if (last && lastOption) {
    const over = subtractFloor(paid, amount);
    const shown = displayPlaces(lastOption.asset, lastOption.decimals);
    const excess = divide(over, parseDecimal(lastOption.rate), shown, 'down');
    overpaid = {
      value: inCurrency(over, 'down'),
      method: last.method_code,
      amount: formatDecimal(excess),
    };
  }

  const flags = {
    paid_partial: invoice.paid_partial,
    paid_over: invoice.paid_over,
    paid_late: invoice.paid_late,
    marked: invoice.marked,
  };
  return {
    id: invoice.id,
    status: invoice.status,
    exceptions: [
      ...EXCEPTIONS.filter((flag) => flags[flag] === 1),
      ...refundFlags(payments, refundedByMethod),
    ],
    invalid_reason: invoice.invalid_reason,
    mark_reason: invoice.mark_reason,
    amount: invoice.amount,
    currency: invoice.currency,
    paid: inCurrency(paid, 'down'),
    due: inCurrency(left, 'up'),
    overpaid,
    order_id: invoice.order_id,
    description: invoice.description,
    buyer_email: invoice.buyer_email,
    metadata:
      invoice.metadata === null ? null : (JSON.parse(invoice.metadata) as Record<string, unknown>),
    redirect_url: invoice.redirect_url,
    checkout_url: invoice.checkout_url,
    payment_link_id: invoice.payment_link_id,
    underpayment_tolerance: invoice.underpayment_tolerance,
    late_window_minutes: invoice.late_window_minutes,
    created_at: new Date(invoice.created_at).toISOString(),
    expires_at: new Date(invoice.expires_at).toISOString(),
    updated_at: new Date(invoice.updated_at).toISOString(),
    payment_options: optionViews,
    payments: payments.map((p) => ({
      id: p.id,
      method: p.method_code,
      chain_id: p.chain_id,
      tx_hash: p.tx_hash,
      log_index: p.log_index === NATIVE_LOG_INDEX ? null : p.log_index,
      block_number: p.block_number,
      amount: unitsToDecimal(BigInt(p.amount_raw), p.decimals),
      value: inCurrency(parseDecimal(p.value), 'down'),
      confirmations: p.confirmations,
      status: p.status,
      late: p.late === 1,
      flag: p.flag,
      accepted: p.flag !== null && p.accepted_at !== null,
      created_at: new Date(p.created_at).toISOString(),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      status: r.status,
      method: r.method_code,
      amount: unitsToDecimal(BigInt(r.amount_raw), r.decimals),
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}
