import moment from 'moment';
import { currentLanguage } from '../i18n/i18n';

export const DEFAULT_CURRENCY_SYMBOL = '$';

/** Amount with a fixed number of decimals and an optional currency prefix ('$' by default). */
export function formatMoney(
  amount: number | string | null | undefined,
  symbol?: string | null,
): string {
  return `${symbol || DEFAULT_CURRENCY_SYMBOL}${formatAmount(amount, 2)}`;
}

// Decimals per figure, as the spec has them: the account's money (balance, totals, prices,
// ledger entries) 2 with the currency prefix (formatMoney); a transfer's amount and a daily volume
// 4 with the coin's name; a method's usage totals and an operational wallet's balance 6.

/** A transfer's amount or a daily volume: 4 decimals and the coin (e.g. '241.5344 USDT'). */
export function formatCoin(amount: number | string | null | undefined, coin: string): string {
  return `${formatAmount(amount, 4)} ${coin}`;
}

/** A payment method's usage total or an operational wallet's balance: 6 decimals. */
export function formatCoinTotal(amount: number | string | null | undefined): string {
  return formatAmount(amount, 6);
}

/** Each language's number format by decimals, made once (Intl's constructors are slow). */
const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A figure with exactly `decimals` decimals, as the language in use writes it: in English the
 * spec's form ('1250.500000'), elsewhere Intl's for that language ('1 250,500000' in French).
 */
export function formatAmount(amount: number | string | null | undefined, decimals: number): string {
  const value = Number(amount ?? 0);
  const finite = Number.isFinite(value) ? value : 0;
  const language = currentLanguage();
  if (language === 'en') return finite.toFixed(decimals);
  const key = `${language} ${decimals}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    numberFormats.set(key, format);
  }
  return format.format(finite);
}

// One format per kind, as the spec has them: a moment (something happened at) is LLL, a date
// (a birthday, an expiry, the day of a daily log) is DD-MM-YYYY, and a time under its day's
// heading is LT, the time part of LLL. Moment truncates to the minute, so one instant reads the
// same minute wherever it is shown.

/** A moment, moment's LLL (e.g. 'November 25, 2026 10:41 PM'). */
export function formatDateTime(value: string | null | undefined): string {
  return value ? moment(value).format('LLL') : '----';
}

/** Day-first date, DD-MM-YYYY. */
export function formatDate(value: string | null | undefined): string {
  return value ? moment(value).format('DD-MM-YYYY') : '----';
}

/** The time of day of a moment listed under its day (Today, Yesterday): LT, e.g. '10:41 PM'. */
export function formatTime(value: string | null | undefined): string {
  return value ? moment(value).format('LT') : '----';
}
