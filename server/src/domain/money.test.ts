import {
  chainAmountToMicro,
  decimalToMicro,
  microToChainAmount,
  microToDecimal,
  microToString,
} from './money';

describe('money', () => {
  it('converts micro to decimal numbers and strings', () => {
    expect(microToDecimal(12_345_678)).toBe(12.345678);
    expect(microToDecimal(0)).toBe(0);
    expect(microToString(12_345_678)).toBe('12.345678');
    expect(microToString(12_345_678, 2)).toBe('12.34'); // truncates, never rounds money up
    expect(microToString(-500_000)).toBe('-0.500000');
    expect(microToString(5, 0)).toBe('0');
  });

  it('parses decimals exactly, without float error', () => {
    expect(decimalToMicro('0.1')).toBe(100_000);
    expect(decimalToMicro(0.1)).toBe(100_000);
    expect(decimalToMicro(0.3)).toBe(300_000); // 0.1 + 0.2 style floats stay exact
    expect(decimalToMicro('49.99')).toBe(49_990_000);
    expect(decimalToMicro(19)).toBe(19_000_000);
    expect(decimalToMicro('1.')).toBe(1_000_000);
    expect(decimalToMicro('-2.5')).toBe(-2_500_000);
    expect(decimalToMicro(1e-6)).toBe(1);
  });

  it('rejects more than 6 decimals and non-numbers', () => {
    expect(() => decimalToMicro('0.0000001')).toThrow(RangeError);
    expect(() => decimalToMicro('abc')).toThrow(RangeError);
    expect(() => decimalToMicro(Number.NaN)).toThrow(RangeError);
    expect(() => decimalToMicro('1e5')).toThrow(RangeError);
  });

  it('converts 18-decimal chain amounts exactly with BigInt', () => {
    expect(chainAmountToMicro(1_000_000_000_000_000_000n)).toBe(1_000_000); // 1 USDT (BEP20)
    expect(chainAmountToMicro(123_456_789_012_345_678_901n)).toBe(123_456_789); // dust truncated
    expect(chainAmountToMicro(999_999_999_999n)).toBe(0); // below one micro
    // Far beyond 2^53 in base units, still exact in micro.
    expect(chainAmountToMicro(123_456_789_123_456_000_000_000_000n)).toBe(123_456_789_123_456);
    expect(chainAmountToMicro(9_007_199_254_740_991_000_000_000_000n)).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(chainAmountToMicro(1_500_000n, 6)).toBe(1_500_000); // TRC20 / ERC20 USDT
    expect(chainAmountToMicro(15n, 1)).toBe(1_500_000);
  });

  it('refuses chain amounts past the safe integer range', () => {
    expect(() => chainAmountToMicro(10n ** 40n)).toThrow(RangeError);
  });

  it('converts micro back to chain units', () => {
    expect(microToChainAmount(1_000_000)).toBe(1_000_000_000_000_000_000n);
    expect(microToChainAmount(1_234_567, 6)).toBe(1_234_567n);
    expect(microToChainAmount(1_500_000, 2)).toBe(150n);
    expect(() => microToChainAmount(1, 2)).toThrow(RangeError);
    expect(chainAmountToMicro(microToChainAmount(42_424_242))).toBe(42_424_242);
  });
});
