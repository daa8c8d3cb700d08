import type { LoginGuardConfig } from '../../config';
import type { Db } from '../../db/connection';
import type { FailureScope } from '../../db/schema';
import { sql } from 'kysely';
import { lockForTransaction } from '../../db/locks';
import { brakeAddress } from '../clientAddress';
import { newId } from '../ids';
import { waitMessage, waitMinutesMessage } from '../waitMessages';

// Brute-force brakes on the sign-in steps, all from LoginGuardConfig:
// - throttles: at most N failed steps per (client address, account) and a much larger number
//   per client address within a sliding window, then 429 with Retry-After. Only failures count,
//   and the small budget is per pair, so an address whose clients got other accounts wrong (one
//   attacker behind an office's NAT) still signs anyone else in: a correct sign-in to an account
//   that has no failures from there passes until that address has failed
//   LOGIN_IP_MAX_FAILURES times, which only guessing across many accounts reaches;
// - lock: after M consecutive failed steps from any address the account is refused for a
//   while (on the user row): the brake on guesses spread over many addresses.
// All of it lives in the database, so a restart forgets nothing; `npm run admin -- user unlock`
// (clearLock) lifts an account's lock and windows, `ip unlock` (clearAddress) an address's.
// A name that matches no account gets the same throttle and a stored lock that behaves like a
// real one, so neither answers nor timing tell whether an account exists.

/**
 * Failures per key inside a sliding window, stored in login_failures under its own scope so
 * that windows never mix. Recording prunes the scope's rows that left the window, so junk keys
 * cannot grow the table forever.
 */
export class FailureWindow {
  constructor(
    private readonly scope: FailureScope,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  async retryAfterMs(db: Db, key: string, now: number): Promise<number> {
    // The newest `max` failures in the window: the oldest of them decides when one leaves it.
    const counted = await db
      .selectFrom('login_failures')
      .select('at')
      .where('scope', '=', this.scope)
      .where('key', '=', key)
      .where('at', '>', now - this.windowMs)
      .orderBy('at', 'desc')
      .limit(this.max)
      .execute();
    const oldestCounted = counted[this.max - 1];
    return oldestCounted ? Math.max(1, oldestCounted.at + this.windowMs - now) : 0;
  }

  async record(db: Db, key: string, now: number, id: string | null = null): Promise<void> {
    await db.insertInto('login_failures').values({ scope: this.scope, key, at: now, id }).execute();
    await db
      .deleteFrom('login_failures')
      .where('scope', '=', this.scope)
      .where('at', '<=', now - this.windowMs)
      .execute();
  }

  /**
   * Records a failure up front when the budget allows it (answers 0), else answers the wait
   * and records nothing.
   */
  async spend(db: Db, key: string, now: number): Promise<number> {
    const reserved = await this.reserve(db, key, now);
    return 'id' in reserved ? 0 : reserved.retryAfterMs;
  }

  /**
   * `spend` that answers the recorded failure's id, for `giveBack`. One transaction under the
   * key's lock, so parallel attempts, in this process or another, cannot all pass the check
   * before any is recorded.
   */
  async reserve(
    db: Db,
    key: string,
    now: number,
  ): Promise<{ id: string } | { retryAfterMs: number }> {
    return db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, `login_failures:${this.scope}:${key}`);
      const wait = await this.retryAfterMs(trx, key, now);
      if (wait > 0) return { retryAfterMs: wait };
      const id = newId('lf');
      await this.record(trx, key, now, id);
      return { id };
    });
  }

  /** Takes back a reserved failure: the step it was reserved for did not fail. */
  async giveBack(db: Db, key: string, id: string): Promise<void> {
    await db
      .deleteFrom('login_failures')
      .where('scope', '=', this.scope)
      .where('key', '=', key)
      .where('id', '=', id)
      .execute();
  }

  async clear(db: Db, key: string): Promise<void> {
    await db
      .deleteFrom('login_failures')
      .where('scope', '=', this.scope)
      .where('key', '=', key)
      .execute();
  }
}

/** Who a sign-in step is about: a real account, or a name that matches none. */
export type LoginSubject = { userId: string } | { unknownName: string };

export interface Throttled {
  retryAfterSeconds: number;
}

/** A sign-in step in progress, its failure already counted in the windows. */
export interface SignInAttempt {
  /** The step failed: keeps the counted failure; answers the lock's end when it locked. */
  failed(): Promise<Date | null>;
  /** The step did not fail (it passed, or was refused for another reason): uncounts it. */
  release(): Promise<void>;
}

export interface LoginGuard {
  /**
   * Starts a sign-in step: counts a failure up front in the (address, account) window and the
   * address's window, or answers how long to wait when either budget is used up. Counting
   * before the password check is what makes parallel guesses (on any process) stop at the
   * budget.
   */
  attempt(db: Db, subject: LoginSubject, ip: string, now: Date): Promise<SignInAttempt | Throttled>;
  /** End of the subject's lock, or null when it is not locked. */
  lockedUntil(db: Db, subject: LoginSubject, now: Date): Promise<Date | null>;
  /**
   * A completed sign-in resets the account's consecutive failures and its window from this
   * address; other addresses' windows stay (the owner's success says nothing about them).
   */
  recordSuccess(db: Db, userId: string, ip: string): Promise<void>;
}

/**
 * An unknown name's failure count is forgotten after a day without failures (a real account's
 * is kept until a sign-in): without that, junk names would grow login_unknown_names forever.
 * Telling the two apart that way costs a day per probe, which a real sign-in also spoils.
 */
export const UNKNOWN_NAME_MEMORY_MS = 24 * 3_600_000;

