// Exact decimal numbers for prices and rates: an integer of units and a count of decimal places
// (value = units / 10^places), never a float. Products are exact; a quotient is rounded to the
// places asked, in the direction asked, so that every rounding in an invoice is one the rule
// chose (amounts due up, values received down).

export interface Decimal {
  readonly units: bigint;
  readonly places: number;
}

export type Rounding = 'down' | 'up' | 'half-up';

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/** Whether `text` is a plain non-negative decimal such as `49.90` (no sign, no exponent). */
export function isDecimalText(text: string): boolean {
  return DECIMAL_TEXT.test(text);
}

/** `49.90` -> 4990 units, 2 places; throws RangeError on anything but a plain decimal. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) throw new RangeError(`Not a decimal: '${text}'`);
  const [, whole = '0', fraction = ''] = match;
  return { units: BigInt(whole + fraction), places: fraction.length };
}

/** Base units of a token with `decimals` places, as a decimal. */
export function fromUnits(units: bigint, places: number): Decimal {
  return { units, places };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** `a` with `places` decimal places exactly (more places only: nothing is lost). */
function widen(a: Decimal, places: number): bigint {
  return a.units * pow10(places - a.places);
}

/** `n / d` rounded as asked (both non-negative, d > 0). */
function divideRounded(n: bigint, d: bigint, rounding: Rounding): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if (rounding === 'up') return q + 1n;
  if (rounding === 'half-up') return r * 2n >= d ? q + 1n : q;
  return q;
}

/** `a` with exactly `places` decimal places, rounded as asked when it had more. */
export function rescale(a: Decimal, places: number, rounding: Rounding): Decimal {
  if (places >= a.places) return { units: widen(a, places), places };
  return { units: divideRounded(a.units, pow10(a.places - places), rounding), places };
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, places: a.places + b.places };
}

/** `a / b` to `places` decimal places, rounded as asked; b must not be zero. */
export function divide(a: Decimal, b: Decimal, places: number, rounding: Rounding): Decimal {
  if (b.units === 0n) throw new RangeError('Division by zero');
  // a/b = (a.units / 10^a.places) / (b.units / 10^b.places); scaled by 10^places.
  const shift = places + b.places - a.places;
  const numerator = shift >= 0 ? a.units * pow10(shift) : a.units;
  const denominator = shift >= 0 ? b.units : b.units * pow10(-shift);
  return { units: divideRounded(numerator, denominator, rounding), places };
}

export function add(a: Decimal, b: Decimal): Decimal {
  const places = Math.max(a.places, b.places);
  return { units: widen(a, places) + widen(b, places), places };
}

/** `a - b`, never below zero (what is left to pay). */
export function subtractFloor(a: Decimal, b: Decimal): Decimal {
  const places = Math.max(a.places, b.places);
  const units = widen(a, places) - widen(b, places);
  return { units: units < 0n ? 0n : units, places };
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compare(a: Decimal, b: Decimal): number {
  const places = Math.max(a.places, b.places);
  const x = widen(a, places);
  const y = widen(b, places);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Its units as a token's base units of `places` decimals, rounded as asked. */
export function toUnits(a: Decimal, places: number, rounding: Rounding): bigint {
  return rescale(a, places, rounding).units;
}

/** The shortest exact text: `53.9`, `0`, `1200`. */
export function formatDecimal(a: Decimal): string {
  const text = formatFixed(a).replace(/(\.\d*?)0+$/, '$1');
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Every place written: `20.00` for 2000 units at 2 places. */
export function formatFixed(a: Decimal): string {
  if (a.places === 0) return a.units.toString();
  const digits = a.units.toString().padStart(a.places + 1, '0');
  return `${digits.slice(0, -a.places)}.${digits.slice(-a.places)}`;
}
