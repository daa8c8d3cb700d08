import type { ResolvedConfig } from './config';
import type { Db } from './db/connection';
import { specChainAdapters } from './domain/chain';
import { mineLocalBlocks } from './domain/chain/localAdapter';
import { resolveWalletXpub } from './domain/chain/walletKey';
import { depositCompletionTask } from './domain/depositCompletion';
import { gasProvisioningTask } from './domain/gasProvisioner';
import { depositWatcherTask } from './domain/gatewayDeposits';
import type { Task } from './domain/jobs/worker';
import { retentionTask } from './domain/retention';
import { systemClock } from './domain/time';
import { webhookDeliveryTask, webhookDeps } from './domain/webhooks/delivery';
import { signerClient, signerSocketPath } from './signer/transport';

/** Everything the server runs in the background, on the job mechanism (domain/jobs). */
export function backgroundTasks(config: ResolvedConfig, db: Db): Task[] {
  const tasks = [
    gasProvisioningTask(db, resolveWalletXpub(config)),
    webhookDeliveryTask(webhookDeps(config, db, systemClock)),
    retentionTask(config, db, systemClock),
  ];
  // Money out goes through the signer process (server/src/signer), on its socket.
  const socket = signerSocketPath(config);
  tasks.push(depositCompletionTask(db, signerClient(socket), socket, systemClock));
  // One watcher per chain id of the spec, on the local chain or over the chain's RPC.
  for (const chain of specChainAdapters(config, db)) {
    tasks.push(depositWatcherTask(db, chain, systemClock));
    // The local chain moves on by itself, so its deposits gain confirmations as a real one's do.
    if (chain.kind === 'local' && config.localBlockMs > 0) {
      tasks.push({
        kind: `chain.mine:${chain.chainId}`,
        everyMs: config.localBlockMs,
        async run() {
          await mineLocalBlocks(db, 1, chain.chainId);
        },
      });
    }
  }
  return tasks;
}
