import { ECDH } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { publicKeyToAddress } from 'viem/accounts';
import { bytesToHex, type Address } from 'viem';

// Deposit addresses are derived from WALLET_XPUB (account-level xpub, e.g. m/44'/60'/0'):
// child m/0/<index>. The server never holds private keys.

export function deriveChildPublicKey(xpub: string, index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
    throw new RangeError(`Bad derivation index ${index}`);
  }
  const child = HDKey.fromExtendedKey(xpub).deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('Derived key has no public key');
  return child.publicKey;
}

export function deriveEvmAddress(xpub: string, index: number): Address {
  const compressed = deriveChildPublicKey(xpub, index);
  // node:crypto decompresses secp256k1 points, sparing a direct dependency on @noble/curves.
  const uncompressed = ECDH.convertKey(
    Buffer.from(compressed),
    'secp256k1',
    undefined,
    undefined,
    'uncompressed',
  );
  return publicKeyToAddress(bytesToHex(new Uint8Array(uncompressed as Buffer)));
}
