import { base32, newId } from './ids';

describe('ids', () => {
  it('are prefixed 128-bit base32 strings', () => {
    const id = newId('usr');
    expect(id).toMatch(/^usr_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newId('x'))).size).toBe(1000);
  });

  it('reject odd prefixes', () => {
    expect(() => newId('User')).toThrow();
    expect(() => newId('')).toThrow();
  });

  it('encode base32 like Crockford', () => {
    expect(base32(new Uint8Array([0xff]))).toBe('zw');
    expect(base32(new Uint8Array([0, 0, 0, 0, 0]))).toBe('00000000');
  });
});
