import { sql, type ExpressionBuilder } from 'kysely';
import { engineOf, type Db } from '../db/connection';
import { lockForTransaction } from '../db/locks';
import type { Database, JobsTable } from '../db/schema';
import { newId } from '../domain/ids';
import { jobDue } from './wakeups';

// The job queue, modelled on graphile-worker and pg-boss: jobs are rows; a worker claims a due row
// by writing a lease (locked_by, locked_until) in one statement, runs it, then deletes it (or, for
// a recurring job, puts it back with a new run_at). A lease that runs out (the worker died) lets
// another worker claim the job again, so a job runs at least once and never twice at the same
// time: tasks must be idempotent (e.g. crediting is keyed by the transfer, not by the run).
//
// Every write names the lease it holds (`where locked_by = worker`), so a worker whose lease ran
// out and was taken over cannot complete or fail the new holder's run.

export type Job = Omit<JobsTable, 'payload'> & { payload: unknown };

export interface NewJob {
  kind: string;
  payload?: unknown;
  /** At most one job per (kind, key): adding it again while it exists changes nothing. */
  key?: string;
  /** Not before (ms since the epoch); default now. */
  runAt?: number;
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 10;

/** Queued, due, and not leased (never leased, or the lease ran out). */
function isDue(eb: ExpressionBuilder<Database, 'jobs'>, now: number) {
  return eb.and([
    eb('state', '=', 'queued'),
    eb('run_at', '<=', now),
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]),
  ]);
}

function toJob(row: JobsTable): Job {
  return { ...row, payload: JSON.parse(row.payload) as unknown };
}

const newJobRow = (job: NewJob, now: number) => ({
  id: newId('job'),
  kind: job.kind,
  key: job.key ?? null,
  payload: JSON.stringify(job.payload ?? {}),
  state: 'queued' as const,
  run_at: job.runAt ?? now,
  attempts: 0,
  max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  every_ms: null,
  locked_by: null,
  locked_until: null,
  last_error: null,
  created_at: now,
});

/** Adds a job; answers false when one with the same (kind, key) already exists. */
export async function addJob(db: Db, job: NewJob, now: number): Promise<boolean> {
  const inserted = await db
    .insertInto('jobs')
    .values(newJobRow(job, now))
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .executeTakeFirst();
  const added = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  if (added && (job.runAt ?? now) <= now) jobDue(job.kind);
  return added;
}

/**
 * addJob for many jobs in one statement (at most a few hundred: each takes 13 parameters); a
 * job whose (kind, key) already exists is passed over.
 */
export async function addJobs(db: Db, jobs: readonly NewJob[], now: number): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(jobs.map((job) => newJobRow(job, now)))
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();
  for (const kind of new Set(jobs.filter((j) => (j.runAt ?? now) <= now).map((j) => j.kind))) {
    jobDue(kind);
  }
}

/** The queued jobs of `kind` with these keys are due now (a held delivery let go). */
export async function runJobsNow(
  db: Db,
  kind: string,
  keys: readonly string[],
  now: number,
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ run_at: now })
    .where('kind', '=', kind)
    .where('state', '=', 'queued')
    .where('key', 'in', keys)
    .execute();
  jobDue(kind);
}

/**
 * The recurring job `kind` runs now rather than at its next turn (a watcher, for a block just
 * mined): due at once if it waits, or, while it runs, again as soon as the run ends (the run may
 * have read the chain before the block). Answers whether the job exists.
 */
export async function runNow(db: Db, kind: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      // A run in progress keeps the run_at it was claimed with; any other value asks completeJob
      // for another run at once.
      run_at: sql<number>`case
        when locked_until > ${now} then (case when run_at < ${now} then ${now} else run_at + 1 end)
        when run_at > ${now} then ${now}
        else run_at end`,
    })
    .where('kind', '=', kind)
    .where('key', '=', kind)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  jobDue(kind);
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Makes sure the recurring job `kind` exists (one row, keyed by its kind) and runs every
 * `everyMs`; every process calls this at start, and only the first insert counts. Due at once
 * when new; an existing row keeps its schedule and takes the new interval.
 */
export async function ensureRecurring(db: Db, kind: string, everyMs: number, now: number) {
  await db
    .insertInto('jobs')
    .values({
      id: newId('job'),
      kind,
      key: kind,
      payload: '{}',
      state: 'queued',
      run_at: now,
      attempts: 0,
      // A recurring job is never given up: a failed run is retried at its next turn.
      max_attempts: 0,
      every_ms: everyMs,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['kind', 'key']).doUpdateSet({ every_ms: everyMs, state: 'queued' }),
    )
    .execute();
}

