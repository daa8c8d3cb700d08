import { createHash } from 'node:crypto';
import type { CheckoutInvoice } from '../domain/invoices/checkout';
import { FIAT_CURRENCIES } from '../../../src/shared/invoices';
import type { Language } from './messages';

type Invoice = CheckoutInvoice['invoice'];
export type PaymentOption = Invoice['payment_options'][number];

/**
 * The screens of the checkout, one per state a shopper can meet. `pick` comes first when the
 * invoice offers several methods and none is chosen yet.
 */
export type Screen =
  | 'pick'
  | 'waiting'
  | 'partial'
  | 'seen'
  | 'paid'
  | 'expired'
  | 'expired_partial'
  | 'late'
  | 'invalid';

/** The screen an invoice shows (before any method is chosen: `chosen` undefined). */
export function screenOf(invoice: Invoice, chosen: PaymentOption | undefined): Screen {
  const paidSomething = invoice.payments.some((p) => p.status !== 'removed');
  switch (invoice.status) {
    case 'invalid':
      return 'invalid';
    case 'settled':
      return 'paid';
    case 'processing':
      return 'seen';
    case 'expired':
      if (invoice.exceptions.includes('paid_late')) return 'late';
      return paidSomething ? 'expired_partial' : 'expired';
    case 'new':
      if (paidSomething) return 'partial';
      return chosen === undefined && invoice.payment_options.length > 1 ? 'pick' : 'waiting';
  }
}

/**
 * Screens whose invoice can still change by itself: the page refreshes or listens on them. An
 * expired invoice can too: a payment sent just before the expiry lands after it, and is taken
 * on within the late window or shown as too late.
 */
export function isLive(screen: Screen): boolean {
  return screen !== 'paid' && screen !== 'late' && screen !== 'invalid';
}

/**
 * A short text that changes whenever what the checkout shows of `invoice` changes: the client
 * compares it with the one its page was drawn with, and fetches the new screen on a difference.
 */
export function stateKey(invoice: Invoice): string {
  const shown = [
    invoice.status,
    invoice.exceptions.join(','),
    invoice.paid,
    invoice.payments.map((p) => `${p.tx_hash}:${p.log_index}:${p.status}:${p.confirmations}`),
  ];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 16);
}

/** What the status endpoint and stream tell the page. */
export interface CheckoutStatus {
  screen: Screen;
  key: string;
}

export function statusOf(checkout: CheckoutInvoice): CheckoutStatus {
  return { screen: screenOf(checkout.invoice, undefined), key: stateKey(checkout.invoice) };
}

/** The option the shopper chose (`?method=`), the only one, the one paid with, or undefined. */
export function chosenOption(
  invoice: Invoice,
  method: string | undefined,
): PaymentOption | undefined {
  if (method !== undefined) return invoice.payment_options.find((o) => o.method === method);
  if (invoice.payment_options.length === 1) return invoice.payment_options[0];
  // Once something is paid, the method it was paid with is the one to finish with.
  const paid = invoice.payments.find((p) => p.status !== 'removed');
  return paid && invoice.payment_options.find((o) => o.method === paid.method);
}

/** The token standard a method's code names (`USDT-BEP20` -> BEP20), for tokens only. */
export function tokenStandard(option: PaymentOption): string | undefined {
  if (option.token_contract === null) return undefined;
  const suffix = option.method.split('-').pop() ?? '';
  return /^[A-Z]+20$/.test(suffix) ? suffix : undefined;
}

/**
 * Formats exact decimal strings and times in one language. Intl formats a decimal string
 * exactly (no float on the way), so a token amount keeps every digit it has.
 */
export function formatters(language: Language) {
  const token = new Intl.NumberFormat(language.locale, {
    minimumFractionDigits: 0,
    maximumFractionDigits: 20,
  });
  const cache = new Map<string, Intl.NumberFormat>();
  const money = (currency: string, places: number) => {
    const key = `${currency}:${places}`;
    let format = cache.get(key);
    if (!format) {
      format = new Intl.NumberFormat(language.locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: places,
        maximumFractionDigits: places,
      });
      cache.set(key, format);
    }
    return format;
  };
  const time = new Intl.DateTimeFormat(language.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  /** Intl's typings take a number; at run time a string is formatted as the exact decimal. */
  const exact = (format: Intl.NumberFormat, value: string) =>
    format.format(value as unknown as number);
  return {
    /** A token amount, every digit kept. */
    token: (value: string) => exact(token, value),
    /** An amount in the invoice's currency: a fiat code as money, a token code as a number. */
    money(value: string, currency: string): string {
      const minor = FIAT_CURRENCIES[currency];
      if (minor === undefined) return `${exact(token, value)} ${currency}`;
      // The currency's minor units ($25.00), or more where the amount has them.
      const places = Math.max(minor, (value.split('.')[1] ?? '').length);
      return exact(money(currency, places), value);
    },
    /** A rate as given, its digits kept. */
    rate: (value: string) => exact(token, value),
    /** A time, in UTC (the page knows no shopper's zone; the script shows the local one). */
    time: (iso: string) => `${time.format(new Date(iso))} UTC`,
  };
}

export type Formatters = ReturnType<typeof formatters>;
