import { runAdmin } from '../admin';
import { DEMO_ACCOUNT } from '../seed';
import { addUser } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/testApp';

// `user unlock` run next to a live app on the same DATA_DIR: the operator expects the user to
// be able to sign in right away, so the account's 429 window goes with the lock.

describe('npm run admin -- user unlock', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({
      env: {
        LOGIN_ACCOUNT_MAX_FAILURES: '3',
        LOGIN_IP_MAX_FAILURES: '6',
        LOGIN_LOCK_THRESHOLD: '3',
      },
    });
  });
  afterEach(() => t.close());

  const preLogin = (username: string, password: string, ip: string) =>
    t.call('preLogin', { body: { username, password }, remoteAddress: ip });

  it("lifts the account's lock and 429 window, not another account's nor the IP's", async () => {
    await addUser(t, 'other');
    for (let i = 0; i < 3; i += 1) {
      expect((await preLogin('demo', 'Nope@1234', '10.0.0.1')).statusCode).toBe(422);
      expect((await preLogin('other', 'Nope@1234', '10.0.0.2')).statusCode).toBe(422);
    }
    // This address uses up its budget on names that match no account.
    for (let i = 0; i < 6; i += 1) {
      expect((await preLogin(`ghost_${i}`, 'Nope@1234', '10.0.0.3')).statusCode).toBe(422);
    }
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.1')).statusCode).toBe(429);

    const lines: string[] = [];
    const code = await runAdmin(
      ['user', 'unlock', 'demo'],
      { out: (line) => lines.push(line) },
      { ...t.storeEnv, NODE_ENV: 'test' },
    );
    expect({ code, lines }).toEqual({ code: 0, lines: ['demo is unlocked.'] });

    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.1')).statusCode).toBe(200);
    expect((await preLogin('other', 'Nope@1234', '10.0.0.2')).statusCode).toBe(429);
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(429);
  });
});
