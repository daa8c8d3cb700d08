// Money is stored and computed as integers of 10^-6 USDT ("micro"). Decimal numbers appear only
// at the API edge; chain amounts (bigint base units, usually 18 decimals on BEP20) are converted
// exactly with BigInt. Amounts below one micro are truncated toward zero (dust is never credited).

export const MICRO_DECIMALS = 6;
const MICRO_PER_UNIT = 1_000_000;

function assertSafeMicro(micro: number): void {
  if (!Number.isSafeInteger(micro))
    throw new RangeError(`Not a safe integer micro amount: ${micro}`);
}

/** Micro integer -> decimal number for JSON (exact for any realistic amount: < 9e9 USDT). */
export function microToDecimal(micro: number): number {
  assertSafeMicro(micro);
  return micro / MICRO_PER_UNIT;
}

/** Micro integer -> decimal string with exactly 6 fraction digits, without float rounding. */
export function microToString(micro: number, fractionDigits = MICRO_DECIMALS): string {
  assertSafeMicro(micro);
  const negative = micro < 0;
  const abs = BigInt(Math.abs(micro));
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n).toString().padStart(MICRO_DECIMALS, '0');
  const shown =
    fractionDigits >= MICRO_DECIMALS
      ? frac.padEnd(fractionDigits, '0')
      : frac.slice(0, fractionDigits); // truncates, never rounds up money
  return `${negative ? '-' : ''}${whole}${shown ? `.${shown}` : ''}`;
}

/**
 * Decimal (number or string such as "12.5") -> micro integer. Parses the decimal text, so
 * 0.1 + friends do not pick up binary float error. Rejects more than 6 fraction digits.
 */
export function decimalToMicro(value: number | string): number {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new RangeError(`Not a decimal amount: '${text}'`);
  const [, sign, whole = '0', frac = ''] = m;
  if (frac.length > MICRO_DECIMALS) {
    throw new RangeError(`More than ${MICRO_DECIMALS} decimals: '${text}'`);
  }
  const micro = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(MICRO_DECIMALS, '0') || '0');
  const result = Number(sign ? -micro : micro);
  assertSafeMicro(result);
  return result;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite amount: ${n}`);
  // String() gives the shortest round-trip form; expand exponent forms (1e-7, 1e21).
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** Chain base units (bigint, `decimals` places) -> micro, truncating sub-micro dust. */
export function chainAmountToMicro(raw: bigint, decimals = 18): number {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`Bad decimals ${decimals}`);
  const micro =
    decimals >= MICRO_DECIMALS
      ? raw / 10n ** BigInt(decimals - MICRO_DECIMALS)
      : raw * 10n ** BigInt(MICRO_DECIMALS - decimals);
  if (micro > BigInt(Number.MAX_SAFE_INTEGER) || micro < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`Chain amount too large: ${raw}`);
  }
  return Number(micro);
}

/** Micro -> chain base units (exact; `decimals` >= 6 for the tokens we use). */
export function microToChainAmount(micro: number, decimals = 18): bigint {
  assertSafeMicro(micro);
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`Bad decimals ${decimals}`);
  const m = BigInt(micro);
  if (decimals >= MICRO_DECIMALS) return m * 10n ** BigInt(decimals - MICRO_DECIMALS);
  const div = 10n ** BigInt(MICRO_DECIMALS - decimals);
  if (m % div !== 0n)
    throw new RangeError(`${micro} micro is not representable in ${decimals} decimals`);
  return m / div;
}
