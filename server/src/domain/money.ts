// Money is stored and computed as integers of 10^-6 USDT ("micro"), as bigint in the domain so
// that no sum ever rounds. Decimal numbers appear only at the API edge (JSON numbers, rounded to
// the nearest double for display); chain amounts (bigint base units, usually 18 decimals on
// BEP20) convert exactly. Amounts below one micro are truncated toward zero (dust is never
// credited).

export const MICRO_DECIMALS = 6;
const MICRO_PER_UNIT = 1_000_000n;

/**
 * The largest single amount (one ledger entry, deposit or price). A stored row therefore reads
 * back as an exact JS number on both engines; only sums can pass 2^53, and those are read as
 * text (db/sums.ts `sumMicro`).
 */
export const MAX_AMOUNT_MICRO = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The most a wallet may ever take in (its credits, confirmed and on the way): every sum over its
 * rows then fits the 64-bit integers of the columns and of SQL's sum(), on both engines.
 */
export const MAX_TOTAL_MICRO = 2n ** 63n - 1n;

/** Micro -> the nearest JSON number, for display (exact below 2^53 micro, 9e9 USDT). */
export function microToDecimal(micro: bigint): number {
  return Number(microToString(micro));
}

/** Micro -> decimal string, 6 fraction digits unless fewer are asked for (truncated, never rounded up). */
export function microToString(micro: bigint, fractionDigits = MICRO_DECIMALS): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / MICRO_PER_UNIT;
  const frac = (abs % MICRO_PER_UNIT).toString().padStart(MICRO_DECIMALS, '0');
  const shown =
    fractionDigits >= MICRO_DECIMALS
      ? frac.padEnd(fractionDigits, '0')
      : frac.slice(0, fractionDigits);
  return `${negative ? '-' : ''}${whole}${shown ? `.${shown}` : ''}`;
}

/**
 * Decimal (number or string such as "12.5") -> micro. Parses the decimal text, so 0.1 + friends
 * do not pick up binary float error. Rejects more than 6 fraction digits.
 */
export function decimalToMicro(value: number | string): bigint {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new RangeError(`Not a decimal amount: '${text}'`);
  const [, sign, whole = '0', frac = ''] = m;
  if (frac.length > MICRO_DECIMALS) {
    throw new RangeError(`More than ${MICRO_DECIMALS} decimals: '${text}'`);
  }
  const micro = BigInt(whole) * MICRO_PER_UNIT + BigInt(frac.padEnd(MICRO_DECIMALS, '0') || '0');
  return sign ? -micro : micro;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite amount: ${n}`);
  // String() gives the shortest round-trip form; expand exponent forms (1e-7; 1e21 and up,
  // which toFixed would keep in exponent form, are whole numbers BigInt spells out).
  const s = String(n);
  if (!/e/i.test(s)) return s;
  if (Number.isInteger(n)) return BigInt(n).toString();
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** A micro amount for one row's column: positive and at most MAX_AMOUNT_MICRO, so exact as a number. */
export function storedMicro(micro: bigint): number {
  if (micro <= 0n || micro > MAX_AMOUNT_MICRO) {
    throw new RangeError(
      `A single amount must be above 0 and at most ${microToString(MAX_AMOUNT_MICRO)} USDT, got ${microToString(micro)}`,
    );
  }
  return Number(micro);
}

/** Chain base units (bigint, `decimals` places) -> micro, truncating sub-micro dust. */
export function chainAmountToMicro(raw: bigint, decimals = 18): bigint {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`Bad decimals ${decimals}`);
  return decimals >= MICRO_DECIMALS
    ? raw / 10n ** BigInt(decimals - MICRO_DECIMALS)
    : raw * 10n ** BigInt(MICRO_DECIMALS - decimals);
}

/** Micro -> chain base units (exact; `decimals` >= 6 for the tokens we use). */
export function microToChainAmount(micro: bigint, decimals = 18): bigint {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`Bad decimals ${decimals}`);
  if (decimals >= MICRO_DECIMALS) return micro * 10n ** BigInt(decimals - MICRO_DECIMALS);
  const div = 10n ** BigInt(MICRO_DECIMALS - decimals);
  if (micro % div !== 0n)
    throw new RangeError(`${micro} micro is not representable in ${decimals} decimals`);
  return micro / div;
}

/** A token's base units as its exact decimal amount, e.g. (25500000000000000000n, 18) -> "25.5". */
export function unitsToDecimal(raw: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const frac = (raw % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${raw / scale}${frac ? `.${frac}` : ''}`;
}
