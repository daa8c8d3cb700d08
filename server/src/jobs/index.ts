import type { JobsConfig, ResolvedConfig } from '../config';
import type { Db } from '../db/connection';
import { chainAdapterFor, specChainAdapters } from '../domain/chain';
import type { ChainAdapter } from '../domain/chain/adapter';
import { mineLocalBlocks } from '../domain/chain/localAdapter';
import { EvmChainAdapter } from '../domain/chain/evmAdapter';
import { isEvmChain, type SpecChainId } from '../domain/chain/specChains';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import {
  REGISTER_KIND,
  registerWithSigner,
  registrationRetryDelay,
  type RegistrationPayload,
} from '../domain/apps/signerRegistration';
import {
  ARCHIVE_KIND,
  failArchive,
  prepareArchive,
  pruneArchives,
  type ArchiveDeps,
} from '../domain/account/archives';
import { fillAddressPool, POOLED_BRANCHES } from '../domain/chain/addressPool';
import { expireInvoices } from '../domain/invoices/expiry';
import { advanceRefunds } from '../domain/refunds/funding';
import { gasBalanceReader } from '../domain/chain/balances';
import { completeDeposits, followCompletedSweeps } from '../domain/payments/depositCompletion';
import { watchDeposits, watcherKind } from '../domain/payments/deposits';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { sendWithdrawals, type SendingDeps } from '../domain/payments/withdrawalSending';
import { applyRetention } from '../domain/retention';
import { systemClock, type Clock } from '../domain/time';
import { attemptDelivery, webhookDeps, type DeliveryDeps } from '../domain/webhooks/delivery';
import { DELIVER_KIND, type DeliverPayload } from '../domain/webhooks/events';
import {
  signerClient,
  signerEndpoint,
  signerPresent,
  type SignerClient,
  type SignerEndpoint,
} from '../signer/client/client';
import { directoryFileStore } from '../storage/directoryStore';
import { runNow } from './queue';
import type { Lane, Task } from './worker';

// Every background job the server runs, in one list: its kind, how often, and the domain call it
// makes. The worker (worker.ts) claims each recurring kind once across processes, under a lease
// in the jobs table (queue.ts); one-off jobs (webhook deliveries) are rows the domain adds in its
// own transactions.
//
// Each task runs in a lane, slots of its own in every process (worker.ts), so one kind of work
// never waits for another's: the chain's watchers and miners, the money and upkeep jobs, and
// the webhook deliveries, which wait on merchants' receivers and are the ones that may hang.

/** Each watcher and miner a slot of its own: a slow RPC holds up only its chain. */
const CHAIN_LANE: Lane = { name: 'chain' };

/** Crediting's next steps, money out and upkeep: each kind a slot of its own. */
const MONEY_LANE: Lane = { name: 'money' };

/**
 * The deliveries' own pool. A delivery waits up to 10 s for a receiver, so a receiver that
 * never answers holds a slot 10 s per attempt. By default 32 slots a process, and at most 2 of
 * them (across all processes) for one app's deliveries. A slot costs a socket and a waiting
 * request, not CPU, and one block may pay many merchants: 32 slots on two processes carry fifty
 * apps' events in one wave, where 8 made the last wait for three. A healthy receiver answers in
 * well under a second, so 2 at once carry an app's events (a few per deposit or withdrawal, in
 * order per resource anyway) with room to spare, while an app whose receiver hangs, however many
 * of its deliveries are due, leaves the other slots to the other apps. WEBHOOK_CONCURRENCY and
 * WEBHOOK_APP_CONCURRENCY change them (docs/operations.md).
 */
function webhookLane(slots: JobsConfig): Lane {
  return {
    name: 'webhooks',
    concurrency: slots.webhookSlots,
    perGroup: { max: slots.webhookSlotsPerApp },
  };
}

/** Gas (operational) wallets for newly enabled methods. */
export function gasProvisioningTask(db: Db, xpub: string): Task {
  return {
    kind: 'gas.provision',
    everyMs: 3_000,
    lane: MONEY_LANE,
    async run() {
      await provisionGasAddresses(db, xpub);
    },
  };
}