/**
 * At most `max` jobs of the claimed kinds leased at once per value of the payload's `field`
 * (e.g. a webhook delivery's app), counted across every process by the leases in the table. A
 * job whose payload lacks the field is not capped.
 */
export interface GroupCap {
  field: string;
  max: number;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The payload's `field` as text (jsonb on PostgreSQL, JSON text on SQLite); null when absent. */
function payloadField(pg: boolean, field: string, table: 'jobs' | 'held') {
  if (!FIELD_NAME.test(field)) throw new Error(`Not a payload field name: ${field}`);
  const payload = sql.ref(`${table}.payload`);
  // A literal, not a parameter: PostgreSQL must see the GROUP BY expression as the selected one.
  return pg
    ? sql<string | null>`(${payload} ->> ${sql.lit(field)})`
    : sql<string | null>`json_extract(${payload}, ${sql.lit(`$.${field}`)})`;
}

/**
 * Leases up to `limit` due jobs of `kinds` to `worker` until now + leaseMs, oldest first, in one
 * statement; answers those it leased (none when none is due). On PostgreSQL the pick is
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers pass over the rows another is claiming instead
 * of waiting for them, and the UPDATE re-checks that each row is still due (READ COMMITTED
 * re-reads a row changed meanwhile); SQLite runs the whole statement under its single write lock.
 *
 * With `cap`, no group ends up with more than `cap.max` leases: each group's due jobs are ranked,
 * oldest first, and only as many are taken as the group has leases free (the ranking reads the
 * oldest `limit × cap.max` due jobs of the groups with a lease free: enough to fill the slots
 * however the groups fall; the leases are counted from an index of the leased rows alone). Fewer
 * than `limit` taken: the other due jobs are of groups at their cap, or past the rows read behind
 * one group's backlog (read by the next claim, that group then at its cap). The count must see
 * every claim before it, so such claims take turns: the statement runs in a transaction that first
 * takes a lock named after the kinds (PostgreSQL's advisory lock; on SQLite the write lock of
 * BEGIN IMMEDIATE), and each claim then reads the leases the previous ones committed.
 */
export async function claimJobs(
  db: Db,
  kinds: readonly string[],
  worker: string,
  leaseMs: number,
  now: number,
  limit: number,
  cap?: GroupCap,
): Promise<Job[]> {
  if (kinds.length === 0 || limit < 1) return [];
  const pg = engineOf(db) === 'postgres';
  const lease = {
    locked_by: worker,
    locked_until: now + leaseMs,
    attempts: sql<number>`attempts + 1`,
  };
  if (!cap) {
    const rows = await db
      .with('picked', (q) =>
        q
          .selectFrom('jobs')
          .select('id')
          .where('kind', 'in', kinds)
          .where((w) => isDue(w, now))
          .orderBy('run_at')
          .orderBy('id')
          .limit(limit)
          .$if(pg, (p) => p.forUpdate().skipLocked()),
      )
      .updateTable('jobs')
      .set(lease)
      .where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
      // See the capped claim below: the re-check is PostgreSQL's alone.
      .$if(pg, (q) => q.where((w) => isDue(w, now)))
      .returningAll()
      .execute();
    return rows.map(toJob);
  }
  const { field, max } = cap;
  const heldGroup = payloadField(pg, field, 'held');
  const group = payloadField(pg, field, 'jobs');
  const rows = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `jobs.claim:${kinds.join(',')}`);
    return (
      trx
        // Each group's leases now, all processes together.
        .with('held', (q) =>
          q
            .selectFrom('jobs as held')
            .select((eb) => [heldGroup.as('grp'), eb.fn.countAll<number>().as('n')])
            .where('held.kind', 'in', kinds)
            .where('held.locked_until', '>', now)
            .where(heldGroup, 'is not', null)
            .groupBy(heldGroup),
        )
        // The oldest due jobs of the groups with a lease free (or of no group).
        .with('due', (q) =>
          q
            .selectFrom('jobs')
            .select(['jobs.id', 'jobs.run_at', group.as('grp')])
            .where('jobs.kind', 'in', kinds)
            .where((w) => isDue(w, now))
            .where((w) =>
              w.or([
                w(group, 'is', null),
                // NOT IN a list holding a null would pass over every job: held has no null group.
                w(
                  group,
                  'not in',
                  w.selectFrom('held').select('held.grp').where('held.n', '>=', max),
                ),
              ]),
            )
            .orderBy('jobs.run_at')
            .orderBy('jobs.id')
            .limit(limit * max)
            .$if(pg, (p) => p.forUpdate().skipLocked()),
        )
        // Each due job's place in its group's queue.
        .with('ranked', (q) =>
          q
            .selectFrom('due')
            .select([
              'due.id',
              'due.run_at',
              'due.grp',
              sql<number>`row_number() over (partition by due.grp order by due.run_at, due.id)`.as(
                'place',
              ),
            ]),
        )
        .with('picked', (q) =>
          q
            .selectFrom('ranked')
            .leftJoin('held', 'held.grp', 'ranked.grp')
            .select('ranked.id')
            .where((w) =>
              w.or([
                w('ranked.grp', 'is', null),
                w(sql<number>`ranked.place + coalesce(held.n, 0)`, '<=', max),
              ]),
            )
            .orderBy('ranked.run_at')
            .orderBy('ranked.id')
            .limit(limit),
        )
        .updateTable('jobs')
        .set(lease)
        .where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
        // PostgreSQL re-checks a row changed since the pick; SQLite ran the pick under its write
        // lock, and the check there would make it read every due row instead of the picked ones.
        .$if(pg, (q) => q.where((w) => isDue(w, now)))
        .returningAll()
        .execute()
    );
  });
  return rows.map(toJob);
}

