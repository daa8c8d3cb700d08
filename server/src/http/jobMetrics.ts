import type { Db } from '../db/connection';
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
