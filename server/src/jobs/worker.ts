import { hostname } from 'node:os';
import type { Db } from '../db/connection';
import { randomToken } from '../domain/ids';
import { systemClock, type Clock } from '../domain/time';
import { claimJob, completeJob, ensureRecurring, extendLease, failJob, type Job } from './queue';

/** A kind of background work. `run` must be idempotent: a job runs at least once. */
export interface Task {
  kind: string;
  run(job: Job): Promise<void>;
  /** Recurring: one job of this kind, run every `everyMs` by whichever process claims it. */
  everyMs?: number;
  /** Wait before the next attempt after `attempts` failed ones; default exponential, capped. */
  retryDelayMs?(attempts: number): number;
}

export interface JobLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WorkerOptions {
  db: Db;
  tasks: readonly Task[];
  log: JobLogger;
  clock?: Clock;
  /** Idle wait between looks at the queue; 0 starts no loop (tests call `drain`). */
  pollMs: number;
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** A lease is renewed every third of this while the job runs. */
  leaseMs?: number;
}

export interface Worker {
  /** Runs due jobs until none is left; answers how many ran. */
  drain(): Promise<number>;
  /** Looks at the queue now instead of at the next poll (after adding a job). */
  nudge(): void;
  /** Stops claiming, waits for the runs in progress. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const MAX_RETRY_DELAY_MS = 3_600_000;

/** 2^attempts seconds, capped at an hour, ±25 % jitter so failures do not retry in step. */
function defaultRetryDelay(attempts: number): number {
  const base = Math.min(1000 * 2 ** attempts, MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.75 + Math.random() / 2));
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * The job runner every server process starts. Processes share nothing but the database: each
 * claims due jobs under a lease (queue.ts), so adding processes adds capacity and never runs a
 * job twice at once.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { db, log } = options;
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const tasks = new Map(options.tasks.map((task) => [task.kind, task]));
  const kinds = [...tasks.keys()];
  const workerId = `${hostname()}:${process.pid}:${randomToken(6)}`;
  const now = () => clock().getTime();

  for (const task of options.tasks) {
    if (task.everyMs !== undefined) await ensureRecurring(db, task.kind, task.everyMs, now());
  }

  async function run(job: Job): Promise<void> {
    const task = tasks.get(job.kind);
    if (!task) throw new Error(`No task for job kind ${job.kind}`);
    const heartbeat = setInterval(() => {
      extendLease(db, job, workerId, leaseMs, now())
        .then((held) => {
          if (!held) log.warn({ job: job.id, kind: job.kind }, 'Job lease lost while running');
        })
        .catch((err: unknown) => log.error({ err, job: job.id }, 'Job lease renewal failed'));
    }, leaseMs / 3);
    heartbeat.unref();
    try {
      await task.run(job);
      await completeJob(db, job, workerId, now());
    } catch (err) {
      log.error({ err, job: job.id, kind: job.kind, attempts: job.attempts }, 'Job failed');
      const delay = job.every_ms ?? (task.retryDelayMs ?? defaultRetryDelay)(job.attempts);
      await failJob(db, job, workerId, errorText(err), now() + delay);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Claims and runs one due job; false when none is due. */
  async function runOne(): Promise<boolean> {
    const job = await claimJob(db, kinds, workerId, leaseMs, now());
    if (!job) return false;
    await run(job);
    return true;
  }

  let stopped = false;
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of sleepers) wake();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(wake, ms);
      timer.unref();
      function wake() {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      }
      sleepers.add(wake);
    });

  async function loop(): Promise<void> {
    while (!stopped) {
      let ran = false;
      try {
        ran = await runOne();
      } catch (err) {
        log.error({ err }, 'Job queue unavailable');
      }
      if (!ran && !stopped) await sleep(options.pollMs);
    }
  }

  const loops =
    options.pollMs > 0 ? Array.from({ length: options.concurrency ?? 2 }, () => loop()) : [];

  return {
    async drain() {
      let count = 0;
      while (await runOne()) count += 1;
      return count;
    },
    nudge: wakeAll,
    async stop() {
      stopped = true;
      wakeAll();
      await Promise.all(loops);
    },
  };
}
