import { listen } from '../db/listener';

// Jobs wake the workers instead of waiting for their poll. A job that becomes due now (a webhook
// delivery added with its event, a watcher asked to run for a new block) is claimed the moment
// its transaction commits:
// - in this process, `jobDue` tells the process's workers once the current turn of the event
//   loop ends (on SQLite a claim then waits for the adding transaction's commit: one connection,
//   used by one transaction at a time);
// - on PostgreSQL, every process hears the `job_due` notification that migration 0550's trigger
//   sends on commit, on its listening connection (`listenForJobsDue`).
// The worker's poll stays as the safety net: a missed notification (the listening connection
// dropped) costs at most one poll interval, and a job due later is found by the poll.

/** Told the kind of a job that may be due now. */
export type JobWake = (kind: string) => void;

const workers = new Set<JobWake>();
/** Kinds signalled in the current turn, told once at its end. */
const pending = new Set<string>();

function tell(): void {
  const kinds = [...pending];
  pending.clear();
  for (const wake of workers) for (const kind of kinds) wake(kind);
}

/** A job of `kind` may be due now: this process's workers look for it at the end of this turn. */
export function jobDue(kind: string): void {
  if (workers.size === 0) return;
  if (pending.size === 0) setImmediate(tell);
  pending.add(kind);
}

/** Hears `jobDue` in this process until the answered function is called. */
export function hearJobsDue(wake: JobWake): () => void {
  workers.add(wake);
  return () => void workers.delete(wake);
}

/** PostgreSQL's channel (migration 0550). */
export const JOB_DUE_CHANNEL = 'job_due';

export interface JobsDueListener {
  close(): Promise<void>;
}

/**
 * Hears `job_due` on the process's listening connection (db/listener.ts) and tells `wake` each
 * kind; whenever it starts listening (again), every kind (`'*'`): notifications sent meanwhile
 * are lost.
 */
export function listenForJobsDue(connectionString: string, wake: JobWake): JobsDueListener {
  return listen(connectionString, JOB_DUE_CHANNEL, {
    heard: (kind) => {
      if (kind) wake(kind);
    },
    listening: () => wake(EVERY_KIND),
    lost: () => {},
  });
}

/** Wakes every lane. */
export const EVERY_KIND = '*';
