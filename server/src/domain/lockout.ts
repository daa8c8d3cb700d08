import type { LoginGuardConfig } from '../config';
import type { Db } from '../db/connection';

// Brute-force brakes on the sign-in steps, all from LoginGuardConfig:
// - throttles: at most N failed steps per account and per client IP within a sliding window,
//   then 429 with Retry-After (in memory, per process: a short-term brake);
// - lock: after M consecutive failed steps the account is refused for a while (stored on the
//   user row, so it survives restarts and `npm run admin -- user unlock` lifts it).
// A name that matches no account gets the same throttle and an in-memory lock that behaves like
// the stored one, so neither answers nor timing tell whether an account exists.

/** Failures per key inside a sliding window; bounded in size so junk keys cannot grow it forever. */
export class FailureWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  private fresh(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  retryAfterMs(key: string, now: number): number {
    const list = this.fresh(key, now);
    if (list.length < this.max) return 0;
    const oldestCounted = list[list.length - this.max] ?? now;
    return Math.max(1, oldestCounted + this.windowMs - now);
  }

  record(key: string, now: number): void {
    const list = this.fresh(key, now);
    list.push(now);
    this.hits.delete(key); // re-insert: Map order is then least recently failed first
    this.hits.set(key, list);
    while (this.hits.size > this.maxKeys) {
      const oldest = this.hits.keys().next().value;
      if (oldest === undefined) break;
      this.hits.delete(oldest);
    }
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}

/** Who a sign-in step is about: a real account, or a name that matches none. */
export type LoginSubject = { userId: string } | { unknownName: string };

export interface Throttled {
  retryAfterSeconds: number;
}

export interface LoginGuard {
  /** Set when the IP or the account has used up its failure budget. */
  throttled(subject: LoginSubject, ip: string, now: Date): Throttled | null;
  /** End of the subject's lock, or null when it is not locked. */
  lockedUntil(db: Db, subject: LoginSubject, now: Date): Promise<Date | null>;
  /** Counts a failed step; answers the lock's end when this failure locked the account. */
  recordFailure(db: Db, subject: LoginSubject, ip: string, now: Date): Promise<Date | null>;
  /** A completed sign-in clears the account's counters (not the IP's). */
  recordSuccess(db: Db, subject: LoginSubject): Promise<void>;
}

const keyOf = (subject: LoginSubject) =>
  'userId' in subject ? `u:${subject.userId}` : `n:${subject.unknownName.trim().toLowerCase()}`;

export function createLoginGuard(config: LoginGuardConfig): LoginGuard {
  const perAccount = new FailureWindow(config.accountMaxFailures, config.failureWindowMs);
  const perIp = new FailureWindow(config.ipMaxFailures, config.failureWindowMs);
  const lockMs = config.lockMinutes * 60_000;
  // Unknown names: consecutive failures and lock end, mirroring the users columns.
  const phantom = new Map<string, { failures: number; lockedUntil: number }>();

  return {
    throttled(subject, ip, now) {
      const wait = Math.max(
        perAccount.retryAfterMs(keyOf(subject), now.getTime()),
        perIp.retryAfterMs(ip, now.getTime()),
      );
      return wait > 0 ? { retryAfterSeconds: Math.ceil(wait / 1000) } : null;
    },

    async lockedUntil(db, subject, now) {
      let until: number;
      if ('userId' in subject) {
        const row = await db
          .selectFrom('users')
          .select('locked_until')
          .where('id', '=', subject.userId)
          .executeTakeFirst();
        until = row?.locked_until ? Date.parse(row.locked_until) : 0;
      } else {
        until = phantom.get(keyOf(subject))?.lockedUntil ?? 0;
      }
      return until > now.getTime() ? new Date(until) : null;
    },

    async recordFailure(db, subject, ip, now) {
      const at = now.getTime();
      perAccount.record(keyOf(subject), at);
      perIp.record(ip, at);
      if (!('userId' in subject)) {
        const key = keyOf(subject);
        const entry = phantom.get(key) ?? { failures: 0, lockedUntil: 0 };
        entry.failures += 1;
        phantom.delete(key);
        phantom.set(key, entry);
        if (phantom.size > 50_000) {
          const oldest = phantom.keys().next().value;
          if (oldest !== undefined) phantom.delete(oldest);
        }
        if (entry.failures < config.lockThreshold) return null;
        entry.failures = 0;
        entry.lockedUntil = at + lockMs;
        return new Date(entry.lockedUntil);
      }
      const row = await db
        .updateTable('users')
        .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
        .where('id', '=', subject.userId)
        .returning('failed_logins')
        .executeTakeFirst();
      if (!row || row.failed_logins < config.lockThreshold) return null;
      const until = new Date(at + lockMs);
      await db
        .updateTable('users')
        .set({ failed_logins: 0, locked_until: until.toISOString() })
        .where('id', '=', subject.userId)
        .execute();
      return until;
    },

    async recordSuccess(db, subject) {
      perAccount.clear(keyOf(subject));
      if ('userId' in subject) await clearLock(db, subject.userId);
      else phantom.delete(keyOf(subject));
    },
  };
}

/** Lifts a lock and forgets the failures (successful sign-in, `user unlock`). */
export async function clearLock(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null })
    .where('id', '=', userId)
    .execute();
}

/** The user-facing text for a locked account (also what the lock's failure answers). */
export function lockedMessage(until: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return `This account is locked after too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export function throttledMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts. Please try again in ${wait}.`;
}
