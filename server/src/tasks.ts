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
import { withdrawalSendingTask } from './domain/withdrawalSending';
import { signerClient, signerEndpoint } from './signer/transport';

/** Everything the server runs in the background, on the job mechanism (domain/jobs). */
export function backgroundTasks(config: ResolvedConfig, db: Db): Task[] {
  const tasks = [
    gasProvisioningTask(db, resolveWalletXpub(config)),
    webhookDeliveryTask(webhookDeps(config, db, systemClock)),
    retentionTask(config, db, systemClock),
  ];
  // Money out goes through the signer process (server/src/signer), on its socket.
  const endpoint = signerEndpoint(config);
  const signer = signerClient(endpoint);
  const chains = specChainAdapters(config, db);
  tasks.push(depositCompletionTask(db, signer, endpoint, systemClock));
  tasks.push(
    withdrawalSendingTask(
      {
        db,
        signer,
        head: async (chainId) => {
          const chain = chains.find((c) => c.chainId === chainId);
          if (!chain) throw new Error(`No chain ${chainId} is served`);
          return chain.latestBlock();
        },
      },
      endpoint,
      systemClock,
    ),
  );
  // One watcher per chain id of the spec, on the local chain or over the chain's RPC.
  for (const chain of chains) {
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
