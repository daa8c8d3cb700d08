import {
  chainAmountToMicro,
  decimalToMicro,
  MAX_AMOUNT_MICRO,
  microToChainAmount,
  microToDecimal,
  microToString,
  storedMicro,
} from './money';

describe('money', () => {
  it('converts micro to decimal numbers and strings', () => {
    expect(microToDecimal(12_345_678n)).toBe(12.345678);
    expect(microToDecimal(0n)).toBe(0);
    expect(microToString(12_345_678n)).toBe('12.345678');
    expect(microToString(12_345_678n, 2)).toBe('12.34'); // truncates, never rounds money up
    expect(microToString(-500_000n)).toBe('-0.500000');
    expect(microToString(5n, 0)).toBe('0');
  });

  it('stays exact past 2^53 micro; the JSON number is the nearest double', () => {
    const big = 2n ** 63n - 1n;
    expect(microToString(big)).toBe('9223372036854.775807');
    expect(decimalToMicro('9223372036854.775807')).toBe(big);
    expect(microToDecimal(big)).toBe(Number('9223372036854.775807'));
    expect(microToDecimal(18_014_398_509_481_982n)).toBe(Number('18014398509.481982'));
    expect(decimalToMicro(1e21)).toBe(10n ** 27n);
  });

  it('parses decimals exactly, without float error', () => {
    expect(decimalToMicro('0.1')).toBe(100_000n);
    expect(decimalToMicro(0.1)).toBe(100_000n);
    expect(decimalToMicro(0.3)).toBe(300_000n); // 0.1 + 0.2 style floats stay exact
    expect(decimalToMicro('49.99')).toBe(49_990_000n);
    expect(decimalToMicro(19)).toBe(19_000_000n);
    expect(decimalToMicro('1.')).toBe(1_000_000n);
    expect(decimalToMicro('-2.5')).toBe(-2_500_000n);
    expect(decimalToMicro(1e-6)).toBe(1n);
  });

  it('rejects more than 6 decimals and non-numbers', () => {
    expect(() => decimalToMicro('0.0000001')).toThrow(RangeError);
    expect(() => decimalToMicro('abc')).toThrow(RangeError);
    expect(() => decimalToMicro(Number.NaN)).toThrow(RangeError);
    expect(() => decimalToMicro('1e5')).toThrow(RangeError);
  });

  it('stores a single amount only when positive and exact as a number', () => {
    expect(storedMicro(1n)).toBe(1);
    expect(storedMicro(MAX_AMOUNT_MICRO)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => storedMicro(MAX_AMOUNT_MICRO + 1n)).toThrow(
      'A single amount must be above 0 and at most 9007199254.740991 USDT, got 9007199254.740992',
    );
    expect(() => storedMicro(0n)).toThrow(RangeError);
    expect(() => storedMicro(-1n)).toThrow(RangeError);
  });

  it('converts 18-decimal chain amounts exactly with BigInt', () => {
    expect(chainAmountToMicro(1_000_000_000_000_000_000n)).toBe(1_000_000n); // 1 USDT (BEP20)
    expect(chainAmountToMicro(123_456_789_012_345_678_901n)).toBe(123_456_789n); // dust truncated
    expect(chainAmountToMicro(999_999_999_999n)).toBe(0n); // below one micro
    // Far beyond 2^53 in base units, still exact in micro.
    expect(chainAmountToMicro(123_456_789_123_456_000_000_000_000n)).toBe(123_456_789_123_456n);
    expect(chainAmountToMicro(10n ** 40n)).toBe(10n ** 28n);
    expect(chainAmountToMicro(1_500_000n, 6)).toBe(1_500_000n); // TRC20 / ERC20 USDT
    expect(chainAmountToMicro(15n, 1)).toBe(1_500_000n);
  });

  it('converts micro back to chain units', () => {
    expect(microToChainAmount(1_000_000n)).toBe(1_000_000_000_000_000_000n);
    expect(microToChainAmount(1_234_567n, 6)).toBe(1_234_567n);
    expect(microToChainAmount(1_500_000n, 2)).toBe(150n);
    expect(() => microToChainAmount(1n, 2)).toThrow(RangeError);
    expect(chainAmountToMicro(microToChainAmount(42_424_242n))).toBe(42_424_242n);
  });
});
