import { hostname } from 'node:os';
import type { Db } from '../db/connection';
import { randomToken } from '../domain/ids';
import { systemClock, type Clock } from '../domain/time';
import {
  claimJob,
  claimJobs,
  completeJob,
  ensureRecurring,
  extendLease,
  failJob,
  type GroupCap,
  type Job,
} from './queue';
import { EVERY_KIND, hearJobsDue, listenForJobsDue, type JobsDueListener } from './wakeups';

/**
 * Slots of their own for some kinds of job: a lane's jobs run only in its slots and never wait
 * for another lane's, so work that may hang (a webhook receiver that never answers) cannot hold
 * up the rest. Each process claims for each lane apart.
 */
export interface Lane {
  /** Tasks naming the same lane share its slots; one lane, one set of settings. */
  name: string;
  /**
   * Jobs of this lane one process runs at once; default one per task of the lane, which gives
   * each recurring kind a slot of its own (a recurring kind is one row: it never runs twice).
   */
  concurrency?: number;
  /** Caps the lane's jobs in flight per group, all processes together (queue.ts). */
  perGroup?: GroupCap;
}

/** A kind of background work. `run` must be idempotent: a job runs at least once. */
export interface Task {
  kind: string;
  run(job: Job): Promise<void>;
  /** Recurring: one job of this kind, run every `everyMs` by whichever process claims it. */
  everyMs?: number;
  /** Wait before the next attempt after `attempts` failed ones; default exponential, capped. */
  retryDelayMs?(attempts: number): number;
  /** Where it runs; without one, in the default lane of `concurrency` slots. */
  lane?: Lane;
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
  /** Jobs of the tasks without a lane run at once by this process; default 2. */
  concurrency?: number;
  /** A lease is renewed every third of this while the job runs. */
  leaseMs?: number;
  /**
   * PostgreSQL's URL: the worker then also hears the jobs other processes make due
   * (wakeups.ts); jobs this process makes due wake it on either engine.
   */
  listenUrl?: string;
}

export interface Worker {
  /** Runs due jobs one at a time, lane after lane, until none is left; answers how many ran. */
  drain(): Promise<number>;
  /** Looks at the queue now instead of at the next poll (after adding a job). */
  nudge(): void;
  /** Stops claiming, waits for the runs in progress. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_LANE = 'default';
const MAX_RETRY_DELAY_MS = 3_600_000;

/** 2^attempts seconds, capped at an hour, ±25 % jitter so failures do not retry in step. */
function defaultRetryDelay(attempts: number): number {
  const base = Math.min(1000 * 2 ** attempts, MAX_RETRY_DELAY_MS);
  return Math.round(base * (0.75 + Math.random() / 2));
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

interface LaneState {
  name: string;
  kinds: string[];
  concurrency: number;
  perGroup: GroupCap | undefined;
  /** The runs in its slots. */
  running: Set<Promise<void>>;
  sleepers: Set<() => void>;
  /** Woken since its loop last looked at the queue: it looks again instead of sleeping. */
  woken: boolean;
}

/** The tasks' lanes, each with its kinds; a lane named twice must be the same lane. */
function lanesOf(tasks: readonly Task[], defaultConcurrency: number): LaneState[] {
  const lanes = new Map<string, { lane: Lane; kinds: string[] }>();
  for (const task of tasks) {
    const lane = task.lane ?? { name: DEFAULT_LANE, concurrency: defaultConcurrency };
    const known = lanes.get(lane.name);
    if (!known) {
      lanes.set(lane.name, { lane, kinds: [task.kind] });
      continue;
    }
    if (
      known.lane.concurrency !== lane.concurrency ||
      known.lane.perGroup?.max !== lane.perGroup?.max
    ) {
      throw new Error(`Lane ${lane.name} is given two different settings`);
    }
    known.kinds.push(task.kind);
  }
  return [...lanes.values()].map(({ lane, kinds }) => {
    const concurrency = lane.concurrency ?? kinds.length;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`Lane ${lane.name} needs at least one slot`);
    }
    return {
      name: lane.name,
      kinds,
      concurrency,
      perGroup: lane.perGroup,
      running: new Set<Promise<void>>(),
      sleepers: new Set<() => void>(),
      woken: false,
    };
  });
}

