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

  it('encode inputs of any length bit by bit, one after another', () => {
    const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
    const reference = (bytes: Uint8Array) => {
      const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
      const padded = bits.padEnd(Math.ceil(bits.length / 5) * 5, '0');
      return (padded.match(/.{5}/g) ?? []).map((five) => alphabet[parseInt(five, 2)]).join('');
    };
    // 20 bytes: an API key's; 50: longer than any id, past the first encoding buffer.
    for (const length of [1, 2, 3, 7, 16, 20, 50]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length * 11) % 256);
      expect(base32(bytes)).toBe(reference(bytes));
    }
    expect(base32(new Uint8Array(0))).toBe('');
  });
});
