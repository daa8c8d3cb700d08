import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connection';
import { claimRequests, claimSize, pruneEndedWindows } from '../domain/rateLimits';
import type { Clock } from '../domain/time';

/** How often a process deletes ended windows: cheap, and the table holds at most this much junk. */
export const PRUNE_INTERVAL_MS = 60_000;

/** The budget of the plugin's global limit; a route with its own limit gets its own budget. */
const GLOBAL_BUDGET = 'global';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/** A request's position in its key's window and the window's time left (ms). */
interface Hit {
  current: number;
  ttl: number;
}

/** Positions `next`..`end` of a key's shared window, claimed by this process, until `resetAt`. */
interface Lease {
  resetAt: number;
  next: number;
  end: number;
}

/**
 * A @fastify/rate-limit store kept in the database (table rate_limits), so every server process
 * counts a client's requests in the same fixed windows. Keys are `<budget>|<client key>`: the
 * global budget, or one per route with its own limit (the sign-in operations), as the plugin's
 * own stores keep them, so windows of different sizes never mix.
 *
 * A process does not write per request: it claims a block of the window's positions
 * (`claimSize`, 5 % of the budget, at least 1) in one write and hands them out in memory. Each
 * position is given once across processes, so no more than the budget is admitted; positions a
 * process claimed and did not use before the window ended are lost, so with P processes a client
 * may be stopped up to P × block − 1 requests early. Once a process's block reaches the budget,
 * it refuses the rest of the window without a write.
 *
 * A database error lets the request through (the plugin's `skipOnError`) and is logged here:
 * the limiter guards capacity, not correctness, so failing closed would turn a database hiccup
 * into 429s/500s on every operation, also those that need no database; operations that do need
 * it fail on their own, and the sign-in brakes (domain/account/lockout.ts) stay in the sign-in's own
 * transaction.
 */
export function databaseRateLimitStore(
  db: Db,
  clock: Clock,
  log: FastifyBaseLogger,
): FastifyRateLimitStoreCtor {
  // Shared by the global store and the per-route children: one prune per interval per process.
  let nextPruneAt = 0;

  const leases = new Map<string, Lease>();
  // One claim per key at a time: requests arriving meanwhile wait for it instead of claiming too.
  const claims = new Map<string, Promise<void>>();

  async function prune(now: number): Promise<void> {
    if (now < nextPruneAt) return;
    nextPruneAt = now + PRUNE_INTERVAL_MS;
    for (const [key, lease] of leases) if (lease.resetAt <= now) leases.delete(key);
    try {
      await pruneEndedWindows(db, now);
    } catch (err) {
      log.error({ err }, 'Pruning ended rate-limit windows failed');
    }
  }

  async function claim(key: string, windowMs: number, max: number, now: number): Promise<void> {
    const size = claimSize(max);
    const window = await claimRequests(db, key, windowMs, now, size);
    leases.set(key, { resetAt: window.resetAt, next: window.count - size + 1, end: window.count });
    await prune(now);
  }

  /** The next position of the key's lease, or undefined when a claim must come first. */
  function take(key: string, max: number, now: number): Hit | undefined {
    const lease = leases.get(key);
    // A position past the budget is a refusal; past the block's end too once it reached it.
    if (lease && now < lease.resetAt && (lease.next <= lease.end || lease.end >= max)) {
      return { current: lease.next++, ttl: lease.resetAt - now };
    }
    return undefined;
  }

  async function hit(key: string, windowMs: number, max: number): Promise<Hit> {
    for (;;) {
      const now = clock().getTime();
      const taken = take(key, max, now);
      if (taken) return taken;
      let pending = claims.get(key);
      if (!pending) {
        pending = claim(key, windowMs, max, now).finally(() => claims.delete(key));
        claims.set(key, pending);
      }
      await pending;
    }
  }

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly budget: string;

    /** The plugin constructs the store with its options; only children pass a budget. */
    constructor(_pluginOptions: object, budget = GLOBAL_BUDGET) {
      this.budget = budget;
    }

    incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
      const budgetKey = `${this.budget}|${key}`;
      // Most requests find room in the lease: answered at once, without a promise.
      const taken = take(budgetKey, max, clock().getTime());
      if (taken) {
        callback(null, taken);
        return;
      }
      hit(budgetKey, timeWindow, max).then(
        (result) => callback(null, result),
        (err: unknown) => {
          log.error({ err }, 'Rate-limit store failed; the request goes through unlimited');
          callback(err instanceof Error ? err : new Error(String(err)));
        },
      );
    }

    child(routeParams: object): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(routeParams, routeBudget(routeParams));
    }
  };
}

/** The group whose routes (the gateway's operations) share one budget per client key. */
export const GATEWAY_RATE_LIMIT_GROUP = 'gateway';

/**
 * The plugin passes child() the route's merged limit options with the route under `routeInfo`
 * (its typings say the route itself); its Redis store keys children by method and URL too.
 * Routes of one `groupId` share a budget: the plugin only appends the group to the client's key,
 * and its own stores still count each route apart.
 */
function routeBudget(routeParams: object): string {
  const params = routeParams as {
    routeInfo?: { method?: unknown; url?: unknown };
    groupId?: unknown;
  };
  if (typeof params.groupId === 'string') return `group ${params.groupId}`;
  const route = params.routeInfo;
  if (typeof route?.url !== 'string') throw new Error('A rate limit of its own needs a route');
  return `${String(route.method)} ${route.url}`;
}