/**
 * Deposit and invoice addresses derived ahead of need (domain/chain/addressPool.ts), so that a
 * creation takes one instead of deriving it. Every 2 s: a burst that empties the pool derives on
 * demand meanwhile.
 */
export function addressPoolTask(db: Db, xpub: string, size: number): Task {
  return {
    kind: 'addresses.derive',
    everyMs: 2_000,
    lane: MONEY_LANE,
    async run() {
      await fillAddressPool(db, xpub, POOLED_BRANCHES, size);
    },
  };
}

/** One attempt at one webhook delivery; the domain schedules the next one on failure. */
export function webhookDeliveryTask(deps: DeliveryDeps, slots: JobsConfig): Task {
  return {
    kind: DELIVER_KIND,
    lane: webhookLane(slots),
    async run(job) {
      await attemptDelivery(deps, job.payload as DeliverPayload);
    },
  };
}

/**
 * New invoices past their expiry on the chain's clock move on (domain/invoices/expiry.ts), once
 * across processes.
 */
export function invoiceExpiryTask(db: Db, clock: () => Date, maxWaitMinutes: number): Task {
  return {
    kind: 'invoices.expire',
    everyMs: 2_000,
    lane: MONEY_LANE,
    async run() {
      await expireInvoices(db, clock(), { maxWaitMinutes });
    },
  };
}

/**
 * Refunds move on by themselves (domain/refunds/funding.ts): unclaimed links past their expiry
 * expire, and refunds awaiting funds are queued once their operational wallet covers them.
 */
export function refundsTask(config: ResolvedConfig, db: Db, clock: () => Date): Task {
  const chain = chainAdapterFor(config, db);
  return {
    kind: 'refunds.advance',
    everyMs: 5_000,
    lane: MONEY_LANE,
    async run() {
      await advanceRefunds(db, (trx) => gasBalanceReader(config, chain, trx), clock());
    },
  };
}

/** Hourly: event bodies and API Logs rows past their configured periods. */
export function retentionTask(config: ResolvedConfig, db: Db, clock: Clock): Task {
  const periods = {
    webhookBodyDays: config.webhooks.bodyRetentionDays,
    apiLogDays: config.apiLogRetentionDays,
  };
  return {
    kind: 'retention.prune',
    everyMs: 3_600_000,
    lane: MONEY_LANE,
    async run() {
      await applyRetention(db, periods, clock());
    },
  };
}

/**
 * A chain's credited deposits move on: gas top-up, then the sweep. One job per chain, so a chain
 * whose providers hang holds up only its own deposits. Without a signer listening (a web process
 * run alone: tests, harness scripts) it does nothing.
 */
export function depositCompletionTask(
  deps: SendingDeps,
  endpoint: SignerEndpoint,
  clock: () => Date,
  chainId: SpecChainId,
): Task {
  return {
    kind: `deposits.complete:${chainId}`,
    everyMs: 2_000,
    lane: MONEY_LANE,
    async run() {
      if (!signerPresent(endpoint)) return;
      await completeDeposits(deps.db, deps.signer, clock(), deps.signerRefused, chainId);
      await followCompletedSweeps(deps, clock(), chainId);
    },
  };
}

/**
 * A chain's queued withdrawals (and refunds) go to the signer, oldest first; one job per chain,
 * as above. Idle without a signer.
 */
export function withdrawalSendingTask(
  deps: SendingDeps,
  endpoint: SignerEndpoint,
  clock: () => Date,
  chainId: SpecChainId,
): Task {
  return {
    kind: `withdrawals.send:${chainId}`,
    everyMs: 2_000,
    lane: MONEY_LANE,
    async run() {
      if (!signerPresent(endpoint)) return;
      await sendWithdrawals(deps, clock(), chainId);
    },
  };
}

/**
 * A payout address or whitelist change, registered with the signer once the change committed
 * (queued in its transaction); retried, at most a minute apart, until the signer takes it.
 */
export function signerRegistrationTask(
  db: Db,
  signer: SignerClient,
  endpoint: SignerEndpoint,
): Task {
  return {
    kind: REGISTER_KIND,
    lane: MONEY_LANE,
    retryDelayMs: registrationRetryDelay,
    async run(job) {
      if (!signerPresent(endpoint)) throw new Error('No signer is listening yet');
      await registerWithSigner(db, signer, job.payload as RegistrationPayload);
    },
  };
}

