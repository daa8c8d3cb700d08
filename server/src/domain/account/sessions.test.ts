import { loadConfig } from '../../config';
import { openRuntime, type Runtime } from '../../runtime';
import {
  authenticateToken,
  createSession,
  hashToken,
  revokeSession,
  revokeUserSessions,
} from './sessions';
import { freshTestStore, type TestStore } from '../../../test/testStore';

describe('sessions', () => {
  let store: TestStore;
  let runtime: Runtime;
  let userId: string;
  let now = new Date('2025-01-15T10:00:00Z').getTime();
  const clock = () => new Date(now);
  const LIMITS = { idleMinutes: 30, maxHours: 12 };

  beforeAll(async () => {
    store = await freshTestStore('portal-sess-');
    runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
    userId = (await runtime.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await runtime.close();
    await store.close();
  });

  it('stores only the hash of an opaque token', async () => {
    const { token, sessionId } = await createSession(
      runtime.db,
      userId,
      { ip: '127.0.0.1' },
      clock,
    );
    expect(token).toMatch(/^sess_[\w-]{43}$/);
    const row = await runtime.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('slides on use and expires after the idle time', async () => {
    const { token } = await createSession(runtime.db, userId, {}, clock);
    now += 29 * 60_000;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    now += 29 * 60_000; // 58 min after creation, 29 after the last use
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    // The idle time, plus the minute by which last_seen_at may lag the last use.
    now += 31 * 60_000 + 1;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toEqual({
      ok: false,
      reason: 'revoked',
    });
  });

  it('writes last_seen_at at most once a minute, and never ends an active session early', async () => {
    const { token, sessionId } = await createSession(runtime.db, userId, {}, clock);
    const seen = async () =>
      (
        await runtime.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const created = await seen();
    now += 59_000;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    expect(await seen()).toBe(created);
    now += 1_000;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    const written = await seen();
    expect(written).toBe(new Date(now).toISOString());
    // Used again 59 s later (not written), then idle 30 min after that use: still open.
    now += 59_000;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    expect(await seen()).toBe(written);
    now += 30 * 60_000;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    // Idle 31 min after that use: ended.
    now += 31 * 60_000 + 1;
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('ends a session in constant use after its absolute lifetime', async () => {
    const { token } = await createSession(runtime.db, userId, {}, clock);
    for (let minutes = 20; minutes <= 12 * 60; minutes += 20) {
      now += 20 * 60_000;
      expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toMatchObject({ ok: true });
    }
    now += 60_000; // 12 h 1 min after sign-in, 1 min after the last use
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toEqual({
      ok: false,
      reason: 'lifetime',
    });
    expect(await authenticateToken(runtime.db, token, LIMITS, clock)).toEqual({
      ok: false,
      reason: 'revoked',
    });
  });

  it('rejects unknown and revoked tokens', async () => {
    expect(await authenticateToken(runtime.db, 'sess_nope', LIMITS, clock)).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(await authenticateToken(runtime.db, 'step_abc.def', LIMITS, clock)).toMatchObject({
      ok: false,
    });
    const a = await createSession(runtime.db, userId, {}, clock);
    await revokeSession(runtime.db, a.sessionId, clock);
    expect(await authenticateToken(runtime.db, a.token, LIMITS, clock)).toMatchObject({
      reason: 'revoked',
    });
  });

  it('revokes all of a user sessions except one', async () => {
    const keep = await createSession(runtime.db, userId, {}, clock);
    const drop = await createSession(runtime.db, userId, {}, clock);
    await revokeUserSessions(runtime.db, userId, keep.sessionId, clock);
    expect(await authenticateToken(runtime.db, keep.token, LIMITS, clock)).toMatchObject({
      ok: true,
    });
    expect(await authenticateToken(runtime.db, drop.token, LIMITS, clock)).toMatchObject({
      ok: false,
    });
  });
});
