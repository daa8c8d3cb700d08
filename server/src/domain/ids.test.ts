import { base32, newId, newTimeOrderedId } from './ids';

describe('ids', () => {
  it('are prefixed 128-bit base32 strings', () => {
    const id = newId('usr');
    expect(id).toMatch(/^usr_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newId('x'))).size).toBe(1000);
  });

  it('reject odd prefixes', () => {
    expect(() => newId('User')).toThrow();
    expect(() => newId('')).toThrow();
    expect(() => newTimeOrderedId('User', new Date())).toThrow();
  });

  it('made in time order sort in time order, in the same form', () => {
    const times = [0, 1, 255, 256, 1_764_000_000_000, 1_764_000_000_001, 2 ** 48 - 1];
    const ids = times.map((ms) => newTimeOrderedId('log', new Date(ms)));
    for (const id of ids) expect(id).toMatch(/^log_[0-9a-hjkmnp-tv-z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    const sameMs = Array.from({ length: 1000 }, () => newTimeOrderedId('log', new Date(5)));
    expect(new Set(sameMs).size).toBe(1000);
  });

  it('encode base32 like Crockford', () => {
    expect(base32(new Uint8Array([0xff]))).toBe('zw');
    expect(base32(new Uint8Array([0, 0, 0, 0, 0]))).toBe('00000000');
  });
});
