import type {
  Invoice,
  InvoiceException,
  InvoiceStatus,
  InvoiceTimelineEntry,
} from '../../api/invoices';
import type { StatusNames } from '../../components/StatusBadge';
import {
  ACCEPTS_PAYMENTS_IN,
  FIAT_CURRENCIES,
  MARKABLE_FROM,
  TOKEN_CURRENCIES,
} from '../../shared/invoices';
import { t, type MessageKey } from '../../i18n/i18n';

// The Invoices tab's names and rules (not in the spec: the Invoices extension of the app detail).

/** A status's name in the language in use, and its colours. */
const named = (key: MessageKey, bg: string, text?: 'dark') => ({
  get label() {
    return t(key);
  },
  bg,
  ...(text ? { text } : {}),
});

export const INVOICE_STATUS: StatusNames<InvoiceStatus> = {
  new: named('invStatus.new', 'secondary'),
  processing: named('invStatus.processing', 'info'),
  settled: named('invStatus.settled', 'success'),
  expired: named('invStatus.expired', 'warning', 'dark'),
  invalid: named('invStatus.invalid', 'danger'),
};

/** An exception flag's name, in the language in use. */
export const INVOICE_EXCEPTION: Readonly<Record<InvoiceException, string>> = {
  get paid_partial() {
    return t('invException.paidPartial');
  },
  get paid_over() {
    return t('invException.paidOver');
  },
  get paid_late() {
    return t('invException.paidLate');
  },
  get marked() {
    return t('invException.marked');
  },
  get partially_refunded() {
    return t('invException.partiallyRefunded');
  },
  get refunded() {
    return t('invException.refunded');
  },
};

/** A timeline event's name: its message's key. */
export const TIMELINE_EVENT: Readonly<Record<InvoiceTimelineEntry['event'], MessageKey>> = {
  'invoice.created': 'invEvent.created',
  'invoice.payment_received': 'invEvent.paymentReceived',
  'invoice.processing': 'invEvent.processing',
  'invoice.settled': 'invEvent.settled',
  'invoice.expired': 'invEvent.expired',
  'invoice.invalid': 'invEvent.invalid',
  'refund.created': 'invEvent.refundCreated',
  'refund.claimed': 'invEvent.refundClaimed',
  'refund.completed': 'invEvent.refundCompleted',
  'refund.reorged': 'invEvent.refundReorged',
  'refund.failed': 'invEvent.refundFailed',
  'refund.cancelled': 'invEvent.refundCancelled',
  'refund.expired': 'invEvent.refundExpired',
};

/** A payment's status on its chain, and a webhook delivery's, as the invoice's details name them. */
export const PAYMENT_STATUS: Readonly<Record<Invoice['payments'][number]['status'], MessageKey>> = {
  pending: 'invPayment.pending',
  confirmed: 'invPayment.confirmed',
  removed: 'invPayment.removed',
};
export const DELIVERY_STATUS: Readonly<
  Record<InvoiceTimelineEntry['deliveries'][number]['status'], MessageKey>
> = {
  pending: 'invDelivery.pending',
  retrying: 'invDelivery.retrying',
  delivered: 'invDelivery.delivered',
  failed: 'invDelivery.failed',
};

/** The flags a timeline event reported, as it lists them (in English, their codes). */
export const TIMELINE_EXCEPTION: Readonly<Record<InvoiceException, MessageKey>> = {
  paid_partial: 'invTimeline.paidPartial',
  paid_over: 'invTimeline.paidOver',
  paid_late: 'invTimeline.paidLate',
  marked: 'invTimeline.marked',
  partially_refunded: 'invTimeline.partiallyRefunded',
  refunded: 'invTimeline.refunded',
};

/**
 * The Create Invoice form's messages, in the language in use: the same as the server's
 * (INVOICE_MESSAGES), which it says in English.
 */
export const INVOICE_FORM_MSG = {
  get amountRequired() {
    return t('invForm.amountRequired');
  },
  get amountInvalid() {
    return t('invForm.amountInvalid');
  },
  get currencyRequired() {
    return t('invForm.currencyRequired');
  },
  get expiryInvalid() {
    return t('invForm.expiryInvalid');
  },
  get reasonRequired() {
    return t('invForm.reasonRequired');
  },
};

/** A price typed with more decimals than its currency has. */
export const tooManyDecimals = (currency: string, decimals: number) =>
  t('invForm.decimals', { currency, count: decimals });

/** What an invoice may be priced in, fiat first; the decimals a price in it may have. */
export const CURRENCIES: readonly { code: string; decimals: number }[] = [
  ...Object.entries(FIAT_CURRENCIES).map(([code, decimals]) => ({ code, decimals })),
  ...Object.entries(TOKEN_CURRENCIES).map(([code, token]) => ({ code, decimals: token.decimals })),
];

/** Whether the merchant may mark an invoice in `status` settled or invalid. */
export function canMark(status: InvoiceStatus, target: 'settled' | 'invalid'): boolean {
  return (MARKABLE_FROM[target] as readonly InvoiceStatus[]).includes(status);
}

/**
 * Whether the merchant may accept a payment the invoice did not offer (another network's or
 * token's) toward it: one still on the chain, not yet counted, while the invoice takes payments.
 */
export function canAccept(status: InvoiceStatus, payment: Invoice['payments'][number]): boolean {
  return (
    payment.flag !== null &&
    !payment.accepted &&
    payment.status !== 'removed' &&
    (ACCEPTS_PAYMENTS_IN as readonly InvoiceStatus[]).includes(status)
  );
}

export const EXPIRY_MINUTES = { min: 5, max: 1440, default: 15 } as const;

/** The Create Invoice form's values, as typed. */
export interface NewInvoiceValues extends Record<string, string> {
  amount: string;
  currency: string;
  description: string;
  order_id: string;
  expires_in_minutes: string;
}

/** The form's messages before a call: the server checks the same and more. */
export function newInvoiceErrors(values: NewInvoiceValues): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  const decimals = CURRENCIES.find((c) => c.code === values.currency)?.decimals;
  if (values.amount === '') errors.amount = INVOICE_FORM_MSG.amountRequired;
  else {
    const match = /^[0-9]+(?:\.([0-9]+))?$/.exec(values.amount);
    const places = match?.[1]?.length ?? 0;
    if (!match || Number(values.amount) <= 0) errors.amount = INVOICE_FORM_MSG.amountInvalid;
    else if (decimals !== undefined && places > decimals) {
      errors.amount = tooManyDecimals(values.currency, decimals);
    }
  }
  if (values.currency === '') errors.currency = INVOICE_FORM_MSG.currencyRequired;
  const minutes = Number(values.expires_in_minutes);
  if (
    !Number.isInteger(minutes) ||
    minutes < EXPIRY_MINUTES.min ||
    minutes > EXPIRY_MINUTES.max ||
    values.expires_in_minutes === ''
  ) {
    errors.expires_in_minutes = INVOICE_FORM_MSG.expiryInvalid;
  }
  return errors;
}