/**
 * The job runner every server process starts. Processes share nothing but the database: each
 * claims due jobs under a lease (queue.ts), so adding processes adds capacity and never runs a
 * job twice at once. Each lane has a loop of its own that claims only its kinds, while it has a
 * free slot.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { db, log } = options;
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const tasks = new Map(options.tasks.map((task) => [task.kind, task]));
  const lanes = lanesOf(options.tasks, options.concurrency ?? 2);
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

  /** Claims and runs one due job of `lane`; false when none is due. */
  async function runOne(lane: LaneState): Promise<boolean> {
    const job = await claimJob(db, lane.kinds, workerId, leaseMs, now(), lane.perGroup);
    if (!job) return false;
    await run(job);
    return true;
  }

  let stopped = false;
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of sleepers) wake();
  };
  const sleep = (ms: number, lane: LaneState) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(wake, ms);
      timer.unref();
      function wake() {
        clearTimeout(timer);
        sleepers.delete(wake);
        lane.sleepers.delete(wake);
        resolve();
      }
      sleepers.add(wake);
      lane.sleepers.add(wake);
    });

  const wakeLane = (lane: LaneState) => {
    lane.woken = true;
    for (const wake of lane.sleepers) wake();
  };
  const laneOf = new Map(lanes.flatMap((lane) => lane.kinds.map((kind) => [kind, lane])));
  /** A job of `kind` may be due now (wakeups.ts). */
  const jobDue = (kind: string) => {
    if (kind === EVERY_KIND) lanes.forEach(wakeLane);
    else {
      const lane = laneOf.get(kind);
      if (lane) wakeLane(lane);
    }
  };

  /** Starts a claimed job in one of the lane's slots; its end frees the slot and wakes the lane. */
  function start(lane: LaneState, job: Job): void {
    const running = run(job)
      .catch((err: unknown) => log.error({ err, job: job.id }, 'Job queue unavailable'))
      .finally(() => {
        lane.running.delete(running);
        // A slot is free, and a group at its cap may have room again.
        wakeLane(lane);
        // A recurring job's next turn is due then: looked for on time, not at the next poll.
        if (job.every_ms !== null && !stopped) {
          setTimeout(() => wakeLane(lane), job.every_ms).unref();
        }
      });
    lane.running.add(running);
  }

  /**
   * One per lane: fills the lane's free slots with due jobs, all of them claimed in one
   * statement, then waits for a slot or a poll.
   */
  async function loop(lane: LaneState): Promise<void> {
    while (!stopped) {
      const free = lane.concurrency - lane.running.size;
      if (free <= 0) {
        await Promise.race(lane.running);
        continue;
      }
      let jobs: Job[] = [];
      lane.woken = false;
      try {
        jobs = await claimJobs(db, lane.kinds, workerId, leaseMs, now(), free, lane.perGroup);
      } catch (err) {
        log.error({ err, lane: lane.name }, 'Job queue unavailable');
      }
      for (const job of jobs) start(lane, job);
      // Fewer than asked: the rest of the due jobs are (almost always) of groups at their cap,
      // so the next look waits for a wake-up (a run ending, a job made due) or the poll. Looking
      // again at once would read a capped group's whole backlog for nothing.
      if (jobs.length < free && !stopped && !lane.woken) await sleep(options.pollMs, lane);
    }
  }

  const loops = options.pollMs > 0 ? lanes.map((lane) => loop(lane)) : [];
  const unhear = options.pollMs > 0 ? hearJobsDue(jobDue) : () => {};
  const listener: JobsDueListener | undefined =
    options.pollMs > 0 && options.listenUrl
      ? listenForJobsDue(options.listenUrl, jobDue)
      : undefined;

  return {
    async drain() {
      let count = 0;
      for (;;) {
        let ran = 0;
        for (const lane of lanes) if (await runOne(lane)) ran += 1;
        if (ran === 0) return count;
        count += ran;
      }
    },
    nudge: () => lanes.forEach(wakeLane),
    async stop() {
      stopped = true;
      unhear();
      await listener?.close();
      wakeAll();
      await Promise.all(loops);
      await Promise.all(lanes.flatMap((lane) => [...lane.running]));
    },
  };
}
