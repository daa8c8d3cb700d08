import type { Db } from '../db/connection';

/** A key's fixed window after counting one request in it. */
export interface RequestWindow {
  /** Requests counted in the window, this one included. */
  count: number;
  /** When the window ends, in ms since the epoch. */
  resetAt: number;
}

/**
 * Counts one request under `key` in its fixed window of `windowMs`, opening a new window when
 * there is none or the last one has ended. One statement, atomic on both engines, so processes
 * sharing the database share the count: on PostgreSQL, INSERT … ON CONFLICT DO UPDATE either
 * inserts or locks the conflicting row and computes the update from its newest committed version,
 * so concurrent hits on one key queue on that row lock and each sees the previous one's count
 * (no read-then-write gap, no lost increment); on SQLite a statement runs under the database's
 * single write lock. `now` comes from each process's clock, so the processes' clocks must agree
 * (NTP) to the precision a rate limit needs.
 */
export async function countRequest(
  db: Db,
  key: string,
  windowMs: number,
  now: number,
): Promise<RequestWindow> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        // Every SET expression reads the row as it was before this update (both engines).
        // Qualified: PostgreSQL finds a bare name ambiguous next to `excluded`.
        const ended = eb('rate_limits.reset_at', '<=', now);
        return {
          count: eb
            .case()
            .when(ended)
            .then(eb.ref('excluded.count'))
            .else(eb('rate_limits.count', '+', 1))
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
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { count: row.count, resetAt: row.reset_at };
}

/** Deletes the windows that have ended (a new request would start its key afresh anyway). */
export async function pruneEndedWindows(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}
