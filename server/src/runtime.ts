import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config, ResolvedConfig } from './config';
import { DB_FILE, openDb, type Db } from './db/connection';
import { hasMigrated, migrateToLatest } from './db/migrate';
import { resolveWalletXpub, WalletKeyError } from './domain/chain/walletKey';
import { closeProviderPools } from './domain/chain/rpc';
import { registerPlansAtUpgrade } from './domain/billing/subscriptions';
import { macWithdrawalsAtUpgrade } from './domain/payments/withdrawals';
import { ownerOnlyDir } from './ownerOnly';
import { loadRequestKey } from './signer/client/requestKey';
import { requestSigner } from './signer/client/requestMac';
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
 * generated, the signer's request key read (made when missing by the signer, and by the web
 * process outside production).
 */
export function resolveConfig(
  config: Config,
  options: { createRequestKey?: boolean } = {},
): ResolvedConfig {
  const dataDir = path.resolve(config.dataDir);
  ownerOnlyDir(dataDir);
  return {
    ...config,
    dataDir,
    storageDir: path.resolve(config.storageDir ?? path.join(dataDir, DEFAULT_STORAGE_SUBDIR)),
    secretKey: resolveSecretKey(config, dataDir),
    signerRequestKey: loadRequestKey({
      dataDir,
      signer: config.signer,
      create: options.createRequestKey ?? !config.isProduction,
    }),
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
      origin: `http://localhost:${config.port}`,
      rates: config,
      serverKey: config.secretKey,
      testLocalChain: !config.chainRpcUrls.has(97),
    };
  } catch (error) {
    if (error instanceof WalletKeyError) return undefined;
    throw error;
  }
}

/**
 * An operator command found no database where it looked: it never makes one (a new DATA_DIR
 * would also mean a new secret and, in development, a new wallet).
 */
export class NoDatabaseError extends Error {}

interface OpenOptions {
  /** false: no seed at all (tests that seed themselves). */
  seed?: boolean;
  /**
   * Only a database the server has made (npm run admin): DATA_DIR must exist and hold the
   * SQLite file, or the PostgreSQL schema must be migrated, else NoDatabaseError and nothing is
   * created. It is migrated to latest and given the reference data, never the demo account: an
   * operator command run without NODE_ENV against a production database must not add it.
   */
  existing?: boolean;
  /** A server process: SQLite checkpoints on a thread of their own (db/checkpoints.ts). */
  serving?: boolean;
}

/** Shared by main, admin and tests: data dir, secret, database migrated to latest, seeded. */
export async function openRuntime(config: Config, opts: OpenOptions = {}): Promise<Runtime> {
  const dataDir = path.resolve(config.dataDir);
  if (opts.existing) refuseMissingDatabase(config, dataDir);
  const db = openDb(
    { dataDir, databaseUrl: config.databaseUrl },
    { keptReads: config.keptReads, backgroundCheckpoints: opts.serving === true },
  );
  try {
    if (opts.existing && !(await hasMigrated(db))) throw noDatabase(config, dataDir);
    // After the check: DATA_DIR's secret key is generated here when there is none.
    const resolved = resolveConfig(config);
    const migrated = await migrateToLatest(db);
    const sign = requestSigner(resolved.signerRequestKey);
    await macWithdrawalsAtUpgrade(db, migrated, sign);
    await registerPlansAtUpgrade(db, migrated, sign, new Date());
    if (opts.seed !== false) {
      const demo = resolved.seedDemo && !opts.existing;
      await seed(db, {
        demo,
        retireDemo: !resolved.seedDemo,
        gateway: demo ? demoGatewayOf(resolved) : undefined,
        sign,
      });
    }
    return {
      config: resolved,
      db,
      close: async () => {
        // The RPC pools' rankings run on timers of their own: stopped with the runtime.
        closeProviderPools();
        await db.destroy();
      },
    };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

function noDatabase(config: Config, dataDir: string): NoDatabaseError {
  if (config.databaseUrl) {
    return new NoDatabaseError(
      `No database of this server at DATABASE_URL (${withoutPassword(config.databaseUrl)}):` +
        ' its tables are made by the server on its first start; set DATABASE_URL to the' +
        " server's database.",
    );
  }
  return new NoDatabaseError(
    `No database in ${dataDir}: set DATA_DIR to the server's data directory (or DATABASE_URL).`,
  );
}

/** Before anything is opened: opening the SQLite file creates it, and DATA_DIR with it. */
function refuseMissingDatabase(config: Config, dataDir: string): void {
  if (!config.databaseUrl && !existsSync(path.join(dataDir, DB_FILE))) {
    throw noDatabase(config, dataDir);
  }
  // On PostgreSQL too: the server keeps its secret key and files there.
  if (!existsSync(dataDir)) {
    throw new NoDatabaseError(
      `No data directory ${dataDir}: set DATA_DIR to the server's data directory.`,
    );
  }
}

function withoutPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
