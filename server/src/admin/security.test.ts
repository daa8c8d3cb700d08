import { runAdmin } from '../admin';
import { loadConfig } from '../config';
import { openRuntime } from '../runtime';
import { DEMO_ACCOUNT } from '../seed';
import { freshTestStore, type TestStore } from '../../test/testStore';

describe('npm run admin -- user reset-2fa', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await freshTestStore('portal-admin-2fa-');
  });
  afterAll(() => store.close());

  const env = () => ({ ...store.env, NODE_ENV: 'test' });
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(argv, { out: (l) => lines.push(l) }, env());
    return { code, text: lines.join('\n') };
  };

  it('forgets the authenticator and moves an account that used it to OTP', async () => {
    const runtime = await openRuntime(loadConfig(env()));
    await runtime.db
      .updateTable('users')
      .set({
        auth_type: 'authenticator',
        totp_enabled: 1,
        totp_secret_enc: 'v1.x.y.z',
        totp_last_step: 5,
      })
      .where('username', '=', DEMO_ACCOUNT.username)
      .execute();
    await runtime.close();

    const { code, text } = await run('user', 'reset-2fa', DEMO_ACCOUNT.username);
    expect(code).toBe(0);
    expect(text).toContain('now signs in with otp');

    const after = await openRuntime(loadConfig(env()));
    const row = await after.db
      .selectFrom('users')
      .select(['auth_type', 'totp_enabled', 'totp_secret_enc', 'totp_last_step'])
      .where('username', '=', DEMO_ACCOUNT.username)
      .executeTakeFirstOrThrow();
    await after.close();
    expect(row).toEqual({
      auth_type: 'otp',
      totp_enabled: 0,
      totp_secret_enc: null,
      totp_last_step: null,
    });
  });

  it('says so for an unknown user and for wrong arguments', async () => {
    expect(await run('user', 'reset-2fa', 'nobody')).toEqual({
      code: 1,
      text: "No user named 'nobody'.",
    });
    expect((await run('user', 'reset-2fa')).code).toBe(2);
  });
});
