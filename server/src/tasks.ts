import type { ResolvedConfig } from './config';
import type { Db } from './db/connection';
import { resolveWalletXpub } from './domain/chain/walletKey';
import { gasProvisioningTask } from './domain/gasProvisioner';
import type { Task } from './domain/jobs/worker';

/** Everything the server runs in the background, on the job mechanism (domain/jobs). */
export function backgroundTasks(config: ResolvedConfig, db: Db): Task[] {
  return [gasProvisioningTask(db, resolveWalletXpub(config))];
}