/**
 * Leases the next due job of one of `kinds` to `worker` until now + leaseMs, or answers null
 * (claimJobs, one job).
 */
export async function claimJob(
  db: Db,
  kinds: readonly string[],
  worker: string,
  leaseMs: number,
  now: number,
  cap?: GroupCap,
): Promise<Job | null> {
  const [job] = await claimJobs(db, kinds, worker, leaseMs, now, 1, cap);
  return job ?? null;
}

/** Extends a held lease; false when the lease was lost (ran out and another worker took it). */
export async function extendLease(
  db: Db,
  job: Job,
  worker: string,
  leaseMs: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: now + leaseMs })
    .where('id', '=', job.id)
    .where('locked_by', '=', worker)
    .where('locked_until', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A finished run: the job goes, or a recurring one waits for its next turn, unless it was asked
 * to run now while it ran (`runNow` moved its run_at): then it is due at once.
 */
export async function completeJob(db: Db, job: Job, worker: string, now: number): Promise<void> {
  if (job.every_ms !== null) {
    await db
      .updateTable('jobs')
      .set({
        run_at: sql<number>`case when run_at = ${job.run_at} then ${now + job.every_ms} else run_at end`,
        attempts: 0,
        locked_by: null,
        locked_until: null,
        last_error: null,
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', worker)
      .execute();
    return;
  }
  await db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', worker).execute();
}

/**
 * A failed run: retried at `retryAt`, or marked failed once its attempts are used up (kept for
 * the operator: `npm run admin -- jobs`). A recurring job is retried at its next turn.
 */
export async function failJob(
  db: Db,
  job: Job,
  worker: string,
  error: string,
  retryAt: number,
): Promise<void> {
  const givesUp = job.every_ms === null && job.attempts >= job.max_attempts;
  await db
    .updateTable('jobs')
    .set({
      state: givesUp ? 'failed' : 'queued',
      run_at: retryAt,
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2000),
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', worker)
    .execute();
}

/** Puts a failed job back in the queue, due now, with fresh attempts. */
export async function retryJob(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'queued', run_at: now, attempts: 0 })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface QueueStats {
  kind: string;
  /** Jobs due now and not leased: the backlog. */
  due: number;
  /** Leased by a worker right now. */
  running: number;
  /** Given up after their attempts. */
  failed: number;
  /** ms since the oldest due job became due (0 without a backlog): a stuck worker shows here. */
  oldestDueMs: number;
}

/** Per kind: what an operator watches (admin `jobs`, /metrics). */
export async function queueStats(db: Db, now: number): Promise<QueueStats[]> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.sum<number>(eb.case().when(isDue(eb, now)).then(1).else(0).end()).as('due'),
      eb.fn
        .sum<number>(eb.case().when('locked_until', '>', now).then(1).else(0).end())
        .as('running'),
      eb.fn.sum<number>(eb.case().when('state', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn
        .min<number>(eb.case().when(isDue(eb, now)).then(eb.ref('run_at')).end())
        .as('oldest_due'),
    ])
    .groupBy('kind')
    .orderBy('kind')
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    due: Number(row.due),
    running: Number(row.running),
    failed: Number(row.failed),
    oldestDueMs: row.oldest_due === null ? 0 : now - Number(row.oldest_due),
  }));
}

/** Rows for an operator: failed jobs with their last error. */
export async function failedJobs(db: Db) {
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .where('state', '=', 'failed')
    .orderBy('run_at', 'desc')
    .limit(100)
    .execute();
  return rows.map(toJob);
}
