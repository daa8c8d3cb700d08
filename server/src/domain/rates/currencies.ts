import { FIAT_CURRENCIES, TOKEN_CURRENCIES } from '../../../../src/shared/invoices';
import { codedMessages } from '../messageCodes';

// What an invoice may be priced in, and how precisely: ISO 4217 currencies with their minor
// units, and the coins and tokens of the payment methods with the decimals a price in them may
// have. A token's display precision is what an amount due in it is rounded up to: whole cents
// for the stablecoins, six decimals for the coins.

// The tables are shared with the portal's Create Invoice (src/shared/invoices.ts).
const FIAT = FIAT_CURRENCIES;
const TOKENS = TOKEN_CURRENCIES;

/** The quote currency every rate source prices in; cross rates go through it. */
export const USD = 'USD';

/**
 * A currency no invoice takes (the list of those it takes and the code are values), and a price
 * with more decimals than its currency has (the currency, the field, the price and, past 1, the
 * number of decimals are values).
 */
const CURRENCY_MSG = codedMessages('currency', {
  unknown: (known: string, code: string) =>
    `currency must be one of ${known}, like "EUR"; ${code} is not one.`,
  placesOne: (currency: string, field: string, text: string) =>
    `${currency} has 1 decimal: ${field} has more (${text}).`,
  places: (currency: string, places: string, field: string, text: string) =>
    `${currency} has ${places} decimals: ${field} has more (${text}).`,
} as const);

/** What a request naming a currency no invoice takes is told, under `currency`. */
export function unknownCurrency(code: string): string {
  const known = [...Object.keys(FIAT), ...Object.keys(TOKENS)].join(', ');
  return CURRENCY_MSG.unknown(known, code);
}

/** What a price `field` of `text` in `currency` is told when it has more than `places` decimals. */
export function tooManyPlaces(currency: string, places: number, field: string, text: string) {
  return places === 1
    ? CURRENCY_MSG.placesOne(currency, field, text)
    : CURRENCY_MSG.places(currency, String(places), field, text);
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
