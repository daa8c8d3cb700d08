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
  INVOICE_MESSAGES,
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

export const TIMELINE_EVENT: Readonly<Record<InvoiceTimelineEntry['event'], string>> = {
  'invoice.created': 'Created',
  'invoice.payment_received': 'Payment received',
  'invoice.processing': 'Processing',
  'invoice.settled': 'Settled',
  'invoice.expired': 'Expired',
  'invoice.invalid': 'Invalid',
  'refund.created': 'Refund asked',
  'refund.claimed': 'Refund claimed',
  'refund.completed': 'Refunded',
  'refund.reorged': 'Refund reorged away (sent again)',
  'refund.failed': 'Refund failed',
  'refund.cancelled': 'Refund cancelled',
  'refund.expired': 'Refund link expired',
};

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
  if (values.amount === '') errors.amount = INVOICE_MESSAGES.amountRequired;
  else {
    const match = /^[0-9]+(?:\.([0-9]+))?$/.exec(values.amount);
    const places = match?.[1]?.length ?? 0;
    if (!match || Number(values.amount) <= 0) errors.amount = INVOICE_MESSAGES.amountInvalid;
    else if (decimals !== undefined && places > decimals) {
      errors.amount = `${values.currency} takes at most ${decimals} decimal${decimals === 1 ? '' : 's'}`;
    }
  }
  if (values.currency === '') errors.currency = INVOICE_MESSAGES.currencyRequired;
  const minutes = Number(values.expires_in_minutes);
  if (
    !Number.isInteger(minutes) ||
    minutes < EXPIRY_MINUTES.min ||
    minutes > EXPIRY_MINUTES.max ||
    values.expires_in_minutes === ''
  ) {
    errors.expires_in_minutes = INVOICE_MESSAGES.expiryInvalid;
  }
  return errors;
}
