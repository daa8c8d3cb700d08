import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config, ResolvedConfig } from './config';
import { openDb, type Db } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { resolveWalletXpub, WalletKeyError } from './domain/chain/walletKey';
import { ownerOnlyDir } from './ownerOnly';
import { seed } from './seed';
import type { DemoGateway } from './seed/demoApps';

export const SECRET_FILE = 'secret.key';
/** STORAGE_DIR when unset: where uploads have always lived, so existing data keeps working. */
export const DEFAULT_STORAGE_SUBDIR = 'uploads';

/** SECRET_KEY from the env, else DATA_DIR/secret.key (created with mode 0600 on first start). */
export function resolveSecretKey(config: Config, dataDir: string): string {
  if (config.secretKey) return config.secretKey;
  const file = path.join(dataDir, SECRET_FILE);
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return key;
    throw new Error(`${file} is shorter than 32 characters; delete it to regenerate`);
  }
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

export interface Runtime {
  config: ResolvedConfig;
  db: Db;
  close(): Promise<void>;
}

/**
 * The paths made absolute and defaulted, DATA_DIR created (0700), the secret key read or
 * generated.
 */
export function resolveConfig(config: Config): ResolvedConfig {
  const dataDir = path.resolve(config.dataDir);
  ownerOnlyDir(dataDir);
  return {
    ...config,
    dataDir,
    storageDir: path.resolve(config.storageDir ?? path.join(dataDir, DEFAULT_STORAGE_SUBDIR)),
    secretKey: resolveSecretKey(config, dataDir),
  };
}

/**
 * What the demo app's history needs: the deposit key (none in production without WALLET_XPUB,
 * which the gateway then refuses to start on) and whether deposits are on the local chain.
 */
function demoGatewayOf(config: ResolvedConfig): DemoGateway | undefined {
  try {
    return {
      xpub: resolveWalletXpub(config),
      localChain: !config.chainRpcUrl && !config.usdtContract,
    };
  } catch (error) {
    if (error instanceof WalletKeyError) return undefined;
    throw error;
  }
}

/** Shared by main, admin and tests: data dir, secret, database migrated to latest, seeded. */
export async function openRuntime(config: Config, opts: { seed?: boolean } = {}): Promise<Runtime> {
  const resolved = resolveConfig(config);
  const { dataDir } = resolved;
  const db = openDb(
    { dataDir, databaseUrl: config.databaseUrl },
    { keptReads: resolved.keptReads },
  );
  try {
    await migrateToLatest(db);
    if (opts.seed !== false) await seed(db, undefined, demoGatewayOf(resolved));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config: resolved, db, close: () => db.destroy() };
}
