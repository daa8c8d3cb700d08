import { FailureWindow, lockedMessage, throttledMessage } from './lockout';

describe('FailureWindow', () => {
  it('allows up to the budget inside the window, then says how long to wait', () => {
    const window = new FailureWindow(3, 60_000);
    window.record('k', 0);
    window.record('k', 10_000);
    expect(window.retryAfterMs('k', 10_000)).toBe(0);
    window.record('k', 20_000);
    // The oldest of the last three failures leaves the window at 60 s.
    expect(window.retryAfterMs('k', 20_000)).toBe(40_000);
    expect(window.retryAfterMs('k', 59_999)).toBe(1);
    expect(window.retryAfterMs('k', 60_000)).toBe(0);
    expect(window.retryAfterMs('other', 20_000)).toBe(0);
  });

  it('forgets a key on clear and keeps at most maxKeys keys', () => {
    const window = new FailureWindow(1, 60_000, 2);
    window.record('a', 0);
    window.clear('a');
    expect(window.retryAfterMs('a', 0)).toBe(0);
    window.record('a', 0);
    window.record('b', 0);
    window.record('c', 0);
    // 'a' failed least recently and was dropped to make room.
    expect(window.retryAfterMs('a', 0)).toBe(0);
    expect(window.retryAfterMs('b', 0)).toBeGreaterThan(0);
    expect(window.retryAfterMs('c', 0)).toBeGreaterThan(0);
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
