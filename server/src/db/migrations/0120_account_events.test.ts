import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { testAppPerBlock } from '../../../test/withTestApp';
import { previousSignIn } from '../../domain/account/events';
import { createSession } from '../../domain/account/sessions';
import { up } from './0120_account_events';

describe('migration 0120: account events', () => {
  const t = testAppPerBlock();

  it('turns the sessions so far into read sign-ins, so the last login survives the upgrade', async () => {
    const userId = await addUser(t, 'old_sessions');
    const at = (iso: string) => () => new Date(iso);
    const client = {
      ip: '203.0.113.9',
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    };
    await createSession(t.db, userId, client, at('2026-11-18T09:00:00.000Z'));
    const current = await createSession(t.db, userId, {}, at('2026-11-19T09:00:00.000Z'));
    // As the database was before the migration: sessions, no events.
    await t.db.schema.dropTable('account_events').execute();
    // Migrations take the untyped database they run on.
    await up(t.db as unknown as Kysely<unknown>);

    const events = await t.db
      .selectFrom('account_events')
      .select(['kind', 'created_at', 'read_at', 'ip'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    expect(events).toEqual([
      {
        kind: 'sign_in',
        created_at: '2026-11-18T09:00:00.000Z',
        read_at: '2026-11-18T09:00:00.000Z',
        ip: '203.0.113.9',
      },
      {
        kind: 'sign_in',
        created_at: '2026-11-19T09:00:00.000Z',
        read_at: '2026-11-19T09:00:00.000Z',
        ip: null,
      },
    ]);
    const session = { id: current.sessionId, createdAt: '2026-11-19T09:00:00.000Z' };
    expect(await previousSignIn(t.db, userId, session, t.clock())).toEqual({
      at: '2026-11-18T09:00:00.000Z',
      ip: '203.0.113.9',
      device: 'Chrome on Windows 10',
    });
  });
});
