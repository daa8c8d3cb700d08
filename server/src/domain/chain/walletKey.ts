import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import type { ResolvedConfig } from '../../config';

// Deposit (and gas) addresses derive from one account-level extended public key (BIP-44
// m/44'/60'/0', what WALLET_XPUB holds). The seed is the signer's (server/src/signer): in
// development it writes the seed and this xpub file to DATA_DIR on first start (npm start runs it
// first); the web process reads only the xpub, and holds no code that makes a seed.

/** The development xpub's file in DATA_DIR, written by the signer beside its mnemonic. */
export const DEV_XPUB_FILE = 'dev-wallet.xpub';

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
  // A web process run without the signer (harness scripts, tests) has the signer make the
  // development seed it would: development only, where both share DATA_DIR anyway.
  if (!existsSync(file)) makeDevWallet(config.dataDir);
  const xpub = readFileSync(file, 'utf8').trim();
  assertExtendedPublicKey(xpub, file);
  return xpub;
}

type DevWalletMaker = (dataDir: string) => void;

/**
 * The signer's bundle sits beside the web process's and admin's (dist/server): asked with
 * `--dev-wallet <DATA_DIR>`, it writes the development seed and its xpub, then exits.
 */
function runSignerDevWallet(dataDir: string): void {
  const entry = path.join(__dirname, 'signer.cjs');
  if (!existsSync(entry)) {
    throw new WalletKeyError(
      `No development wallet in ${dataDir}: start the signer first (npm start does), or set WALLET_XPUB`,
    );
  }
  execFileSync(process.execPath, [entry, '--dev-wallet', dataDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

let makeDevWallet: DevWalletMaker = runSignerDevWallet;

/** Tests run from source, with no signer bundle beside them: they hand in the signer's maker. */
export function useDevWalletMaker(maker: DevWalletMaker): void {
  makeDevWallet = maker;
}

/**
 * Production: the web process faces the internet, so it must not be able to read the signer's
 * seed. Throws when SIGNER_SEED_FILE is readable from here.
 */
export function refuseReadableSeed(config: Pick<ResolvedConfig, 'isProduction' | 'signer'>): void {
  const file = config.signer.seedFile;
  if (!config.isProduction || !file) return;
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return; // not readable: as it should be
  }
  throw new WalletKeyError(
    `The web process can read SIGNER_SEED_FILE (${file}): give the seed to the signer only ` +
      '(another user, host or secret mount), then start again',
  );
}
