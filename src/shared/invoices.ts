// One source for client and server: a pure module both import (no React, browser or Node APIs).
// The invoice settings of Merchant Setting (not in the spec: the Invoices extension) and the
// messages of the portal's invoice forms.

/** The underpayment tolerance's bounds, in percent: above 10 % a shortfall is not a fee. */
export const TOLERANCE_MAX = 10;
/** The late window's bounds, in minutes: at most a day. */
export const LATE_WINDOW_MAX = 1440;

/** ISO 4217 currencies an invoice may be priced in, with their minor units. */
export const FIAT_CURRENCIES: Readonly<Record<string, number>> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  INR: 2,
  JPY: 0,
  CAD: 2,
  AUD: 2,
  CHF: 2,
};

/**
 * The coins and tokens an invoice may be priced in: the decimals a price may have, and the
 * display precision an amount due in them is rounded up to.
 */
export const TOKEN_CURRENCIES: Readonly<Record<string, { decimals: number; display: number }>> = {
  USDT: { decimals: 6, display: 2 },
  USDC: { decimals: 6, display: 2 },
  BNB: { decimals: 18, display: 6 },
  ETH: { decimals: 18, display: 6 },
  POL: { decimals: 18, display: 6 },
  TRX: { decimals: 6, display: 6 },
};

export const INVOICE_MESSAGES = {
  toleranceInvalid: 'Underpayment tolerance must be a number from 0 to 10 with at most 2 decimals',
  lateWindowInvalid: 'Late window must be a whole number of minutes from 0 to 1440',
  amountRequired: 'Amount is required',
  amountInvalid: 'Enter an amount above 0, like 49.90',
  currencyRequired: 'Currency is required',
  expiryInvalid: 'The expiry must be from 5 to 1440 minutes',
  reasonRequired: 'Reason is required',
} as const;

/**
 * Which statuses an invoice may be marked each way from (a settled invoice is final): the state
 * machine's rule (server/src/domain/invoices/stateMachine.ts), which the portal's buttons follow.
 */
export const MARKABLE_FROM = {
  settled: ['new', 'processing', 'expired', 'invalid'],
  invalid: ['new', 'processing', 'expired'],
} as const satisfies Record<'settled' | 'invalid', readonly string[]>;

/**
 * Which statuses an invoice still takes a payment it did not offer in, once the merchant accepts
 * it (server/src/domain/invoices/strays.ts); a settled or invalid one's is refunded instead.
 */
export const ACCEPTS_PAYMENTS_IN = ['new', 'processing', 'expired'] as const;

const TOLERANCE = /^([0-9]{1,2})(?:\.([0-9]{1,2}))?$/;

/**
 * The tolerance as stored and shown (`1.50` -> `1.5`, `07` -> `7`), or null when it is not a
 * number from 0 to 10 with at most 2 decimals.
 */
export function normalTolerance(text: string): string | null {
  const match = TOLERANCE.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (whole > TOLERANCE_MAX || (whole === TOLERANCE_MAX && fraction !== '')) return null;
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/** A whole number of minutes from 0 to 1440. */
export function isLateWindow(minutes: number): boolean {
  return Number.isInteger(minutes) && minutes >= 0 && minutes <= LATE_WINDOW_MAX;
}
