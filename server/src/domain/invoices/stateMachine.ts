import {
  add,
  compare,
  divide,
  multiply,
  parseDecimal,
  rescale,
  subtractFloor,
  type Decimal,
} from '../decimal';
import { ConflictError } from '../errors';
import { MARKABLE_FROM } from '../../../../src/shared/invoices';
import { codedMessages } from '../messageCodes';

// An invoice's status and exception flags, decided in one place from what it is and what was
// paid: pure (no clock, no database), so every caller (the watcher, the expiry job, the
// gateway's cancel and mark) applies the same rules, in the same transaction as the change that
// made them run.
//
// The payments are judged first (`situationOf`): what they are worth in the invoice's currency at
// their locked rates (removed ones count for nothing), whether they cover the amount within the
// app's underpayment tolerance, whether the confirmed ones alone do, and whether the payment
// that completed the amount came on time, within the late window after the expiry, or later.
// The table then says where each status goes in each situation. Settled, invalid and marked
// invoices stay where they are: only their flags follow the payments.

export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type InvalidReason = 'cancelled' | 'marked' | 'payment_removed';
export type PaymentStatus = 'pending' | 'confirmed' | 'removed';
export type StatusEvent =
  'invoice.processing' | 'invoice.settled' | 'invoice.expired' | 'invoice.invalid';

export interface InvoiceFlags {
  paidPartial: boolean;
  paidOver: boolean;
  paidLate: boolean;
  marked: boolean;
}

export interface InvoiceState extends InvoiceFlags {
  status: InvoiceStatus;
  invalidReason: InvalidReason | null;
}

/** What the rules read of an invoice. */
export interface MachineInvoice extends InvoiceState {
  /** The price, decimal text. */
  amount: string;
  /**
   * The places its values are shown to (the currency's, or more if the amount has them): a
   * payment above the amount only by what an amount due's rounding up adds is not paid_over.
   */
  valuePlaces: number;
  expiresAt: Date;
  /** Percent, decimal text: payments short by at most this much count as full. */
  underpaymentTolerance: string;
  lateWindowMinutes: number;
}

/** What the rules read of a payment. */
export interface MachinePayment {
  /** Its worth in the invoice's currency at its method's locked rate, exact decimal text. */
  value: string;
  status: PaymentStatus;
  /** The time of its block: a payment mined before the expiry is on time, however late seen. */
  paidAt: Date;
}

/**
 * Where the payments leave the invoice:
 * - `short`: they do not cover it (with the tolerance), and it has not expired;
 * - `shortExpired`: they do not cover it, and it has expired;
 * - `covered`: they cover it, completed on time or within the late window, not all final yet;
 * - `final`: as covered, and the confirmed payments alone cover it;
 * - `coveredTooLate`: they cover it only with a payment after the late window.
 */
export type Situation = 'short' | 'shortExpired' | 'covered' | 'final' | 'coveredTooLate';

/** The next status, per status and situation: the whole of the state machine's moves. */
export const TRANSITIONS: Readonly<
  Record<InvoiceStatus, Readonly<Record<Situation, InvoiceStatus>>>
> = {
  new: {
    short: 'new',
    shortExpired: 'expired',
    covered: 'processing',
    final: 'settled',
    coveredTooLate: 'expired',
  },
  // A covering payment gone (a reorg): back to new, or invalid once expired.
  processing: {
    short: 'new',
    shortExpired: 'invalid',
    covered: 'processing',
    final: 'settled',
    coveredTooLate: 'invalid',
  },
  settled: {
    short: 'settled',
    shortExpired: 'settled',
    covered: 'settled',
    final: 'settled',
    coveredTooLate: 'settled',
  },
  // A payment completing it within the late window takes it on, flagged paid_late.
  expired: {
    short: 'expired',
    shortExpired: 'expired',
    covered: 'processing',
    final: 'settled',
    coveredTooLate: 'expired',
  },
  invalid: {
    short: 'invalid',
    shortExpired: 'invalid',
    covered: 'invalid',
    final: 'invalid',
    coveredTooLate: 'invalid',
  },
};

/** The events of a move, in the order a receiver should see them (none for back to new). */
function eventsOf(from: InvoiceStatus, to: InvoiceStatus): StatusEvent[] {
  if (from === to) return [];
  switch (to) {
    case 'processing':
      return ['invoice.processing'];
    case 'settled':
      return from === 'processing'
        ? ['invoice.settled']
        : ['invoice.processing', 'invoice.settled'];
    case 'expired':
      return ['invoice.expired'];
    case 'invalid':
      return ['invoice.invalid'];
    case 'new':
      return [];
  }
}

const HUNDRED = parseDecimal('100');

/** What the counted payments are worth in the invoice's currency, exact. */
export function paidValue(payments: readonly MachinePayment[]): Decimal {
  return payments
    .filter((p) => p.status !== 'removed')
    .reduce((sum, p) => add(sum, parseDecimal(p.value)), parseDecimal('0'));
}

/** The amount less the tolerance: what the payments must reach to count as full. */
function threshold(invoice: MachineInvoice): Decimal {
  const keep = subtractFloor(HUNDRED, parseDecimal(invoice.underpaymentTolerance));
  // Exact: divided by 100, so at most two more places than amount × (100 - tolerance).
  const places = parseDecimal(invoice.amount).places + keep.places + 2;
  return divide(multiply(parseDecimal(invoice.amount), keep), HUNDRED, places, 'down');
}

