import { FIAT_CURRENCIES, TOKEN_CURRENCIES } from '../../../../src/shared/invoices';

// What an invoice may be priced in, and how precisely: ISO 4217 currencies with their minor
// units, and the coins and tokens of the payment methods with the decimals a price in them may
// have. A token's display precision is what an amount due in it is rounded up to: whole cents
// for the stablecoins, six decimals for the coins.

// The tables are shared with the portal's Create Invoice (src/shared/invoices.ts).
const FIAT = FIAT_CURRENCIES;
const TOKENS = TOKEN_CURRENCIES;

/** The quote currency every rate source prices in; cross rates go through it. */
export const USD = 'USD';

/** What a request naming a currency no invoice takes is told, under `currency`. */
export function unknownCurrency(code: string): string {
  const known = [...Object.keys(FIAT), ...Object.keys(TOKENS)].join(', ');
  return `currency must be one of ${known}, like "EUR"; ${code} is not one.`;
}

/** Decimals a price in `code` may have; undefined for a currency no invoice takes. */
export function currencyDecimals(code: string): number | undefined {
  return FIAT[code] ?? TOKENS[code]?.decimals;
}

/**
 * The places an invoice's values in `code` are shown to (what was paid, what is due): a fiat
 * currency's decimals, a token's display precision.
 */
export function valuePlaces(code: string): number {
  return FIAT[code] ?? TOKENS[code]?.display ?? 2;
}

/** The places an amount due in `asset` is rounded up to (its full `decimals` if unlisted). */
export function displayPlaces(asset: string, decimals: number): number {
  return Math.min(TOKENS[asset]?.display ?? decimals, decimals);
}