const PAIR_SCOPE = 'login-account';
const ADDRESS_SCOPE = 'login-ip';
const normalName = (name: string) => name.trim().toLowerCase();
const accountKey = (subject: LoginSubject) =>
  'userId' in subject ? `u:${subject.userId}` : `n:${normalName(subject.unknownName)}`;
// The address last: it never holds a `|`, so the key splits back unambiguously, and an
// account's keys share the prefix `u:<id>|` (clearLock).
const pairKey = (subject: LoginSubject, address: string) => `${accountKey(subject)}|${address}`;

export function createLoginGuard(config: LoginGuardConfig): LoginGuard {
  const perPair = new FailureWindow(PAIR_SCOPE, config.accountMaxFailures, config.failureWindowMs);
  const perAddress = new FailureWindow(ADDRESS_SCOPE, config.ipMaxFailures, config.failureWindowMs);
  const lockMs = config.lockMinutes * 60_000;

  /** The failure count of an unknown name after this failure, like users.failed_logins. */
  async function countUnknownNameFailure(db: Db, name: string, at: number): Promise<number> {
    await db
      .deleteFrom('login_unknown_names')
      .where('last_failure_at', '<=', at - UNKNOWN_NAME_MEMORY_MS)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .execute();
    const row = await db
      .insertInto('login_unknown_names')
      .values({ name, failed_logins: 1, locked_until: null, last_failure_at: at })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          // Qualified: PostgreSQL finds a bare name ambiguous next to `excluded`.
          failed_logins: eb('login_unknown_names.failed_logins', '+', 1),
          last_failure_at: at,
        })),
      )
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    return row.failed_logins;
  }

  /** Counts a failed step towards the lock; answers the lock's end when this one locked. */
  async function countFailure(db: Db, subject: LoginSubject, at: number): Promise<Date | null> {
    const until = new Date(at + lockMs);
    if (!('userId' in subject)) {
      const name = normalName(subject.unknownName);
      if ((await countUnknownNameFailure(db, name, at)) < config.lockThreshold) return null;
      await db
        .updateTable('login_unknown_names')
        .set({ failed_logins: 0, locked_until: until.getTime() })
        .where('name', '=', name)
        .execute();
      return until;
    }
    const row = await db
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', subject.userId)
      .returning('failed_logins')
      .executeTakeFirst();
    if (!row || row.failed_logins < config.lockThreshold) return null;
    await db
      .updateTable('users')
      .set({ failed_logins: 0, locked_until: until.toISOString() })
      .where('id', '=', subject.userId)
      .execute();
    return until;
  }

  return {
    async attempt(db, subject, ip, now) {
      const at = now.getTime();
      const address = brakeAddress(ip);
      const key = pairKey(subject, address);
      const pair = await perPair.reserve(db, key, at);
      if (!('id' in pair)) return { retryAfterSeconds: Math.ceil(pair.retryAfterMs / 1000) };
      const fromAddress = await perAddress.reserve(db, address, at);
      if (!('id' in fromAddress)) {
        await perPair.giveBack(db, key, pair.id);
        return { retryAfterSeconds: Math.ceil(fromAddress.retryAfterMs / 1000) };
      }
      return {
        failed: () => countFailure(db, subject, at),
        async release() {
          await perPair.giveBack(db, key, pair.id);
          await perAddress.giveBack(db, address, fromAddress.id);
        },
      };
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
        const row = await db
          .selectFrom('login_unknown_names')
          .select('locked_until')
          .where('name', '=', normalName(subject.unknownName))
          .executeTakeFirst();
        until = row?.locked_until ?? 0;
      }
      return until > now.getTime() ? new Date(until) : null;
    },

    async recordSuccess(db, userId, ip) {
      await resetFailedLogins(db, userId);
      await perPair.clear(db, pairKey({ userId }, brakeAddress(ip)));
    },
  };
}

async function resetFailedLogins(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null })
    .where('id', '=', userId)
    .execute();
}

/**
 * Lifts a lock and forgets the account's failures, its sign-in windows from every address
 * included, so that its next attempt from anywhere is not answered 429 (`user unlock`). The
 * addresses' own windows stay: `ip unlock` (clearAddress) is for those.
 */
export async function clearLock(db: Db, userId: string): Promise<void> {
  await resetFailedLogins(db, userId);
  const prefix = `${accountKey({ userId })}|`;
  await db
    .deleteFrom('login_failures')
    .where('scope', '=', PAIR_SCOPE)
    // substr, not LIKE: ids hold `_`, a LIKE wildcard.
    .where(sql<string>`substr(${sql.ref('key')}, 1, ${sql.lit(prefix.length)})`, '=', prefix)
    .execute();
}

/**
 * Forgets an address's sign-in failures: its own window, and its windows on every account
 * (`ip unlock`). Answers the brake's form of the address (an IPv6 address counts as its /64).
 * Accounts' locks stay: `user unlock` is for those.
 */
export async function clearAddress(db: Db, ip: string): Promise<string> {
  const address = brakeAddress(ip);
  await db
    .deleteFrom('login_failures')
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', ADDRESS_SCOPE), eb('key', '=', address)]),
        eb.and([
          eb('scope', '=', PAIR_SCOPE),
          // The key's last characters; substr and length mean the same on both engines.
          eb(
            sql<string>`substr(${sql.ref('key')}, length(${sql.ref('key')}) - ${sql.lit(address.length)})`,
            '=',
            `|${address}`,
          ),
        ]),
      ]),
    )
    .execute();
  return address;
}

/** The user-facing text for a locked account (also what the lock's failure answers). */
export function lockedMessage(until: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return waitMinutesMessage('signInLocked', minutes);
}

export function throttledMessage(retryAfterSeconds: number): string {
  return waitMessage('signInThrottled', retryAfterSeconds);
}