/** The time of the payment that brings `payments` (in payment order) up to `target`, if any. */
function completedAt(payments: readonly MachinePayment[], target: Decimal): Date | null {
  let sum = parseDecimal('0');
  const inOrder = [...payments].sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
  for (const payment of inOrder) {
    sum = add(sum, parseDecimal(payment.value));
    if (compare(sum, target) >= 0) return payment.paidAt;
  }
  return null;
}

export function situationOf(
  invoice: MachineInvoice,
  payments: readonly MachinePayment[],
  now: Date,
): Situation {
  const counted = payments.filter((p) => p.status !== 'removed');
  const target = threshold(invoice);
  const completed = completedAt(counted, target);
  if (completed === null) return now >= invoice.expiresAt ? 'shortExpired' : 'short';
  const lateDeadline = invoice.expiresAt.getTime() + invoice.lateWindowMinutes * 60_000;
  if (completed.getTime() > lateDeadline) return 'coveredTooLate';
  const confirmed = counted.filter((p) => p.status === 'confirmed');
  return completedAt(confirmed, target) === null ? 'covered' : 'final';
}

/** The flags the payments give (marked aside, which only the merchant sets). */
export function paymentFlags(
  invoice: MachineInvoice,
  payments: readonly MachinePayment[],
): Omit<InvoiceFlags, 'marked'> {
  const counted = payments.filter((p) => p.status !== 'removed');
  const paid = paidValue(counted);
  return {
    paidPartial: paid.units > 0n && compare(paid, threshold(invoice)) < 0,
    paidOver: compare(rescale(paid, invoice.valuePlaces, 'down'), parseDecimal(invoice.amount)) > 0,
    paidLate: counted.some((p) => p.paidAt > invoice.expiresAt),
  };
}

export interface Transition {
  state: InvoiceState;
  /** The status events to record, in order; empty when the status did not move. */
  events: StatusEvent[];
}

/** Where the payments and the time take the invoice now. A marked invoice keeps its status. */
export function nextState(
  invoice: MachineInvoice,
  payments: readonly MachinePayment[],
  now: Date,
): Transition {
  const flags = { ...paymentFlags(invoice, payments), marked: invoice.marked };
  const to = invoice.marked
    ? invoice.status
    : TRANSITIONS[invoice.status][situationOf(invoice, payments, now)];
  const invalidReason =
    to === 'invalid' && invoice.status !== 'invalid' ? 'payment_removed' : invoice.invalidReason;
  return {
    state: { status: to, ...flags, invalidReason },
    events: eventsOf(invoice.status, to),
  };
}

/** Why a cancel or mark is refused (the status is a value, as the server wrote it). */
export const INVOICE_STATE_MSG = codedMessages('invoiceState', {
  onlyNewCancelled: (status: string) =>
    `The invoice is ${status}: only a new invoice can be cancelled.`,
  hasPayments: 'The invoice has payments: it can no longer be cancelled. Mark it invalid instead.',
  settledFinal: 'The invoice is settled: it cannot be marked any more.',
  notMarkable: (status: string, target: string) =>
    `The invoice is ${status}: it cannot be marked ${target}.`,
} as const);

/** A cancel or mark the invoice's status does not allow (the gateway's 409 invoice_state). */
export class InvoiceStateRefusal extends ConflictError {
  constructor(
    readonly status: InvoiceStatus,
    message: string,
  ) {
    super(message);
  }
}

/** Cancel: an unpaid new invoice becomes invalid, reason cancelled. */
export function cancelState(
  invoice: MachineInvoice,
  payments: readonly MachinePayment[],
): Transition {
  if (invoice.status !== 'new') {
    throw new InvoiceStateRefusal(
      invoice.status,
      INVOICE_STATE_MSG.onlyNewCancelled(invoice.status),
    );
  }
  if (payments.some((p) => p.status !== 'removed')) {
    throw new InvoiceStateRefusal(invoice.status, INVOICE_STATE_MSG.hasPayments);
  }
  return {
    state: { ...invoice, status: 'invalid', invalidReason: 'cancelled' },
    events: eventsOf(invoice.status, 'invalid'),
  };
}

/** Which statuses the merchant may mark each way from (shared with the portal's buttons). */
const MARKABLE: Readonly<Record<'settled' | 'invalid', readonly InvoiceStatus[]>> = MARKABLE_FROM;

/** The merchant's decision: settled or invalid by hand, flagged marked, final from then on. */
export function markState(
  invoice: MachineInvoice,
  payments: readonly MachinePayment[],
  target: 'settled' | 'invalid',
): Transition {
  if (!MARKABLE[target].includes(invoice.status)) {
    throw new InvoiceStateRefusal(
      invoice.status,
      invoice.status === 'settled'
        ? INVOICE_STATE_MSG.settledFinal
        : INVOICE_STATE_MSG.notMarkable(invoice.status, target),
    );
  }
  return {
    state: {
      status: target,
      ...paymentFlags(invoice, payments),
      marked: true,
      invalidReason: target === 'invalid' ? 'marked' : null,
    },
    // The merchant's decision is one event: invoice.settled or invoice.invalid.
    events: [target === 'settled' ? 'invoice.settled' : 'invoice.invalid'],
  };
}
