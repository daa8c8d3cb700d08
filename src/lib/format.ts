import moment from 'moment';

export const DEFAULT_CURRENCY_SYMBOL = '$';

/** Amount with a fixed number of decimals and an optional currency prefix ('$' by default). */
export function formatMoney(
  amount: number | string | null | undefined,
  symbol?: string | null,
): string {
  return `${symbol || DEFAULT_CURRENCY_SYMBOL}${formatAmount(amount, 2)}`;
}

export function formatAmount(amount: number | string | null | undefined, decimals: number): string {
  const value = Number(amount ?? 0);
  return (Number.isFinite(value) ? value : 0).toFixed(decimals);
}

/** Long date-time, moment's LLL (e.g. 'November 25, 2026 10:41 PM'). */
export function formatDateTime(value: string | null | undefined): string {
  return value ? moment(value).format('LLL') : '----';
}

/** Day-first date, DD-MM-YYYY. */
export function formatDate(value: string | null | undefined): string {
  return value ? moment(value).format('DD-MM-YYYY') : '----';
}
