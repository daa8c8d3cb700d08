import { ECDH } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { publicKeyToAddress } from 'viem/accounts';
import { bytesToHex, type Address } from 'viem';

// Deposit addresses are derived from WALLET_XPUB (account-level xpub, e.g. m/44'/60'/0'):
// child m/0/<index> (m/<branch>/0/<index> for gas and gateway accounts). The server never holds
// private keys.

// Parsing an xpub and deriving one level cost about 1 ms each (secp256k1 in JS), and addresses
// are handed out one at a time under a lock: the parent key of each kind of address is kept.
// They all come from WALLET_XPUB, so there are a handful.
const parents = new Map<string, HDKey>();

function parentKey(xpub: string, path: readonly number[]): HDKey {
  const id = `${xpub}/${path.join('/')}`;
  let key = parents.get(id);
  if (!key) {
    key = path.reduce((parent, index) => parent.deriveChild(index), HDKey.fromExtendedKey(xpub));
    parents.set(id, key);
  }
  return key;
}

/** The public key at xpub/<branch…>/0/<index>. */
export function deriveChildPublicKey(
  xpub: string,
  index: number,
  branch: readonly number[] = [],
): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
    throw new RangeError(`Bad derivation index ${index}`);
  }
  const child = parentKey(xpub, [...branch, 0]).deriveChild(index);
  if (!child.publicKey) throw new Error('Derived key has no public key');
  return child.publicKey;
}

export function deriveEvmAddress(
  xpub: string,
  index: number,
  branch: readonly number[] = [],
): Address {
  const compressed = deriveChildPublicKey(xpub, index, branch);
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
