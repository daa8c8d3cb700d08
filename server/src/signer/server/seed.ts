import { pbkdf2Sync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DEV_XPUB_FILE } from '../../domain/chain/walletKey';

// The wallet seed: only the signer reads it. Production names a file (SIGNER_SEED_FILE, a BIP-39
// mnemonic) given to the signer only; development generates one in DATA_DIR on first start and
// writes the account's xpub beside it, the only half the web process reads (walletKey.ts).

export const DEV_MNEMONIC_FILE = 'dev-wallet.mnemonic';
/** BIP-44 account of every address the gateway hands out (m/44'/60'/0'). */
export const ACCOUNT_PATH = "m/44'/60'/0'";

export class SeedError extends Error {}

/**
 * BIP-39 seed of a mnemonic without passphrase, as @scure/bip39's mnemonicToSeedSync computes it,
 * with Node's native PBKDF2: the pure-JS one costs a fresh DATA_DIR's start ~0.2 s of CPU.
 */
export function seedOfMnemonic(mnemonic: string): Uint8Array {
  return pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
}

function accountOf(mnemonic: string, origin: string): HDKey {
  if (!validateMnemonic(mnemonic, wordlist)) {
    throw new SeedError(`${origin} does not hold a valid BIP-39 mnemonic`);
  }
  return HDKey.fromMasterSeed(seedOfMnemonic(mnemonic)).derive(ACCOUNT_PATH);
}

/**
 * Creates the development seed and its xpub file in `dataDir` unless they exist; the xpub.
 * A second process starting at the same moment loses the 'wx' race and reads the winner's.
 */
export function ensureDevSeed(dataDir: string): string {
  const xpubFile = path.join(dataDir, DEV_XPUB_FILE);
  if (!existsSync(xpubFile)) {
    const mnemonic = generateMnemonic(wordlist, 128);
    const xpub = accountOf(mnemonic, 'the generated mnemonic').publicExtendedKey;
    try {
      writeFileSync(path.join(dataDir, DEV_MNEMONIC_FILE), `${mnemonic}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      writeFileSync(xpubFile, `${xpub}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(xpubFile, 'utf8').trim();
}

/**
 * The account key the signer signs with: SIGNER_SEED_FILE, else (development only) the seed of
 * DATA_DIR, created on first start. With WALLET_XPUB set, the seed must be that xpub's.
 */
export function loadAccountKey(options: {
  seedFile: string | undefined;
  dataDir: string;
  isProduction: boolean;
  walletXpub: string | undefined;
}): HDKey {
  let file = options.seedFile;
  if (!file) {
    if (options.isProduction) {
      throw new SeedError('SIGNER_SEED_FILE is required in production (the wallet mnemonic)');
    }
    ensureDevSeed(options.dataDir);
    file = path.join(options.dataDir, DEV_MNEMONIC_FILE);
  }
  const account = accountOf(readFileSync(file, 'utf8').trim(), file);
  if (options.walletXpub && account.publicExtendedKey !== options.walletXpub) {
    throw new SeedError(`The seed in ${file} is not the one WALLET_XPUB was derived from`);
  }
  return account;
}
