import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { engineOf, type Db } from '../db/connection';
import { lockForTransaction } from '../db/locks';
import { runNamed } from '../db/rowInserts';
import type { Database, JobsTable } from '../db/schema';
import { newTimeOrderedId } from '../domain/ids';
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
  /** The group a lane's cap counts it in (e.g. a webhook delivery's app); none by default. */
  group?: string;
}

const DEFAULT_MAX_ATTEMPTS = 10;

/**
 * Queued, due, and not leased (never leased, or the lease ran out). The state is a literal, not a
 * parameter: an index over queued rows alone (jobs_kind_group_run_at) serves only a statement
 * that says so in its text.
 */
function isDue(eb: ExpressionBuilder<Database, 'jobs'>, now: number) {
  return eb.and([
    sql<SqlBool>`${sql.ref('state')} = 'queued'`,
    eb('run_at', '<=', now),
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]),
  ]);
}

function toJob(row: JobsTable): Job {
  return { ...row, payload: JSON.parse(row.payload) as unknown };
}

/** A new job's row. */
export const jobRow = (job: NewJob, now: number) => ({
  id: newTimeOrderedId('job', now),
  kind: job.kind,
  key: job.key ?? null,
  payload: JSON.stringify(job.payload ?? {}),
  group_key: job.group ?? null,
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
    .values(jobRow(job, now))
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
    .values(jobs.map((job) => jobRow(job, now)))
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();
  jobsWritten(jobs, now);
}

/** Wakes this process's workers for those of `jobs` due by `now`, once their rows are written. */
export function jobsWritten(jobs: readonly NewJob[], now: number): void {
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
      id: newTimeOrderedId('job', now),
      kind,
      key: kind,
      payload: '{}',
      group_key: null,
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
 * At most `max` jobs of the claimed kinds leased at once per group (the job's `group`, e.g. a
 * webhook delivery's app), counted across every process by the leases in the table. A job
 * without a group is not capped.
 */
export interface GroupCap {
  max: number;
}

/** Queue order: due time, then id. */
const oldestFirst = (a: { run_at: number; id: string }, b: { run_at: number; id: string }) =>
  a.run_at - b.run_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A due job of a group below its cap, with the leases its group holds. */
interface GroupHead {
  id: string;
  run_at: number;
  group_key: string;
  held: number;
}

/**
 * The oldest `max` due jobs of each group of `kind` below its cap, in one statement. The groups
 * with jobs queued are listed by one index seek from each to the next (a loose index scan of
 * jobs_kind_group_run_at), however many jobs each has queued; a group at its cap is dropped
 * there, and each other group's due jobs are read from the front of its part of the index.
 * PostgreSQL reads them in a LATERAL join; SQLite, which has none, by a correlated IN.
 */
async function groupHeads(
  db: Db,
  kind: string,
  max: number,
  now: number,
  pg: boolean,
): Promise<GroupHead[]> {
  const heads = pg
    ? sql<GroupHead>`
        cross join lateral (
          select j.id, j.run_at, j.group_key from jobs j
          where j.kind = ${kind} and j.group_key = g.grp and j.state = 'queued'
            and j.run_at <= ${now} and (j.locked_until is null or j.locked_until <= ${now})
          order by j.run_at, j.id limit ${max}) h`
    : sql<GroupHead>`
        join jobs h on h.id in (
          select j.id from jobs j
          where j.kind = ${kind} and j.group_key = g.grp and j.state = 'queued'
            and j.run_at <= ${now} and (j.locked_until is null or j.locked_until <= ${now})
          order by j.run_at, j.id limit ${max})`;
  const { rows } = await sql<GroupHead>`
    with recursive groups(grp) as (
      select (select group_key from jobs
        where kind = ${kind} and state = 'queued' and group_key is not null
        order by group_key limit 1)
      union all
      select (select group_key from jobs
        where kind = ${kind} and state = 'queued' and group_key > groups.grp
        order by group_key limit 1)
      from groups where groups.grp is not null
    ),
    held as (
      select group_key as grp, count(*) as n from jobs
      where kind = ${kind} and locked_until > ${now} and group_key is not null
      group by group_key
    )
    select h.id, h.run_at, h.group_key, coalesce(held.n, 0) as held
    from groups g
    left join held on held.grp = g.grp
    ${heads}
    where g.grp is not null and coalesce(held.n, 0) < ${max}`.execute(db);
  return rows
    .map((row) => ({ ...row, run_at: Number(row.run_at), held: Number(row.held) }))
    .sort(oldestFirst);
}

/**
 * Leases up to `limit` due jobs of `kinds` to `worker` until now + leaseMs, oldest first, in one
 * statement; answers those it leased (none when none is due). On PostgreSQL the pick is
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers pass over the rows another is claiming instead
 * of waiting for them, and the UPDATE re-checks that each row is still due (READ COMMITTED
 * re-reads a row changed meanwhile); SQLite runs the whole statement under its single write lock.
 *
 * With `cap`, no group ends up with more than `cap.max` leases. The claim counts each group's
 * leases (from an index of the leased rows alone), lists the groups with jobs queued (a loose
 * index scan: one seek a group), and reads only the oldest due jobs of each group below its cap,
 * as many as it has room for, and the oldest due jobs without a group; the oldest `limit` of those
 * are leased. A group at its cap costs the claim one seek, whatever its backlog (a receiver's
 * outage may leave an app 100,000 deliveries due). The count must see every claim before it, so
 * such claims take turns: they run in a transaction that first takes a lock named after the
 * kinds (PostgreSQL's advisory lock; on SQLite the write lock of BEGIN IMMEDIATE), and each claim
 * then reads the leases the previous ones committed.
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
  if (!cap && !pg) {
    // SQLite, without statistics, would walk jobs_state_run_at in due order and pass over every
    // other kind's due job (a backlog of deliveries made each claim of the money lane read it
    // all): it reads these kinds' queued jobs from jobs_kind_group_run_at. It ran the pick under
    // its write lock: the UPDATE takes the picked rows as they are.
    const { rows } = await sql<JobsTable>`
      update jobs set locked_by = ${worker}, locked_until = ${now + leaseMs},
        attempts = attempts + 1
      where id in (
        select id from jobs indexed by jobs_kind_group_run_at
        where kind in (${sql.join(kinds)}) and state = 'queued' and run_at <= ${now}
          and (locked_until is null or locked_until <= ${now})
        order by run_at, id limit ${limit})
      returning *`.execute(db);
    return rows.map(toJob);
  }
  if (!cap) {
    const rows = await runNamed(
      db,
      db
        .with('picked', (q) =>
          q
            .selectFrom('jobs')
            .select('id')
            .where('kind', 'in', kinds)
            .where((w) => isDue(w, now))
            .orderBy('run_at')
            .orderBy('id')
            .limit(limit)
            .forUpdate()
            .skipLocked(),
        )
        .updateTable('jobs')
        .set(lease)
        .where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
        // A row changed since the pick is re-checked (READ COMMITTED re-reads it).
        .where((w) => isDue(w, now))
        .returningAll(),
    );
    return rows.map(toJob);
  }
  const rows = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `jobs.claim:${kinds.join(',')}`);
    // The oldest due jobs without a group, and of each group as many as it has room for; kind
    // by kind, so that each read follows jobs_kind_group_run_at in its order.
    const candidates: { id: string; run_at: number }[] = [];
    for (const kind of kinds) {
      // SQLite, without statistics, would rather walk jobs_state_run_at in due order and pass
      // over every grouped job due: it is told which index holds the ungrouped ones in order.
      const { rows: ungrouped } = await sql<{ id: string; run_at: number }>`
        select id, run_at from jobs ${pg ? sql`` : sql`indexed by jobs_kind_group_run_at`}
        where kind = ${kind} and group_key is null and state = 'queued' and run_at <= ${now}
          and (locked_until is null or locked_until <= ${now})
        order by run_at, id limit ${limit}`.execute(trx);
      candidates.push(...ungrouped.map((row) => ({ id: row.id, run_at: Number(row.run_at) })));
      const taken = new Map<string, number>();
      for (const head of await groupHeads(trx, kind, cap.max, now, pg)) {
        const place = (taken.get(head.group_key) ?? 0) + 1;
        taken.set(head.group_key, place);
        if (head.held + place <= cap.max) candidates.push(head);
      }
    }
    const picked = candidates
      .sort(oldestFirst)
      .slice(0, limit)
      .map((row) => row.id);
    if (picked.length === 0) return [];
    return (
      trx
        .updateTable('jobs')
        .set(lease)
        .where('id', 'in', picked)
        // A row another process changed since the read (completed, failed, taken by a claim of
        // another lane's kinds: none shares these) is passed over.
        .where((w) => isDue(w, now))
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
    await runNamed(
      db,
      db
        .updateTable('jobs')
        .set({
          run_at: sql<number>`case when run_at = ${job.run_at} then ${now + job.every_ms} else run_at end`,
          attempts: 0,
          locked_by: null,
          locked_until: null,
          last_error: null,
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', worker),
    );
    return;
  }
  await runNamed(
    db,
    db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', worker),
  );
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
