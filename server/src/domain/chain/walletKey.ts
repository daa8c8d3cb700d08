import { pbkdf2Sync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { ResolvedConfig } from '../../config';

// Deposit (and gas) addresses derive from one account-level extended public key (BIP-44
// m/44'/60'/0', what WALLET_XPUB holds). Without WALLET_XPUB a development key pair is made in
// DATA_DIR on first start: the mnemonic goes to a file for the developer (to move test funds)
// and is never read back; the server reads only the xpub file.

export const DEV_MNEMONIC_FILE = 'dev-wallet.mnemonic';
export const DEV_XPUB_FILE = 'dev-wallet.xpub';
export const ACCOUNT_PATH = "m/44'/60'/0'";

export class WalletKeyError extends Error {}

type KeyConfig = Pick<ResolvedConfig, 'walletXpub' | 'dataDir' | 'isProduction'>;

/** Throws unless `xpub` is a valid extended key without its private half. */
export function assertExtendedPublicKey(xpub: string, origin: string): void {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub);
  } catch (error) {
    throw new WalletKeyError(`${origin} is not an extended public key (${String(error)})`);
  }
  if (key.privateKey) {
    throw new WalletKeyError(
      `${origin} holds a private key: give the account's extended PUBLIC key (xpub) instead`,
    );
  }
}

/**
 * BIP-39 seed of a mnemonic without passphrase, as @scure/bip39's mnemonicToSeedSync computes it,
 * with Node's native PBKDF2: the pure-JS one costs a fresh DATA_DIR's start ~0.2 s of CPU.
 */
export function seedOfMnemonic(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
}

/** Creates the development key pair files; returns the xpub. */
function createDevKeyPair(dataDir: string): string {
  const mnemonic = generateMnemonic(wordlist, 128);
  const account = HDKey.fromMasterSeed(seedOfMnemonic(mnemonic)).derive(ACCOUNT_PATH);
  const xpub = account.publicExtendedKey;
  // 'wx': a second process starting at the same moment loses the race and reads ours instead.
  writeFileSync(path.join(dataDir, DEV_XPUB_FILE), `${xpub}\n`, { mode: 0o600, flag: 'wx' });
  writeFileSync(path.join(dataDir, DEV_MNEMONIC_FILE), `${mnemonic}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  return xpub;
}

/**
 * WALLET_XPUB, else the development xpub of DATA_DIR (created on first call). Production refuses
 * to run on a generated key: its mnemonic would sit on the server's disk.
 */
export function resolveWalletXpub(config: KeyConfig): string {
  if (config.walletXpub) {
    assertExtendedPublicKey(config.walletXpub, 'WALLET_XPUB');
    return config.walletXpub;
  }
  if (config.isProduction) {
    throw new WalletKeyError(
      'WALLET_XPUB is required in production (the account xpub deposit addresses derive from)',
    );
  }
  const file = path.join(config.dataDir, DEV_XPUB_FILE);
  let xpub: string;
  if (existsSync(file)) {
    xpub = readFileSync(file, 'utf8').trim();
  } else {
    try {
      xpub = createDevKeyPair(config.dataDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      xpub = readFileSync(file, 'utf8').trim();
    }
  }
  assertExtendedPublicKey(xpub, file);
  return xpub;
}
