import type { Db } from '../db/connection';
import { POOLED_BRANCHES, pooledCounts } from '../domain/chain/addressPool';
import { queueStats } from '../jobs/queue';
import type { Clock } from '../domain/time';
import type { Metrics } from './metrics';

/**
 * The job queue as an operator alerts on it: a backlog that grows, an oldest wait that keeps
 * rising (no process is working the queue), jobs given up. Read from the database, so every
 * process reports the same figures (aggregate with max, not sum).
 */
export function registerJobGauges(metrics: Metrics, db: Db, clock: Clock): void {
  const stats = () => queueStats(db, clock().getTime());
  metrics.gauge({
    name: 'portal_jobs_due',
    help: 'Background jobs due and not yet taken by a worker, by kind.',
    labelNames: ['kind'],
    collect: async (set) => {
      for (const s of await stats()) set({ kind: s.kind }, s.due);
    },
  });
  metrics.gauge({
    name: 'portal_jobs_oldest_due_seconds',
    help: 'How long the oldest due job has waited for a worker, by kind (0 without a backlog).',
    labelNames: ['kind'],
    collect: async (set) => {
      for (const s of await stats()) set({ kind: s.kind }, s.oldestDueMs / 1000);
    },
  });
  metrics.gauge({
    name: 'portal_jobs_failed',
    help: 'Jobs that used up their attempts (npm run admin -- jobs), by kind.',
    labelNames: ['kind'],
    collect: async (set) => {
      for (const s of await stats()) set({ kind: s.kind }, s.failed);
    },
  });
}

/**
 * Addresses derived ahead of need, by branch (domain/chain/addressPool.ts): at 0 during a burst,
 * creations derive their own and take longer; the pool refills every 2 s.
 */
export function registerAddressPoolGauge(metrics: Metrics, db: Db, xpub: string): void {
  metrics.gauge({
    name: 'portal_address_pool_ready',
    help: 'Deposit and invoice addresses derived ahead of need (ADDRESS_POOL_SIZE), by branch.',
    labelNames: ['branch'],
    collect: async (set) => {
      const counts = await pooledCounts(db, xpub, POOLED_BRANCHES);
      for (const [branch, n] of Object.entries(counts)) set({ branch }, n);
    },
  });
}
