import {
  add,
  compare,
  divide,
  formatDecimal,
  formatFixed,
  multiply,
  parseDecimal,
  rescale,
  subtractFloor,
  toUnits,
} from './decimal';

const d = parseDecimal;

describe('exact decimals', () => {
  it('reads plain decimals only, and writes them back shortest or with every place', () => {
    expect(d('49.90')).toEqual({ units: 4990n, places: 2 });
    for (const bad of ['', '-1', '1e3', '1.', '.5', ' 1', '1,5']) {
      expect(() => d(bad)).toThrow(RangeError);
    }
    expect(formatDecimal(d('53.900'))).toBe('53.9');
    expect(formatDecimal(d('0.000'))).toBe('0');
    expect(formatDecimal(d('1200'))).toBe('1200');
    expect(formatFixed(rescale(d('20'), 2, 'down'))).toBe('20.00');
    expect(formatFixed(d('0.05'))).toBe('0.05');
  });

  it('multiplies exactly and rounds a quotient the way it is asked', () => {
    expect(formatDecimal(multiply(d('21.6'), d('0.925925925925925926')))).toBe(
      '20.0000000000000000016',
    );
    expect(formatDecimal(divide(d('49.90'), d('0.925925925925925926'), 2, 'up'))).toBe('53.9');
    expect(formatDecimal(divide(d('1'), d('3'), 4, 'down'))).toBe('0.3333');
    expect(formatDecimal(divide(d('2'), d('3'), 4, 'half-up'))).toBe('0.6667');
    expect(formatDecimal(divide(d('1'), d('3'), 4, 'up'))).toBe('0.3334');
    expect(formatDecimal(divide(d('6'), d('3'), 4, 'up'))).toBe('2');
    expect(() => divide(d('1'), d('0'), 2, 'up')).toThrow(RangeError);
  });

  it('adds, compares, subtracts down to zero, and converts to base units', () => {
    expect(formatDecimal(add(d('0.1'), d('0.25')))).toBe('0.35');
    expect(compare(d('1.10'), d('1.1'))).toBe(0);
    expect(compare(d('1.09'), d('1.1'))).toBe(-1);
    expect(formatDecimal(subtractFloor(d('1'), d('1.5')))).toBe('0');
    expect(toUnits(d('53.9'), 18, 'up')).toBe(53_900_000_000_000_000_000n);
    expect(toUnits(d('0.1234567'), 6, 'up')).toBe(123_457n);
    expect(toUnits(d('0.1234567'), 6, 'down')).toBe(123_456n);
  });
});
