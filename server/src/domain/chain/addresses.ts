import { createHash } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import type { NetworkType } from '../../db/schema';
import { APP_MESSAGES } from '../../../../src/shared/apps';
import { codedMessages } from '../messageCodes';

// Payout and operational wallet addresses per network type:
// EVM 40 hex characters with an optional 0x (mixed case must carry a valid EIP-55 checksum),
// Tron T + 33 base58 characters that decode to 21 bytes starting 0x41 plus a 4-byte
// double-sha256 checksum.

export const ADDRESS_MSG = codedMessages('address', {
  required: APP_MESSAGES.payoutRequired,
  invalid: APP_MESSAGES.invalidAddress,
  zeroPayout: 'The payout address is the zero address: payouts sent there are lost.',
  tokenContractPayout: (code: string) =>
    `The payout address is ${code}'s own token contract: tokens sent there are lost.`,
} as const);

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const TRON_PREFIX = 0x41;

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

export function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 255n));
    value >>= 8n;
  }
  // Each leading '1' stands for a leading zero byte.
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function base58CheckEncode(payload: Uint8Array): string {
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58Encode(Uint8Array.from([...payload, ...checksum]));
}

/** True for a Tron base58check address: 21 bytes with the 0x41 prefix and a valid checksum. */
export function isTronAddress(text: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return false;
  const bytes = base58Decode(text);
  if (!bytes || bytes.length !== 25 || bytes[0] !== TRON_PREFIX) return false;
  const payload = bytes.subarray(0, 21);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return checksum.equals(Buffer.from(bytes.subarray(21)));
}

/** The Tron form of a 20-byte account (hex, with or without 0x): 0x41 prefix, base58check. */
export function tronAddressFromEvm(evmAddress: string): string {
  const hex = evmAddress.replace(/^0x/i, '');
  return base58CheckEncode(Uint8Array.from([TRON_PREFIX, ...Buffer.from(hex, 'hex')]));
}

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

const ZERO_EVM_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The zero address of each network type (Tron's is the same 20 bytes, base58check). */
const ZERO_ADDRESSES = new Set([ZERO_EVM_ADDRESS, tronAddressFromEvm(ZERO_EVM_ADDRESS)]);

/**
 * Why coins or tokens sent to `address` (in its stored form, as checkPayoutAddress answers it)
 * are lost, or null: the zero address, which no one holds a key to, or the contract of the token
 * itself (`tokenContracts`: where the token is, as listed and as served), which keeps tokens sent
 * to it for no one.
 */
export function lostDestination(
  address: string,
  tokenContracts: readonly (string | null | undefined)[],
): 'zero_address' | 'token_contract' | null {
  if (ZERO_ADDRESSES.has(address)) return 'zero_address';
  const key = address.toLowerCase();
  const isContract = tokenContracts.some((c) => {
    if (!c) return false;
    // EVM addresses compare in any case (the case is only a checksum); Tron ones exactly.
    return c.startsWith('0x') ? c.toLowerCase() === key : c === address;
  });
  return isContract ? 'token_contract' : null;
}

/**
 * A payout address as entered -> the stored form (EVM: EIP-55 checksummed with 0x; Tron: as
 * given), or the portal's message. Every network type other than EVM is Tron-style.
 */
export function checkPayoutAddress(
  networkType: NetworkType,
  raw: string | undefined,
): AddressCheck {
  const text = (raw ?? '').trim();
  if (text === '') return { ok: false, message: ADDRESS_MSG.required };
  if (networkType === 'EVM') {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(text)) return { ok: false, message: ADDRESS_MSG.invalid };
    const address = text.startsWith('0x') ? text : `0x${text}`;
    const hex = address.slice(2);
    const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
    // Mixed case is a checksum claim: a typo in it must not send funds to the wrong address.
    if (mixedCase && !isAddress(address, { strict: true })) {
      return { ok: false, message: ADDRESS_MSG.invalid };
    }
    return { ok: true, address: getAddress(address.toLowerCase()) };
  }
  return isTronAddress(text)
    ? { ok: true, address: text }
    : { ok: false, message: ADDRESS_MSG.invalid };
}
