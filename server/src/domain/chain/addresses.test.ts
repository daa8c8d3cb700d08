import { createHash } from 'node:crypto';
import {
  ADDRESS_MSG,
  base58Decode,
  base58Encode,
  checkPayoutAddress,
  isTronAddress,
  tronAddressFromEvm,
} from './addresses';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** base58check of a 21-byte payload with the given first byte. */
function tronLike(prefix: number): string {
  const payload = Uint8Array.from([prefix, ...Buffer.alloc(20, 7)]);
  return base58Encode(Uint8Array.from([...payload, ...sha(sha(payload)).subarray(0, 4)]));
}

// EVM: EIP-55 mixed case; Tron: base58check with the 0x41 prefix. The second address differs from
// the first in its last character only, so the pattern matches but the checksum does not.
describe.each([
  [
    'EVM',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
  ],
  ['TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
] as const)('%s payout addresses with a checksum', (network, valid, wrongChecksum) => {
  it('accepts a valid checksum and stores the address as given', () => {
    expect(checkPayoutAddress(network, valid)).toEqual({ ok: true, address: valid });
  });

  it('refuses a wrong checksum', () => {
    expect(checkPayoutAddress(network, wrongChecksum)).toEqual({
      ok: false,
      message: 'Please Enter valid Address',
    });
  });
});

describe('EVM payout addresses', () => {
  it.each([
    '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED',
    ' 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ',
  ])('accepts the single-case %j, with or without 0x, and stores it checksummed', (raw) => {
    expect(checkPayoutAddress('EVM', raw)).toEqual({
      ok: true,
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
  });

  it('refuses wrong lengths and non-hex characters, and says when it is missing', () => {
    for (const raw of [
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea',
      '0xZZaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    ]) {
      expect(checkPayoutAddress('EVM', raw)).toEqual({ ok: false, message: ADDRESS_MSG.invalid });
    }
    expect(checkPayoutAddress('EVM', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').ok).toBe(false);
    expect(checkPayoutAddress('EVM', '  ')).toEqual({ ok: false, message: ADDRESS_MSG.required });
    expect(checkPayoutAddress('EVM', undefined)).toEqual({
      ok: false,
      message: 'Payout addrress is required',
    });
  });
});

describe('Tron payout addresses', () => {
  it('refuses a bad checksum even when the pattern matches', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
  });

  it('refuses a valid checksum over another prefix', () => {
    const other = tronLike(0x42);
    expect(other).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(isTronAddress(other)).toBe(false);
    expect(isTronAddress(tronLike(0x41))).toBe(true);
  });

  it('refuses EVM addresses and wrong alphabets on Tron networks', () => {
    expect(checkPayoutAddress('TRON', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed').ok).toBe(false);
    expect(checkPayoutAddress('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t').ok).toBe(false);
  });

  it('turns a 20-byte account into its Tron form and back', () => {
    const address = tronAddressFromEvm('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(address).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(
      Buffer.from(base58Decode(address) ?? [])
        .subarray(1, 21)
        .toString('hex'),
    ).toBe('a614f803b6fd780986a42c78ec9c7f77e6ded13c');
  });
});
