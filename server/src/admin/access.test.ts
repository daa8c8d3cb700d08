import { runAdmin } from '../admin';
import { loadConfig } from '../config';
import { openRuntime } from '../runtime';
import { freshTestStore, type TestStore } from '../../test/testStore';

describe('access admin commands', () => {
  let store: TestStore;
  const env = () => ({ ...store.env, NODE_ENV: 'test' as const });
  beforeAll(async () => {
    store = await freshTestStore('portal-access-');
    // The server's first start: the database with the demo account.
    const runtime = await openRuntime(loadConfig(env()));
    await runtime.close();
  });
  afterAll(() => store.close());

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(argv, { out: (l) => lines.push(l) }, env());
    return { code, text: lines.join('\n') };
  };
  const demo = async () => {
    const runtime = await openRuntime(loadConfig(env()), { seed: false });
    try {
      return await runtime.db
        .selectFrom('users')
        .select(['auth_type', 'failed_logins', 'locked_until'])
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow();
    } finally {
      await runtime.close();
    }
  };

  it('are listed in the help', async () => {
    const { text } = await run('help');
    expect(text).toContain('user auth-type <username> <mpin|authenticator|otp>');
    expect(text).toContain('user unlock <username>');
  });

  it('move a user to e-mailed OTP and back (username in any case)', async () => {
    const toOtp = await run('user', 'auth-type', 'DEMO', 'otp');
    expect(toOtp).toEqual({ code: 0, text: 'demo now signs in with otp (was mpin).' });
    expect((await demo()).auth_type).toBe('otp');
    expect((await run('user', 'auth-type', 'demo', 'mpin')).code).toBe(0);
    expect((await demo()).auth_type).toBe('mpin');
  });

  it('refuse the authenticator for a user who has not set it up', async () => {
    const res = await run('user', 'auth-type', 'demo', 'authenticator');
    expect(res.code).toBe(1);
    expect(res.text).toBe('demo has not set up an authenticator; choose mpin or otp.');
    expect((await demo()).auth_type).toBe('mpin');
  });

  it('explain bad arguments and unknown users', async () => {
    const bad = await run('user', 'auth-type', 'demo', 'sms');
    expect(bad.code).toBe(2);
    expect(bad.text).toContain("Unknown second factor 'sms'.");
    expect(bad.text).toContain('Usage: npm run admin -- user auth-type');
    expect((await run('user', 'auth-type', 'demo')).code).toBe(2);
    expect(await run('user', 'unlock', 'nobody')).toEqual({
      code: 1,
      text: "No user named 'nobody'.",
    });
  });

  it('unlock a locked account', async () => {
    const runtime = await openRuntime(loadConfig(env()), { seed: false });
    await runtime.db
      .updateTable('users')
      .set({ failed_logins: 4, locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('username', '=', 'demo')
      .execute();
    await runtime.close();
    expect(await run('user', 'unlock', 'demo')).toEqual({ code: 0, text: 'demo is unlocked.' });
    expect(await demo()).toMatchObject({ failed_logins: 0, locked_until: null });
    expect((await run('user', 'unlock', 'demo')).text).toBe(
      'demo was not locked; failed attempts reset.',
    );
  });
});
