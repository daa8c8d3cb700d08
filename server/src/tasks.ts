import type { ResolvedConfig } from './config';
import type { Db } from './db/connection';
import { chainAdapterFor } from './domain/chain';
import { mineLocalBlocks } from './domain/chain/localAdapter';
import { resolveWalletXpub } from './domain/chain/walletKey';
import { gasProvisioningTask } from './domain/gasProvisioner';
import { depositWatcherTask } from './domain/gatewayDeposits';
import type { Task } from './domain/jobs/worker';
import { systemClock } from './domain/time';
import { webhookDeliveryTask, webhookDeps } from './domain/webhooks/delivery';

/** Everything the server runs in the background, on the job mechanism (domain/jobs). */
export function backgroundTasks(config: ResolvedConfig, db: Db): Task[] {
  const chain = chainAdapterFor(config, db);
  const tasks = [
    gasProvisioningTask(db, resolveWalletXpub(config)),
    depositWatcherTask(db, chain, systemClock),
    webhookDeliveryTask(webhookDeps(config, db, systemClock)),
  ];
  // The local chain moves on by itself, so its deposits gain confirmations as a real one's do.
  if (chain.kind === 'local' && config.localBlockMs > 0) {
    tasks.push({
      kind: 'chain.mine',
      everyMs: config.localBlockMs,
      async run() {
        await mineLocalBlocks(db, 1);
      },
    });
  }
  return tasks;
}
