import pg from 'pg';

// Jobs wake the workers instead of waiting for their poll. A job that becomes due now (a webhook
// delivery added with its event, a watcher asked to run for a new block) is claimed the moment
// its transaction commits:
// - in this process, `jobDue` tells the process's workers once the current turn of the event
//   loop ends (on SQLite a claim then waits for the adding transaction's commit: one connection,
//   used by one transaction at a time);
// - on PostgreSQL, every process hears the `job_due` notification that migration 0550's trigger
//   sends on commit, on a connection of its own (`listenForJobsDue`).
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
const RECONNECT_MS = 1_000;

export interface JobsDueListener {
  close(): Promise<void>;
}

/**
 * Listens for `job_due` on a connection of its own and tells `wake` each kind. Reconnects after
 * a second when the connection drops, and then tells `wake` every kind (`'*'`): notifications
 * sent meanwhile are lost.
 */
export function listenForJobsDue(connectionString: string, wake: JobWake): JobsDueListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  function drop(failed: pg.Client) {
    if (client !== failed) return;
    client = undefined;
    failed.end().catch(() => {});
    if (!closed) retry = setTimeout(start, RECONNECT_MS).unref();
  }

  function start() {
    retry = undefined;
    if (closed || client) return;
    const mine = new pg.Client({ connectionString, application_name: 'jobs-due-listener' });
    client = mine;
    mine.on('notification', (message) => {
      if (message.channel === JOB_DUE_CHANNEL && message.payload) wake(message.payload);
    });
    mine.on('error', () => drop(mine));
    mine.on('end', () => drop(mine));
    mine
      .connect()
      .then(() => mine.query(`LISTEN ${JOB_DUE_CHANNEL}`))
      .then(() => {
        if (client === mine) wake(EVERY_KIND);
      })
      .catch(() => drop(mine));
  }

  start();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}

/** Wakes every lane. */
export const EVERY_KIND = '*';
