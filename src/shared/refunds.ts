// One source for client and server: a pure module both import (no React, browser or Node APIs).
// The messages of the portal's Refund form (not in the spec: the refunds of the Invoices tab);
// openapi.yaml's x-messages of CreateRefundRequest say the same, and the portal's refund
// handlers put the gateway's refusals in these words.

export const REFUND_MESSAGES = {
  amountKindInvalid: 'Choose the full amount, the overpaid part or a custom amount',
  amountRequired: 'Enter an amount, like 10.00',
  amountInvalid: 'Enter an amount above 0, like 10.00',
  amountOnlyCustom: 'An amount is given with a custom refund only',
  currencyRequired: 'Choose the currency of the amount',
  rateInvalid: 'Choose the rate then or the current rate',
  methodInvalid: 'Choose a method the invoice was paid in',
  addressTooLong: 'An address has at most 128 characters',
  reasonRequired: 'Reason is required',
  reasonTooLong: 'Reason may be at most 500 characters',
} as const;

/** The most a refund's reason may hold. */
export const REASON_MAX = 500;
