import type { Invoice, InvoiceStatus } from '../../api/invoices';
import type { CreateRefundRequest, Refund, RefundStatus } from '../../api/refunds';
import type { StatusNames } from '../../components/StatusBadge';
import { REASON_MAX } from '../../shared/refunds';
import { t, type MessageKey } from '../../i18n/i18n';
import { CURRENCIES, tooManyDecimals } from './invoiceRules';

// The Invoices tab's refunds: names, and the Refund form's rules (not in the spec: an extension
// of the app detail, as the invoices are). The server checks the same and more: the cap, the
// address, the rate.

/** A status's name in the language in use, and its colours. */
const named = (key: MessageKey, bg: string, text?: 'dark') => ({
  get label() {
    return t(key);
  },
  bg,
  ...(text ? { text } : {}),
});

export const REFUND_STATUS: StatusNames<RefundStatus> = {
  pending_claim: named('refundStatus.pendingClaim', 'info'),
  awaiting_funds: named('refundStatus.awaitingFunds', 'warning', 'dark'),
  queued: named('refundStatus.queued', 'secondary'),
  processing: named('refundStatus.processing', 'primary'),
  completed: named('refundStatus.completed', 'success'),
  failed: named('refundStatus.failed', 'danger'),
  cancelled: named('refundStatus.cancelled', 'dark'),
  expired: named('refundStatus.expired', 'warning', 'dark'),
};

/** Invoice statuses whose payments are final, the ones a refund may be asked of. */
const REFUNDABLE: readonly InvoiceStatus[] = ['settled', 'expired', 'invalid'];

/** Refund statuses with nothing signed yet, which Cancel may end. */
const CANCELLABLE: readonly RefundStatus[] = ['pending_claim', 'awaiting_funds', 'queued'];

/**
 * The methods with a confirmed payment on the invoice: its options' in their order, then those
 * it did not offer (a payment on another network or in another token), as they were seen.
 */
export function paidMethods(invoice: Pick<Invoice, 'payments' | 'payment_options'>): string[] {
  const paid = new Set(
    invoice.payments.filter((p) => p.status === 'confirmed').map((p) => p.method),
  );
  const offered = invoice.payment_options.map((o) => o.method);
  return [...new Set([...offered, ...paid])].filter((method) => paid.has(method));
}

/** Whether the invoice may be refunded: settled, expired or invalid, with something paid. */
export function canRefund(invoice: Pick<Invoice, 'status' | 'payments' | 'payment_options'>) {
  return REFUNDABLE.includes(invoice.status) && paidMethods(invoice).length > 0;
}

/**
 * Whether Cancel shows: nothing signed yet. A queued refund the signer takes meanwhile is
 * refused by the server, which says so.
 */
export function canCancelRefund(status: RefundStatus): boolean {
  return CANCELLABLE.includes(status);
}

/** Where the money goes, as the list's Claim column reads it. */
export function claimState(refund: Pick<Refund, 'status' | 'address_source'>): string {
  if (refund.address_source === 'merchant') return t('claim.merchant');
  if (refund.address_source === 'shopper') return t('claim.shopper');
  if (refund.status === 'expired') return t('claim.expired');
  if (refund.status === 'cancelled') return t('claim.cancelled');
  return t('claim.waiting');
}

/** The Refund form's values, as typed. */
export interface RefundValues extends Record<string, string> {
  /** The code of the method refunded, one the invoice was paid in. */
  method: string;
  amount_kind: CreateRefundRequest['amount_kind'];
  amount: string;
  /** `invoice`: the invoice's currency; `token`: the method's token itself. */
  currency: 'invoice' | 'token';
  rate: NonNullable<CreateRefundRequest['rate']>;
  address: string;
  reason: string;
}

/** The form as it opens: the overpaid part of an overpaid invoice, else the full amount. */
export function initialRefund(invoice: Pick<Invoice, 'overpaid' | 'payments' | 'payment_options'>) {
  const values: RefundValues = {
    method: invoice.overpaid?.method ?? paidMethods(invoice)[0] ?? '',
    amount_kind: invoice.overpaid ? 'overpaid' : 'full',
    amount: '',
    currency: 'invoice',
    rate: 'original',
    address: '',
    reason: '',
  };
  return values;
}

const DECIMAL = /^[0-9]+(?:\.([0-9]+))?$/;

/**
 * The Refund form's messages, in the language in use: the same as the server's
 * (REFUND_MESSAGES), which it says in English.
 */
const REFUND_FORM_MSG = {
  get methodInvalid() {
    return t('refundForm.methodInvalid');
  },
  get amountRequired() {
    return t('refundForm.amountRequired');
  },
  get amountInvalid() {
    return t('refundForm.amountInvalid');
  },
  get reasonRequired() {
    return t('refundForm.reasonRequired');
  },
  get reasonTooLong() {
    return t('refundForm.reasonTooLong');
  },
};

/** The form's messages before a call, for an invoice in `currency`. */
export function newRefundErrors(
  values: RefundValues,
  currency: string,
): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  if (values.method === '') errors.method = REFUND_FORM_MSG.methodInvalid;
  if (values.amount_kind === 'custom') {
    const match = DECIMAL.exec(values.amount);
    const decimals = CURRENCIES.find((c) => c.code === currency)?.decimals;
    const places = match?.[1]?.length ?? 0;
    if (values.amount === '') errors.amount = REFUND_FORM_MSG.amountRequired;
    else if (!match || Number(values.amount) <= 0) errors.amount = REFUND_FORM_MSG.amountInvalid;
    else if (values.currency === 'invoice' && decimals !== undefined && places > decimals) {
      errors.amount = tooManyDecimals(currency, decimals);
    }
  }
  const reason = values.reason.trim();
  if (reason === '') errors.reason = REFUND_FORM_MSG.reasonRequired;
  else if (reason.length > REASON_MAX) errors.reason = REFUND_FORM_MSG.reasonTooLong;
  return errors;
}

/** What the form asks, as the preview and the request take it. */
export function refundRequest(
  values: RefundValues,
  invoice: Pick<Invoice, 'currency' | 'overpaid'>,
): CreateRefundRequest {
  const custom = values.amount_kind === 'custom';
  const inInvoiceCurrency = values.currency === 'invoice';
  const address = values.address.trim();
  return {
    amount_kind: values.amount_kind,
    // The overpaid part is refunded in the method that went over.
    method:
      values.amount_kind === 'overpaid' && invoice.overpaid
        ? invoice.overpaid.method
        : values.method,
    ...(custom
      ? {
          amount: values.amount,
          currency: inInvoiceCurrency ? invoice.currency : values.method,
          ...(inInvoiceCurrency ? { rate: values.rate } : {}),
        }
      : {}),
    ...(address === '' ? {} : { address }),
    reason: values.reason.trim(),
  };
}
