import { runAdmin } from '../admin';
import { DEMO_ACCOUNT } from '../seed';
import { addUser } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/testApp';

// `user unlock` and `ip unlock` run next to a live app on the same DATA_DIR: the operator expects
// the user (or the office behind the address) to be able to sign in right away.

describe('npm run admin -- user unlock / ip unlock', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({
      env: {
        LOGIN_ACCOUNT_MAX_FAILURES: '3',
        LOGIN_IP_MAX_FAILURES: '6',
        LOGIN_LOCK_THRESHOLD: '6',
      },
    });
  });
  afterEach(() => t.close());

  const preLogin = (username: string, password: string, ip: string) =>
    t.call('preLogin', { body: { username, password }, remoteAddress: ip });

  async function admin(...argv: string[]) {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (line) => lines.push(line) },
      { ...t.storeEnv, NODE_ENV: 'test' },
    );
    return { code, lines };
  }

  it("user unlock lifts the account's lock and its windows from every address", async () => {
    await addUser(t, 'other');
    for (let i = 0; i < 3; i += 1) {
      expect((await preLogin('demo', 'Nope@1234', '10.0.0.1')).statusCode).toBe(422);
      expect((await preLogin('demo', 'Nope@1234', '10.0.0.2')).statusCode).toBe(422);
      expect((await preLogin('other', 'Nope@1234', '10.0.0.2')).statusCode).toBe(422);
    }
    // The sixth consecutive failure locked demo: refused even with the right password.
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(422);
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.1')).statusCode).toBe(429);

    expect(await admin('user', 'unlock', 'demo')).toEqual({
      code: 0,
      lines: ['demo is unlocked.'],
    });

    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.1')).statusCode).toBe(200);
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(200);
    expect((await preLogin('other', 'Nope@1234', '10.0.0.2')).statusCode).toBe(429);
  });

  it("ip unlock lifts an address's windows, not an account's lock", async () => {
    // This address uses up its budget on names that match no account.
    for (let i = 0; i < 6; i += 1) {
      expect((await preLogin(`ghost_${i}`, 'Nope@1234', '10.0.0.3')).statusCode).toBe(422);
    }
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(429);
    // user unlock is about the account, not about the address.
    await admin('user', 'unlock', 'demo');
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(429);

    expect(await admin('ip', 'unlock', '::ffff:10.0.0.3')).toEqual({
      code: 0,
      lines: ['Sign-in failures from 10.0.0.3 are forgotten.'],
    });
    expect((await preLogin('demo', DEMO_ACCOUNT.password, '10.0.0.3')).statusCode).toBe(200);
    expect((await preLogin('ghost_0', 'Nope@1234', '10.0.0.3')).statusCode).toBe(422);

    const refused = await admin('ip', 'unlock', '10.0.0');
    expect(refused.code).toBe(2);
    expect(refused.lines[0]).toContain("'10.0.0' is not an IPv4 or IPv6 address.");
  });
});
