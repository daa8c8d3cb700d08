import type { LoginGuardConfig } from '../../config';
import { openDb, type Db } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { freshTestStore, type TestStore } from '../../../test/testStore';
import {
  FailureWindow,
  UNKNOWN_NAME_MEMORY_MS,
  clearAddress,
  clearLock,
  createLoginGuard,
  lockedMessage,
  throttledMessage,
  type LoginGuard,
  type LoginSubject,
} from './lockout';

// The windows and the unknown names' locks on a real migrated database (no seed needed).

let store: TestStore;
let db: Db;

async function open(): Promise<Db> {
  const opened = openDb(store);
  await migrateToLatest(opened);
  return opened;
}

beforeEach(async () => {
  store = await freshTestStore('portal-lockout-');
  db = await open();
});
afterEach(async () => {
  await db.destroy();
  await store.close();
});

const rows = () =>
  db.selectFrom('login_failures').select(['scope', 'key', 'at']).orderBy('at').execute();

describe('FailureWindow', () => {
  it('allows up to the budget inside the window, then says how long to wait', async () => {
    const window = new FailureWindow('code-check', 3, 60_000);
    await window.record(db, 'k', 0);
    await window.record(db, 'k', 10_000);
    expect(await window.retryAfterMs(db, 'k', 10_000)).toBe(0);
    await window.record(db, 'k', 20_000);
    // The oldest of the last three failures leaves the window at 60 s.
    expect(await window.retryAfterMs(db, 'k', 20_000)).toBe(40_000);
    expect(await window.retryAfterMs(db, 'k', 59_999)).toBe(1);
    expect(await window.retryAfterMs(db, 'k', 60_000)).toBe(0);
    expect(await window.retryAfterMs(db, 'other', 20_000)).toBe(0);
  });

  it('forgets a key on clear, and never mixes the scopes', async () => {
    const checks = new FailureWindow('code-check', 1, 60_000);
    const sends = new FailureWindow('code-send', 1, 60_000);
    await checks.record(db, 'a', 0);
    await checks.record(db, 'b', 0);
    expect(await sends.retryAfterMs(db, 'a', 0)).toBe(0);
    await sends.record(db, 'a', 0);
    await checks.clear(db, 'a');
    expect(await checks.retryAfterMs(db, 'a', 0)).toBe(0);
    expect(await checks.retryAfterMs(db, 'b', 0)).toBeGreaterThan(0);
    expect(await sends.retryAfterMs(db, 'a', 0)).toBeGreaterThan(0);
  });

  it('spends the budget up front, atomically, and records nothing once it is used up', async () => {
    const window = new FailureWindow('code-check', 3, 60_000);
    const waits = await Promise.all(Array.from({ length: 8 }, () => window.spend(db, 'k', 1_000)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(3);
    expect(waits.filter((wait) => wait === 60_000)).toHaveLength(5);
    expect(await rows()).toHaveLength(3);
  });

  it("deletes its scope's rows that left the window when it records", async () => {
    const checks = new FailureWindow('code-check', 5, 60_000);
    const sends = new FailureWindow('code-send', 5, 600_000);
    await checks.record(db, 'old', 0);
    await checks.record(db, 'recent', 30_000);
    await sends.record(db, 'old', 0);
    await checks.record(db, 'new', 60_000);
    expect(await rows()).toEqual([
      { scope: 'code-send', key: 'old', at: 0 },
      { scope: 'code-check', key: 'recent', at: 30_000 },
      { scope: 'code-check', key: 'new', at: 60_000 },
    ]);
  });
});

/** A failed sign-in step, as the handlers count one; answers the lock's end when it locked. */
async function failOnce(guard: LoginGuard, subject: LoginSubject, ip: string, now: Date) {
  const attempt = await guard.attempt(db, subject, ip, now);
  if ('retryAfterSeconds' in attempt) throw new Error('throttled');
  return attempt.failed();
}

/** What a new step would be told: the wait, or null (the probe's reservation is given back). */
async function throttled(guard: LoginGuard, subject: LoginSubject, ip: string, now: Date) {
  const attempt = await guard.attempt(db, subject, ip, now);
  if ('retryAfterSeconds' in attempt) return attempt;
  await attempt.release();
  return null;
}

describe('createLoginGuard', () => {
  const config: LoginGuardConfig = {
    accountMaxFailures: 3,
    ipMaxFailures: 5,
    failureWindowMs: 15 * 60_000,
    lockThreshold: 3,
    lockMinutes: 30,
  };
  const now = new Date('2025-01-15T10:00:00Z');
  const user = { userId: 'usr_x' };

  it('keeps the windows and the lock of an unknown name across a restart', async () => {
    const guard = createLoginGuard(config);
    for (let i = 0; i < 3; i += 1) {
      await failOnce(guard, user, '10.0.0.1', now);
      await failOnce(guard, { unknownName: 'Ghost ' }, '10.0.0.2', now);
    }
    await db.destroy();
    db = await open();

    const restarted = createLoginGuard(config);
    expect(await throttled(restarted, user, '10.0.0.1', now)).toEqual({
      retryAfterSeconds: 15 * 60,
    });
    // The IP window too: 3 failures from 10.0.0.1, 2 more reach its budget of 5.
    await failOnce(restarted, { unknownName: 'a' }, '10.0.0.1', now);
    await failOnce(restarted, { unknownName: 'b' }, '10.0.0.1', now);
    expect(await throttled(restarted, { unknownName: 'c' }, '10.0.0.1', now)).not.toBeNull();
    expect(await restarted.lockedUntil(db, { unknownName: 'ghost' }, now)).toEqual(
      new Date(now.getTime() + 30 * 60_000),
    );
  });

  it('brakes an address on one account without holding back its other accounts', async () => {
    const guard = createLoginGuard(config);
    for (let i = 0; i < 3; i += 1) await failOnce(guard, user, '10.0.0.1', now);
    expect(await throttled(guard, user, '10.0.0.1', now)).toEqual({ retryAfterSeconds: 15 * 60 });
    // The same account from elsewhere, and another account from there, still get their turn.
    expect(await throttled(guard, user, '10.0.0.2', now)).toBeNull();
    expect(await throttled(guard, { userId: 'usr_y' }, '10.0.0.1', now)).toBeNull();
    // Two more failures anywhere from 10.0.0.1 use up the address's own budget of 5.
    await failOnce(guard, { userId: 'usr_y' }, '10.0.0.1', now);
    await failOnce(guard, { unknownName: 'ghost' }, '10.0.0.1', now);
    expect(await throttled(guard, { userId: 'usr_z' }, '10.0.0.1', now)).not.toBeNull();
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped one as IPv4', async () => {
    const guard = createLoginGuard(config);
    await failOnce(guard, user, '2001:db8:1:2::1', now);
    await failOnce(guard, user, '2001:db8:1:2:ffff::9', now);
    await failOnce(guard, user, '2001:0db8:0001:0002:0:0:0:7', now);
    expect(await throttled(guard, user, '2001:db8:1:2:abcd::1', now)).not.toBeNull();
    expect(await throttled(guard, user, '2001:db8:1:3::1', now)).toBeNull();
    for (let i = 0; i < 3; i += 1) await failOnce(guard, user, '::ffff:10.0.0.1', now);
    expect(await throttled(guard, user, '10.0.0.1', now)).not.toBeNull();
  });

  it("a sign-in clears the account's window from its own address only", async () => {
    const guard = createLoginGuard(config);
    for (let i = 0; i < 3; i += 1) {
      await failOnce(guard, user, '10.0.0.1', now);
      await failOnce(guard, user, '10.0.0.2', now);
    }
    await guard.recordSuccess(db, user.userId, '10.0.0.2');
    expect(await throttled(guard, user, '10.0.0.2', now)).toBeNull();
    expect(await throttled(guard, user, '10.0.0.1', now)).not.toBeNull();
  });

  it("clearLock lifts the account's windows from every address, not another account's", async () => {
    const guard = createLoginGuard({ ...config, ipMaxFailures: 10 });
    for (let i = 0; i < 3; i += 1) {
      await failOnce(guard, user, '10.0.0.1', now);
      await failOnce(guard, user, '2001:db8::1', now);
      await failOnce(guard, { userId: 'usr_x2' }, '10.0.0.1', now);
    }
    await clearLock(db, user.userId);
    expect(await throttled(guard, user, '10.0.0.1', now)).toBeNull();
    expect(await throttled(guard, user, '2001:db8::1', now)).toBeNull();
    // `usr_x` is a prefix of `usr_x2`: its windows are not.
    expect(await throttled(guard, { userId: 'usr_x2' }, '10.0.0.1', now)).not.toBeNull();
  });

  it("clearAddress lifts the address's window and its windows on accounts, nothing else", async () => {
    const guard = createLoginGuard({ ...config, ipMaxFailures: 4 });
    for (let i = 0; i < 3; i += 1) await failOnce(guard, user, '2001:db8:0:1::5', now);
    await failOnce(guard, { userId: 'usr_y' }, '2001:db8:0:1::6', now);
    for (let i = 0; i < 3; i += 1) await failOnce(guard, user, '10.0.0.2', now);
    expect(await throttled(guard, { userId: 'usr_z' }, '2001:db8:0:1::7', now)).not.toBeNull();

    expect(await clearAddress(db, '2001:db8:0:1::9')).toBe('2001:db8:0:1::/64');
    expect(await throttled(guard, { userId: 'usr_z' }, '2001:db8:0:1::7', now)).toBeNull();
    expect(await throttled(guard, user, '2001:db8:0:1::7', now)).toBeNull();
    expect(await throttled(guard, user, '10.0.0.2', now)).not.toBeNull();
  });

  it('counts parallel steps before their checks: no more pass than the budget', async () => {
    const guard = createLoginGuard(config);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => guard.attempt(db, user, '10.0.0.1', now)),
    );
    const going = attempts.filter((a) => !('retryAfterSeconds' in a));
    expect(going).toHaveLength(3);
    // A step that did not fail (right password) gives its place back; a failed one keeps it.
    const [first, second] = going;
    if (!first || 'retryAfterSeconds' in first || !second || 'retryAfterSeconds' in second) {
      throw new Error('unreachable');
    }
    await first.release();
    await second.failed();
    expect(await throttled(guard, user, '10.0.0.1', now)).toBeNull();
    expect(await failOnce(guard, user, '10.0.0.1', now)).toBeNull();
    expect(await throttled(guard, user, '10.0.0.1', now)).toEqual({ retryAfterSeconds: 15 * 60 });
  });

  it("counts parallel steps on many accounts against the address's budget", async () => {
    const guard = createLoginGuard(config);
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        guard.attempt(db, { userId: `usr_${i}` }, '10.0.0.1', now),
      ),
    );
    expect(attempts.filter((a) => !('retryAfterSeconds' in a))).toHaveLength(5);
  });

  it('forgets an idle unknown name after a day, unless it is still locked', async () => {
    const guard = createLoginGuard({ ...config, lockThreshold: 2, lockMinutes: 48 * 60 });
    await failOnce(guard, { unknownName: 'idle' }, '10.0.0.1', now);
    await failOnce(guard, { unknownName: 'locked' }, '10.0.0.1', now);
    expect(await failOnce(guard, { unknownName: 'locked' }, '10.0.0.1', now)).toEqual(
      new Date(now.getTime() + 48 * 3_600_000),
    );
    const later = new Date(now.getTime() + UNKNOWN_NAME_MEMORY_MS);
    await failOnce(guard, { unknownName: 'other' }, '10.0.0.1', later);
    const names = await db
      .selectFrom('login_unknown_names')
      .select('name')
      .orderBy('name')
      .execute();
    expect(names.map((row) => row.name)).toEqual(['locked', 'other']);
    // The sign-in windows of that day are gone as well.
    expect(await rows()).toEqual([
      { scope: 'login-account', key: 'n:other|10.0.0.1', at: later.getTime() },
      { scope: 'login-ip', key: '10.0.0.1', at: later.getTime() },
    ]);
  });
});

describe('lock and throttle messages', () => {
  it('say how long to wait', () => {
    const now = new Date('2025-01-15T10:00:00Z');
    expect(lockedMessage(new Date(now.getTime() + 29.5 * 60_000), now)).toBe(
      'This account is locked after too many failed sign-in attempts. Please try again in 30 minutes.',
    );
    expect(lockedMessage(new Date(now.getTime() + 10_000), now)).toMatch(/in 1 minute\.$/);
    expect(throttledMessage(1)).toBe(
      'Too many failed sign-in attempts. Please try again in 1 second.',
    );
    expect(throttledMessage(90)).toMatch(/in 2 minutes\.$/);
  });
});
