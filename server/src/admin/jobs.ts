import { failedJobs, queueStats, retryJob } from '../jobs/queue';
import { printTable, singleArgument, type AdminCommand } from './command';

// The background job queue (domain/jobs), as an operator inspects it.

const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

const jobsList: AdminCommand = {
  name: 'jobs',
  usage: 'jobs',
  description:
    'Background jobs per kind (due, running, failed, oldest wait), then the failed ones.',
  async run(_args, { db }, io) {
    const now = Date.now();
    printTable(
      io,
      (await queueStats(db, now)).map((s) => ({
        kind: s.kind,
        due: String(s.due),
        running: String(s.running),
        failed: String(s.failed),
        oldest_wait: seconds(s.oldestDueMs),
      })),
    );
    const failed = await failedJobs(db);
    if (failed.length === 0) return 0;
    io.out('');
    io.out('Failed (retry with `jobs retry <id>`):');
    printTable(
      io,
      failed.map((job) => ({
        id: job.id,
        kind: job.kind,
        attempts: String(job.attempts),
        last_error: job.last_error ?? '',
      })),
    );
    return 0;
  },
};

const jobsRetry: AdminCommand = {
  name: 'jobs retry',
  usage: 'jobs retry <id>',
  description: 'Put a failed job back in the queue, due now, with fresh attempts.',
  async run(args, { db }, io) {
    const id = singleArgument(args);
    if (!(await retryJob(db, id, Date.now()))) {
      io.out(`No failed job ${id}.`);
      return 1;
    }
    io.out(`Job ${id} is queued again.`);
    return 0;
  },
};

export const jobCommands: AdminCommand[] = [jobsList, jobsRetry];
