import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import type { Db } from '../../db/connection';
import { chainAdapterFor, ChainConfigError } from './index';
import { ACCOUNT_PATH, DEV_MNEMONIC_FILE, seedOfMnemonic } from '../../signer/server/seed';
import { DEV_XPUB_FILE, resolveWalletXpub, WalletKeyError } from './walletKey';

const ACCOUNT = HDKey.fromMasterSeed(
  mnemonicToSeedSync('test test test test test test test test test test test junk'),
).derive(ACCOUNT_PATH);

describe('resolveWalletXpub', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-key-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('uses WALLET_XPUB as given and writes no key files', () => {
    const xpub = ACCOUNT.publicExtendedKey;
    expect(resolveWalletXpub({ walletXpub: xpub, dataDir, isProduction: true })).toBe(xpub);
    expect(existsSync(path.join(dataDir, DEV_XPUB_FILE))).toBe(false);
  });

  it('refuses an extended private key or garbage in WALLET_XPUB', () => {
    const xprv = ACCOUNT.privateExtendedKey;
    expect(() => resolveWalletXpub({ walletXpub: xprv, dataDir, isProduction: false })).toThrow(
      /holds a private key/,
    );
    expect(() =>
      resolveWalletXpub({ walletXpub: 'xpub123', dataDir, isProduction: false }),
    ).toThrow(WalletKeyError);
  });

  it('creates a development key pair once and keeps using it', () => {
    const first = resolveWalletXpub({ walletXpub: undefined, dataDir, isProduction: false });
    expect(first).toMatch(/^xpub/);
    expect(
      readFileSync(path.join(dataDir, DEV_MNEMONIC_FILE), 'utf8').trim().split(' '),
    ).toHaveLength(12);
    expect(resolveWalletXpub({ walletXpub: undefined, dataDir, isProduction: false })).toBe(first);
  });

  it('derives the development xpub from its mnemonic as BIP-39 does', () => {
    const xpub = resolveWalletXpub({ walletXpub: undefined, dataDir, isProduction: false });
    const mnemonic = readFileSync(path.join(dataDir, DEV_MNEMONIC_FILE), 'utf8').trim();
    expect(Buffer.from(seedOfMnemonic(mnemonic))).toEqual(
      Buffer.from(mnemonicToSeedSync(mnemonic)),
    );
    expect(
      HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(ACCOUNT_PATH).publicExtendedKey,
    ).toBe(xpub);
  });

  it('refuses to generate a key in production', () => {
    expect(() => resolveWalletXpub({ walletXpub: undefined, dataDir, isProduction: true })).toThrow(
      'WALLET_XPUB is required in production',
    );
    expect(existsSync(path.join(dataDir, DEV_MNEMONIC_FILE))).toBe(false);
  });
});

describe('chainAdapterFor', () => {
  const db = {} as Db; // the factory only hands it to the local adapter

  it('picks the local chain without RPC settings and the EVM one with both', () => {
    expect(chainAdapterFor({ chainRpcUrl: undefined, usdtContract: undefined }, db).kind).toBe(
      'local',
    );
    const evm = chainAdapterFor(
      {
        chainRpcUrl: 'https://bsc-dataseed.example',
        usdtContract: '0x55d398326f99059fF775485246999027B3197955',
      },
      db,
    );
    expect(evm.kind).toBe('evm');
  });

  it('refuses half or malformed settings', () => {
    expect(() =>
      chainAdapterFor({ chainRpcUrl: 'http://127.0.0.1:8545', usdtContract: undefined }, db),
    ).toThrow(ChainConfigError);
    expect(() =>
      chainAdapterFor(
        { chainRpcUrl: 'ftp://x', usdtContract: '0x55d398326f99059fF775485246999027B3197955' },
        db,
      ),
    ).toThrow('CHAIN_RPC_URL must be an http(s) URL');
    expect(() =>
      chainAdapterFor(
        {
          chainRpcUrl: 'http://127.0.0.1:8545|ftp://x',
          usdtContract: '0x55d398326f99059fF775485246999027B3197955',
        },
        db,
      ),
    ).toThrow('CHAIN_RPC_URL must be an http(s) URL, or several separated by |');
    expect(() =>
      chainAdapterFor({ chainRpcUrl: 'http://127.0.0.1:8545', usdtContract: '0x1234' }, db),
    ).toThrow('USDT_CONTRACT must be a contract address');
  });
});
