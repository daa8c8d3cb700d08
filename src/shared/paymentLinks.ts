// One source for client and server: a pure module both import (no React, browser or Node APIs).
// The messages of the portal's Create payment link form (not in the spec: the payment links of
// the Invoices tab); openapi.yaml's x-messages of CreatePaymentLinkRequest say the same.

export const PAYMENT_LINK_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title may be at most 120 characters',
  descriptionTooLong: 'Description may be at most 500 characters',
  amountRequired: 'Amount is required',
  amountInvalid: 'Enter an amount above 0, like 49.90',
  minInvalid: 'Enter a minimum above 0, like 5',
  maxInvalid: 'Enter a maximum above 0, like 500',
  rangeInvalid: 'The maximum must be at least the minimum',
  currencyRequired: 'Currency is required',
  expiryInvalid: 'Expiry must be a date and time in the future',
  maxUsesInvalid: 'Maximum uses must be a whole number from 1 to 1000000',
  redirectInvalid: 'Enter an http(s) URL, like https://shop.example.com/thanks',
} as const;

/** The bounds the gateway's payment links hold to (server/src/domain/paymentLinks/). */
export const PAYMENT_LINK_LIMITS = {
  title: 120,
  description: 500,
  maxUses: 1_000_000,
  amountMax: 1_000_000_000,
} as const;
