import type { ResolvedConfig } from './config';
import { changesOf, type Db } from './db/connection';
import type { OwnerChanges } from './db/ownerChanges';
import type { ChainAdapter } from './domain/chain/adapter';
import { chainAdapterFor } from './domain/chain';
import { systemClock, type Clock } from './domain/time';
import { requestSigner, type RequestSigner } from './signer/client/requestMac';
import { directoryFileStore } from './storage/directoryStore';
import type { FileStore } from './storage/fileStore';

/** What handlers and security handlers close over (portal/<tag>.ts receive it). */
export interface AppContext {
  config: ResolvedConfig;
  db: Db;
  clock: Clock;
  /** The deposit chain, built once from the config (domain/chain). */
  chain: ChainAdapter;
  /** The uploaded images (storage/), shared by every process of the deployment. */
  files: FileStore;
  /** What this process keeps of the database's rows (db/ownerChanges.ts); none: KEPT_READS=off. */
  changes: OwnerChanges | undefined;
  /** MACs what the web process accepts for the signer (a withdrawal, a payout address). */
  sign: RequestSigner;
}

/** The one place the chain adapter and the file store are built; everything else receives them. */
export function createAppContext(
  config: ResolvedConfig,
  db: Db,
  clock: Clock = systemClock,
): AppContext {
  return {
    config,
    db,
    clock,
    chain: chainAdapterFor(config, db),
    files: directoryFileStore(config.storageDir),
    changes: changesOf(db),
    sign: requestSigner(config.signerRequestKey),
  };
}