/**
 * An account archive asked for from the settings panel (domain/account/archives.ts), written to
 * the storage directory; after its last failed attempt the archive is marked failed.
 */
export function accountArchiveTask(deps: ArchiveDeps): Task {
  return {
    kind: ARCHIVE_KIND,
    lane: MONEY_LANE,
    async run(job) {
      const { archiveId } = job.payload as { archiveId: string };
      try {
        await prepareArchive(deps, archiveId);
      } catch (error) {
        if (job.attempts >= job.max_attempts) await failArchive(deps, archiveId);
        throw error;
      }
    },
  };
}

/** Hourly: the files of account archives past their day leave the storage directory. */
export function archivePruneTask(deps: ArchiveDeps): Task {
  return {
    kind: 'archives.prune',
    everyMs: 3_600_000,
    lane: MONEY_LANE,
    async run() {
      await pruneArchives(deps, deps.clock());
    },
  };
}

/** The chain watcher: one job per chain, so a slow or unreachable RPC holds up only its chain. */
export function depositWatcherTask(db: Db, adapter: ChainAdapter, clock: () => Date): Task {
  return {
    kind: watcherKind(adapter.chainId),
    everyMs: 2_000,
    lane: CHAIN_LANE,
    async run() {
      await watchDeposits(db, adapter, clock());
    },
  };
}

/** What the jobs tell the process's metrics. */
export interface JobCounters {
  /** The signer refused a request it could not trust (signer_refusals_total). */
  signerRefused?(request: 'withdrawal' | 'sweep'): void;
}

/** Everything the server runs in the background, on the job mechanism (worker.ts). */
export function backgroundTasks(
  config: ResolvedConfig,
  db: Db,
  counters: JobCounters = {},
): Task[] {
  const archives: ArchiveDeps = {
    db,
    files: directoryFileStore(config.storageDir),
    feeLeg: config.signer.feeAddress !== undefined,
    clock: systemClock,
  };
  const tasks = [
    gasProvisioningTask(db, resolveWalletXpub(config)),
    addressPoolTask(db, resolveWalletXpub(config), config.addressPoolSize),
    webhookDeliveryTask(webhookDeps(config, db, systemClock), config.jobs),
    retentionTask(config, db, systemClock),
    invoiceExpiryTask(db, systemClock, config.invoiceExpiryMaxWaitMinutes),
    refundsTask(config, db, systemClock),
    accountArchiveTask(archives),
    archivePruneTask(archives),
  ];
  // Money out goes through the signer process (server/src/signer), on its socket.
  const endpoint = signerEndpoint(config);
  const signer = signerClient(endpoint);
  const chains = specChainAdapters(config, db);
  tasks.push(signerRegistrationTask(db, signer, endpoint));
  const sending: SendingDeps = {
    db,
    signer,
    head: async (chainId) => {
      const chain = chains.find((c) => c.chainId === chainId);
      if (!chain) throw new Error(`No chain ${chainId} is served`);
      return chain.latestBlock();
    },
    finalized: async (chainId) => {
      const chain = chains.find((c) => c.chainId === chainId);
      return chain instanceof EvmChainAdapter ? chain.finalizedBlock() : null;
    },
    signerRefused: counters.signerRefused,
  };
  for (const chain of chains) {
    tasks.push(depositWatcherTask(db, chain, systemClock));
    if (isEvmChain(chain.chainId)) {
      tasks.push(depositCompletionTask(sending, endpoint, systemClock, chain.chainId));
      tasks.push(withdrawalSendingTask(sending, endpoint, systemClock, chain.chainId));
    }
    // The local chain moves on by itself, so its deposits gain confirmations as a real one's do.
    if (chain.kind === 'local' && config.localBlockMs > 0) {
      tasks.push({
        kind: `chain.mine:${chain.chainId}`,
        everyMs: config.localBlockMs,
        lane: CHAIN_LANE,
        async run() {
          await mineLocalBlocks(db, 1, chain.chainId);
          // The new block is looked at now, not at the watcher's next turn.
          await runNow(db, watcherKind(chain.chainId), Date.now());
        },
      });
    }
  }
  return tasks;
}
