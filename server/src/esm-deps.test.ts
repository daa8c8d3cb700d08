import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { deriveChildPublicKey, deriveEvmAddress } from './domain/chain/hdWallet';
import { detectImage } from './domain/account/fileType';
import { newTotpSecret, totpCode, verifyTotp } from './domain/account/totp';

// file-type, otplib 13 and @scure/bip32 are ESM-only (or ESM-first); the CommonJS server
// require()s them through these wrappers.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('ESM-only dependencies in the server code path', () => {
  it('file-type sniffs a PNG and rejects text', async () => {
    expect(await detectImage(PNG)).toEqual({ ext: 'png', mime: 'image/png' });
    expect(await detectImage(Buffer.from('not an image at all'))).toBeNull();
  });

  it('otplib generates and verifies a TOTP with one step of tolerance', async () => {
    const secret = newTotpSecret();
    const at = new Date('2025-01-15T10:30:00Z');
    const code = await totpCode(secret, at);
    expect(code).toMatch(/^\d{6}$/);
    expect(await verifyTotp(secret, code, at)).toBe(true);
    expect(await verifyTotp(secret, code, new Date(at.getTime() + 30_000))).toBe(true);
    expect(await verifyTotp(secret, code, new Date(at.getTime() + 120_000))).toBe(false);
    expect(await verifyTotp(secret, '12345', at)).toBe(false);
  });

  it('@scure/bip32 derives children from an xpub', () => {
    // BIP-39 test mnemonic; account m/44'/60'/0' (what WALLET_XPUB holds).
    const seed = mnemonicToSeedSync('test test test test test test test test test test test junk');
    const account = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'");
    const xpub = account.publicExtendedKey;
    expect(Buffer.from(deriveChildPublicKey(xpub, 0))).toEqual(
      Buffer.from(account.deriveChild(0).deriveChild(0).publicKey ?? []),
    );
    // Well-known first Hardhat/Anvil account for this mnemonic.
    expect(deriveEvmAddress(xpub, 0)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(deriveEvmAddress(xpub, 1)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    // A branch (gas 1, gateway accounts 2) from its kept parent key, asked twice.
    for (let i = 0; i < 2; i += 1) {
      expect(Buffer.from(deriveChildPublicKey(xpub, 7, [2]))).toEqual(
        Buffer.from(account.deriveChild(2).deriveChild(0).deriveChild(7).publicKey ?? []),
      );
    }
    expect(deriveEvmAddress(xpub, 7, [2])).toBe(
      deriveEvmAddress(account.deriveChild(2).publicExtendedKey, 7),
    );
  });
});
