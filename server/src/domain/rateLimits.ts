import type { Db } from '../db/connection';

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
  const query = compiledUpsert(db);
  const bound = new Map<unknown, unknown>([
    [KEY, key],
    [NOW, now],
    [RESET_AT, now + windowMs],
    [CLAIM, n],
  ]);
  const hit: typeof query = {
    ...query,
    parameters: query.parameters.map((p) => (bound.has(p) ? bound.get(p) : p)),
  };
  const { rows } = await db.executeQuery(hit);
  const row = rows[0];
  if (!row) throw new Error('The rate-limit upsert returned no row');
  return { count: row.count, resetAt: row.reset_at };
}

// Building and compiling the statement costs about as much as running it on SQLite (~50 µs
// each, measured), and it runs on every API request: it is compiled once per database with
// placeholder values, and each hit binds its own in their places.
const KEY = '\u0000key';
const NOW = -1;
const RESET_AT = -2;
const CLAIM = -3;
const compiled = new WeakMap<Db, ReturnType<typeof buildUpsert>>();

function compiledUpsert(db: Db) {
  let query = compiled.get(db);
  if (!query) {
    query = buildUpsert(db);
    compiled.set(db, query);
  }
  return query;
}

function buildUpsert(db: Db) {
  return db
    .insertInto('rate_limits')
    .values({ key: KEY, count: CLAIM, reset_at: RESET_AT })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        // Every SET expression reads the row as it was before this update (both engines).
        // Qualified: PostgreSQL finds a bare name ambiguous next to `excluded`.
        const ended = eb('rate_limits.reset_at', '<=', NOW);
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
    .returning(['count', 'reset_at'])
    .compile();
}

/** Deletes the windows that have ended (a new request would start its key afresh anyway). */
export async function pruneEndedWindows(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
}
