import type { Db } from '../db/connection';
import { prepared } from '../db/prepared';

/** A key's fixed window after claiming requests in it. */
export interface RequestWindow {
  /** Requests claimed in the window, this claim's included: the claim is the last `n` of them. */
  count: number;
  /** When the window ends, in ms since the epoch. */
  resetAt: number;
}

/**
 * How many of a budget's requests a process claims per write: a twentieth, and at least one, so
 * the small sign-in budgets stay exact while a large one costs a write per 5 % of it.
 */
export function claimSize(max: number): number {
  return Math.max(1, Math.floor(max / 20));
}

/**
 * Claims `n` requests under `key` in its fixed window of `windowMs`, opening a new window when
 * there is none or the last one has ended. One statement, atomic on both engines, so processes
 * sharing the database share the count: on PostgreSQL, INSERT … ON CONFLICT DO UPDATE either
 * inserts or locks the conflicting row and computes the update from its newest committed version,
 * so concurrent hits on one key queue on that row lock and each sees the previous one's count
 * (no read-then-write gap, no lost increment); on SQLite a statement runs under the database's
 * single write lock. `now` comes from each process's clock, so the processes' clocks must agree
 * (NTP) to the precision a rate limit needs.
 */
export async function claimRequests(
  db: Db,
  key: string,
  windowMs: number,
  now: number,
  n: number,
): Promise<RequestWindow> {
  const [row] = await claim(db, { key, now, resetAt: now + windowMs, n });
  if (!row) throw new Error('The rate-limit upsert returned no row');
  return { count: row.count, resetAt: row.reset_at };
}

// It runs on every claim: building and compiling it cost about as much as running it on SQLite
// (~50 µs each, measured).
const claim = prepared({ key: '', now: 0, resetAt: 0, n: 0 }, (db, p) =>
  db
    .insertInto('rate_limits')
    .values({ key: p.key, count: p.n, reset_at: p.resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        // Every SET expression reads the row as it was before this update (both engines).
        // Qualified: PostgreSQL finds a bare name ambiguous next to `excluded`.
        const ended = eb('rate_limits.reset_at', '<=', p.now);
        return {
          count: eb
            .case()
            .when(ended)
            .then(eb.ref('excluded.count'))
            .else(eb('rate_limits.count', '+', eb.ref('excluded.count')))
            .end(),
          reset_at: eb
            .case()
            .when(ended)
            .then(eb.ref('excluded.reset_at'))
            .else(eb.ref('rate_limits.reset_at'))
            .end(),
        };
      }),
    )
    .returning(['count', 'reset_at']),
);

/** Deletes the windows that have ended (a new request would start its key afresh anyway). */
export async function pruneEndedWindows(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}
