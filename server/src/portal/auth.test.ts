import { buildApp } from '../app';
import { COUNTRIES } from '../seed/countries.data';
import { DEMO_ACCOUNT } from '../seed';
import { issueOtp } from '../domain/account/otp';
import { readOutbox } from '../domain/mailer';
import { issueStepToken } from '../domain/account/stepTokens';
import { newTotpSecret, sealTotpSecret, totpCode } from '../domain/account/totp';
import { call } from '../../test/operations';
import { createTestApp, type TestApp, type TestAppOptions } from '../../test/testApp';
import { coded, expectFieldErrors, expectRefusal } from '../../test/expectations';

// The Auth operations against the real openapi.yaml (responses validated against it).

const NEW_USER = {
  name: 'Asha Verma',
  username: 'asha_v',
  email: 'asha@example.com',
  sponsor_id: '',
  password: 'S3cure!pass',
  spassword: '4821',
  country: 'IN',
  phone: '919876543210',
  is_checked: 1,
};

const DEMO = { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password };
const BAD_CREDENTIALS = 'Invalid username or password.';

async function preLogin(t: TestApp, body: { username: string; password: string }, ip?: string) {
  return t.call('preLogin', { body, ...(ip ? { remoteAddress: ip } : {}) });
}

async function stepToken(
  t: TestApp,
  body: { username: string; password: string } = DEMO,
): Promise<string> {
  const res = await preLogin(t, body);
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

function login(t: TestApp, token: string, body: Record<string, string>) {
  return t.call('login', { headers: { authorization: `Bearer ${token}` }, body });
}

async function signIn(t: TestApp, code: Record<string, string> = { mpin: DEMO_ACCOUNT.pin }) {
  const res = await login(t, await stepToken(t), { ...DEMO, ...code });
  expect(res.statusCode).toBe(200);
  return res.json() as { token: string; profile: Record<string, unknown>; username: string };
}

async function userRow(t: TestApp, username: string = DEMO.username) {
  return t.db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
}

/** A fresh app per test, or one for the whole block when its tests cannot disturb each other. */
const withApp = (options: TestAppOptions = {}, shared = false) => {
  const ref: { t: TestApp } = {} as { t: TestApp };
  (shared ? beforeAll : beforeEach)(async () => {
    ref.t = await createTestApp(options);
  });
  (shared ? afterAll : afterEach)(() => ref.t.close());
  return ref;
};

describe('listCountries and checkUsername', () => {
  const ref = withApp({}, true);

  it('lists every ISO 3166 country with its calling code, sorted by name', async () => {
    const res = await ref.t.call('listCountries');
    expect(res.statusCode).toBe(200);
    const { status, data } = res.json() as { status: boolean; data: { name: string }[] };
    expect(status).toBe(true);
    expect(data).toHaveLength(COUNTRIES.length);
    expect(data.length).toBeGreaterThanOrEqual(249);
    expect(data).toContainEqual({ id: 'IN', name: 'India', calling_code: '+91' });
    const names = data.map((c) => c.name);
    expect(names).toEqual([...names].sort());
  });

  it('reads the countries once and answers the same bytes after (only the seed writes them)', async () => {
    const first = await ref.t.call('listCountries');
    const selects = jest.spyOn(ref.t.db, 'selectFrom');
    const again = await ref.t.call('listCountries');
    expect(selects).not.toHaveBeenCalled();
    selects.mockRestore();
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(again.body).toBe(JSON.stringify(first.json()));
  });

  it('says whether a username is free, ignoring case', async () => {
    const free = await ref.t.call('checkUsername', { params: { username: 'new_name' } });
    expect(free.json()).toEqual({
      status: true,
      msg: 'Username available.',
      codes: { msg: { code: 'auth.usernameAvailable' } },
    });
    for (const name of ['demo', 'DEMO', 'Demo']) {
      const taken = await ref.t.call('checkUsername', { params: { username: name } });
      expect(taken.statusCode).toBe(200);
      expect(taken.json()).toEqual({
        status: false,
        msg: 'Username already taken.',
        codes: { msg: { code: 'auth.usernameTaken' } },
      });
    }
  });

  it('refuses a username that breaks the format with 422', async () => {
    const res = await ref.t.call('checkUsername', { params: { username: 'a-b' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.username).toEqual([
      'Username may only contain letters, digits and underscores.',
    ]);
  });
});

describe('register', () => {
  const ref = withApp({}, true);
  const register = (body: Record<string, unknown>) => ref.t.call('register', { body });

  it('creates an mpin account with hashed secrets and a resolved sponsor', async () => {
    const res = await register({ ...NEW_USER, sponsor_id: 'DEMO' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: true,
      msg: 'Registration Successfully, please login.',
      codes: { msg: { code: 'auth.registered' } },
    });
    const user = await userRow(ref.t, 'asha_v');
    const demo = await userRow(ref.t);
    expect(user).toMatchObject({
      name: 'Asha Verma',
      email: 'asha@example.com',
      auth_type: 'mpin',
      country: 'IN',
      phone: '919876543210',
      sponsor_id: demo.id,
      last_login_at: null,
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.pin_hash).toMatch(/^\$argon2id\$/);
    expect(user.password_hash).not.toContain(NEW_USER.password);

    // The new account signs in with its pin.
    const token = await stepToken(ref.t, { username: 'asha_v', password: NEW_USER.password });
    const signedIn = await login(ref.t, token, {
      username: 'asha_v',
      password: NEW_USER.password,
      mpin: '4821',
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it.each([
    [
      'a taken username or e-mail, whatever the case',
      { username: 'DeMo', email: 'DEMO@example.com' },
      { username: ['Username already taken.'], email: ['Email already registered.'] },
    ],
    [
      'an unknown sponsor and an unknown country',
      {
        username: 'fresh_one',
        email: 'fresh@example.com',
        sponsor_id: 'nobody_here',
        country: 'ZZ',
      },
      {
        sponsor_id: ['Sponsor not found.'],
        country: ['Please select a country from the list.'],
      },
    ],
  ])('refuses %s', async (_case, fields, errors) => {
    expectFieldErrors(await register({ ...NEW_USER, ...fields }), errors);
  });

  it.each([
    ['no uppercase', 's3cure!pass'],
    ['no lowercase', 'S3CURE!PASS'],
    ['no number', 'Secure!pass'],
    ['no special character', 'S3curepass'],
    ['too short', 'S3c!ure'],
  ])('enforces the password checklist (%s)', async (_case, password) => {
    const res = await register({
      ...NEW_USER,
      username: 'weak_pw',
      email: 'weak@example.com',
      password,
    });
    expectFieldErrors(res, {
      password: [
        'Password must have at least 8 characters, one lowercase letter, one uppercase letter, one number and one special character.',
      ],
    });
    const created = await ref.t.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'weak_pw')
      .execute();
    expect(created).toHaveLength(0);
  });

  it('refuses a name with other than letters and spaces, and unaccepted terms', async () => {
    const res = await register({
      ...NEW_USER,
      username: 'fresh_two',
      email: 'fresh2@example.com',
      name: 'Asha 2',
      is_checked: 0,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      status: false,
      msg: 'Name may only contain letters and spaces.',
      errors: {
        name: ['Name may only contain letters and spaces.'],
        is_checked: ['Please Accept Terms & Condition'],
      },
    });
  });

  it("answers the spec's messages for missing and malformed fields", async () => {
    const res = await register({
      name: '',
      username: 'ab_c',
      email: 'not-an-email',
      password: 'S3cure!pass',
      country: '',
      phone: '12',
      is_checked: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      name: ['Name is required'],
      email: ['Please Enter Valid email'],
      spassword: ['4 digit Pin is required'],
      country: ['Country is required'],
      phone: ['Phone must be 6 to 16 digits.'],
    });
  });
});

describe('two-step sign-in', () => {
  const ref = withApp();

  it('signs in with username or e-mail, password and pin', async () => {
    const t = ref.t;
    for (const username of ['demo', 'DEMO@example.com']) {
      const step = await preLogin(t, { username, password: DEMO.password });
      expect(step.statusCode).toBe(200);
      expect(step.json()).toMatchObject({
        status: true,
        auth_type: 'mpin',
        msg: 'Enter your 4 Digit Pin to continue.',
      });
      const token = step.json().token as string;
      expect(token).toMatch(/^step_/);
      const res = await login(t, token, { username, password: DEMO.password, mpin: '1234' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        status: true,
        msg: 'Login Successfully',
        username: 'demo',
        currency: 'USD',
        currency_type: '$',
        profile: { name: 'Demo Merchant', email: 'demo@example.com', auth_type: 'mpin' },
      });
      expect(body.token).toMatch(/^sess_/);
      expect(body.token).not.toBe(token);
    }
  });

  it('stores only a hash of the session token, and logout revokes it', async () => {
    const t = ref.t;
    const { token } = await signIn(t);
    const sessions = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.map((s) => s.token_hash)).not.toContain(token);
    const auth = { authorization: `Bearer ${token}` };
    const out = await t.call('logout', { headers: auth });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({
      status: true,
      msg: 'Logout Successfully',
      codes: { msg: { code: 'auth.loggedOut' } },
    });
    const again = await t.call('logout', { headers: auth });
    expect(again.statusCode).toBe(401);
  });

  it('ends a session idle for longer than SESSION_IDLE_MINUTES with a 401', async () => {
    const t = ref.t;
    const { token } = await signIn(t);
    // The idle time, plus the minute by which last_seen_at may lag the last use.
    t.clock.advance((t.config.sessionIdleMinutes + 1) * 60_000 + 1);
    const res = await t.call('logout', { headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json().msg).toBe('Session timed out due to inactivity. Please sign in again.');
  });

  it('ends a session in constant use after SESSION_MAX_HOURS', async () => {
    const t = ref.t;
    const { token } = await signIn(t);
    const auth = { authorization: `Bearer ${token}` };
    // Used every 20 minutes: never idle, yet the absolute lifetime still ends it.
    const steps = Math.floor((t.config.sessionMaxHours * 60) / 20);
    for (let i = 0; i < steps; i++) {
      t.clock.advance(20 * 60_000);
      expect((await t.call('getProfile', { headers: auth })).statusCode).toBe(200);
    }
    t.clock.advance(20 * 60_000);
    const res = await t.call('getProfile', { headers: auth });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(
      coded({
        status: false,
        msg: 'Session expired. Please sign in again.',
        errors: {},
      }),
    );
  });

  it('keeps the previous sign-in time as last_login_at', async () => {
    const t = ref.t;
    await signIn(t);
    expect((await userRow(t)).last_login_at).toBeNull();
    const firstAt = t.clock().toISOString();
    t.clock.advance(60 * 60_000);
    await signIn(t);
    expect((await userRow(t)).last_login_at).toBe(firstAt);
  });

  it('answers a wrong password or an unknown name alike (422, never 401)', async () => {
    const t = ref.t;
    const wrong = await preLogin(t, { username: 'demo', password: 'Wrong@12345' });
    const unknown = await preLogin(t, { username: 'nobody', password: 'Wrong@12345' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        status: false,
        msg: BAD_CREDENTIALS,
        errors: { password: [BAD_CREDENTIALS] },
        // Its code, for a client in another language.
        codes: {
          msg: { code: 'auth.badCredentials' },
          errors: { password: [{ code: 'auth.badCredentials' }] },
        },
      });
    }
  });

  it('refuses a wrong pin with 422 and lets the same step token try again', async () => {
    const t = ref.t;
    const token = await stepToken(t);
    const wrong = await login(t, token, { ...DEMO, mpin: '9999' });
    expectFieldErrors(wrong, { mpin: ['The 4 Digit Pin is incorrect.'] });
    const right = await login(t, token, { ...DEMO, mpin: '1234' });
    expect(right.statusCode).toBe(200);
  });

  it('asks for the code of the account type', async () => {
    const t = ref.t;
    const token = await stepToken(t);
    const none = await login(t, token, DEMO);
    expectFieldErrors(none, { mpin: ['4 Digit Pin is Required'] });
    const other = await login(t, token, { ...DEMO, otp: '1234' });
    expect(other.json().errors).toEqual({ mpin: ['4 Digit Pin is Required'] });
    const malformed = await login(t, token, { ...DEMO, mpin: '12+4' });
    expectFieldErrors(malformed, { mpin: ['The 4 Digit Pin must be 4 digits.'] });
  });

  it('makes the step token single-use', async () => {
    const t = ref.t;
    const token = await stepToken(t);
    expect((await login(t, token, { ...DEMO, mpin: '1234' })).statusCode).toBe(200);
    const reused = await login(t, token, { ...DEMO, mpin: '1234' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().msg).toBe('This sign-in step was already used. Please sign in again.');
  });

  it('refuses an expired, missing or foreign step token with 422', async () => {
    const t = ref.t;
    const token = await stepToken(t);
    t.clock.advance(5 * 60_000);
    const expired = await login(t, token, { ...DEMO, mpin: '1234' });
    expectRefusal(expired, 422, 'Sign-in step expired. Please sign in again.');
    const missing = await t.call('login', { body: { ...DEMO, mpin: '1234' } });
    expect(missing.statusCode).toBe(422);
    const session = await t.authHeader();
    const wrongKind = await t.call('login', { headers: session, body: { ...DEMO, mpin: '1234' } });
    expect(wrongKind.statusCode).toBe(422);
    expect(wrongKind.json().msg).toBe('Sign-in step is not valid. Please sign in again.');
  });

  it("binds the step token to its account's credentials", async () => {
    const t = ref.t;
    await t.call('register', { body: NEW_USER });
    const token = await stepToken(t);
    const other = await login(t, token, {
      username: NEW_USER.username,
      password: NEW_USER.password,
      mpin: NEW_USER.spassword,
    });
    expectFieldErrors(other, { password: [BAD_CREDENTIALS] });
  });
});

describe('e-mailed OTP sign-in', () => {
  const ref = withApp();

  const latestCode = (t: TestApp) => {
    const mails = readOutbox(t.dataDir);
    const text = mails[mails.length - 1]?.text ?? '';
    return /code is (\d{4})\b/.exec(text)?.[1] ?? '';
  };

  beforeEach(async () => {
    await ref.t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
  });

  it('mails a 4-digit code to the outbox and signs in with it once', async () => {
    const t = ref.t;
    const step = await preLogin(t, DEMO);
    expect(step.json()).toMatchObject({ auth_type: 'otp' });
    const mails = readOutbox(t.dataDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'demo@example.com' });
    const code = latestCode(t);
    expect(code).toMatch(/^\d{4}$/);

    const wrongCode = code === '0000' ? '0001' : '0000';
    const wrong = await login(t, step.json().token, { ...DEMO, otp: wrongCode });
    expectFieldErrors(wrong, { otp: ['The OTP is incorrect or has expired.'] });
    expect((await login(t, step.json().token, { ...DEMO, otp: code })).statusCode).toBe(200);

    // The same code with a fresh step token: already used.
    const demo = await userRow(t);
    const fresh = issueStepToken(t.config.secretKey, demo.id, 'login', t.clock);
    const reused = await login(t, fresh, { ...DEMO, otp: code });
    expectFieldErrors(reused, { otp: ['The OTP is incorrect or has expired.'] });
  });

  it('honours only the newest code, for 10 minutes', async () => {
    const t = ref.t;
    await preLogin(t, DEMO);
    const first = latestCode(t);
    const token = await stepToken(t);
    const second = latestCode(t);
    if (first !== second) {
      expect((await login(t, token, { ...DEMO, otp: first })).statusCode).toBe(422);
    }
    t.clock.advance(10 * 60_000 + 1000);
    const demo = await userRow(t);
    const late = issueStepToken(t.config.secretKey, demo.id, 'login', t.clock);
    expect((await login(t, late, { ...DEMO, otp: second })).statusCode).toBe(422);
  });
});

describe('authenticator sign-in', () => {
  const ref = withApp();
  let secret: string;

  beforeEach(async () => {
    const demo = await userRow(ref.t);
    secret = newTotpSecret();
    await ref.t.db
      .updateTable('users')
      .set({
        auth_type: 'authenticator',
        totp_enabled: 1,
        totp_secret_enc: sealTotpSecret(ref.t.config.secretKey, demo.id, secret),
      })
      .execute();
  });

  it('accepts the current code or one step old, each only once', async () => {
    const t = ref.t;
    const step = await preLogin(t, DEMO);
    expect(step.json()).toMatchObject({ auth_type: 'authenticator' });
    const previous = await totpCode(secret, new Date(t.clock().getTime() - 30_000));
    const ok = await login(t, step.json().token, { ...DEMO, authenticator: previous });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().profile).toMatchObject({ auth_type: 'authenticator', image_2fa: null });

    const replay = await login(t, await stepToken(t), { ...DEMO, authenticator: previous });
    expectFieldErrors(replay, {
      authenticator: ['The Two-Factor Authentication Code is incorrect.'],
    });
  });

  it('refuses a code from another time or missing', async () => {
    const t = ref.t;
    const token = await stepToken(t);
    const old = await totpCode(secret, new Date(t.clock().getTime() - 5 * 60_000));
    expect((await login(t, token, { ...DEMO, authenticator: old })).statusCode).toBe(422);
    const none = await login(t, token, DEMO);
    expect(none.json().errors).toEqual({
      authenticator: ['Two-Factor Authentication Code is Required'],
    });
    const current = await totpCode(secret, t.clock());
    expect((await login(t, token, { ...DEMO, authenticator: current })).statusCode).toBe(200);
  });
});

describe('brute-force limits', () => {
  describe('per account', () => {
    const ref = withApp({ env: { LOGIN_ACCOUNT_MAX_FAILURES: '3' } });

    it('answers 429 with Retry-After after the failure budget, for unknown names too', async () => {
      const t = ref.t;
      for (const username of ['demo', 'ghost_user']) {
        for (let i = 0; i < 3; i += 1) {
          expect((await preLogin(t, { username, password: 'Nope@1234' })).statusCode).toBe(422);
        }
        const limited = await preLogin(t, { username, password: DEMO.password });
        expect(limited.statusCode).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.json()).toEqual(
          coded({
            status: false,
            msg: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
            errors: {},
          }),
        );
        // The wait is the code's value: a client words it in its language.
        expect(limited.json().codes).toEqual({
          msg: { code: 'wait.signInThrottledMinutes', values: ['15'] },
        });
      }
      t.clock.advance(15 * 60_000);
      expect((await preLogin(t, DEMO)).statusCode).toBe(200);
    });

    it('counts wrong codes at step two as well', async () => {
      const t = ref.t;
      const token = await stepToken(t);
      for (let i = 0; i < 3; i += 1) {
        expect((await login(t, token, { ...DEMO, mpin: '0000' })).statusCode).toBe(422);
      }
      expect((await login(t, token, { ...DEMO, mpin: '1234' })).statusCode).toBe(429);
    });

    it('keeps counting across a restart (a new app on the same database)', async () => {
      const t = ref.t;
      for (const username of ['demo', 'ghost_user']) {
        for (let i = 0; i < 3; i += 1) {
          expect((await preLogin(t, { username, password: 'Nope@1234' })).statusCode).toBe(422);
        }
      }
      const restarted = await buildApp({ config: t.config, db: t.db, clock: t.clock });
      try {
        for (const username of ['demo', 'ghost_user']) {
          const res = await call(restarted, 'preLogin', {
            body: { username, password: DEMO.password },
          });
          expect(res.statusCode).toBe(429);
        }
      } finally {
        await restarted.close();
      }
    });
  });

  describe('per address and account', () => {
    // The defaults (LOGIN_ACCOUNT_MAX_FAILURES 5, LOGIN_IP_MAX_FAILURES 100), not test values.
    const ref = withApp();

    it('lets a correct sign-in through from an address that failed 30 times on other names', async () => {
      const t = ref.t;
      // One attacker behind an office's NAT: 30 wrong guesses, 5 on each of six names.
      for (let i = 0; i < 30; i += 1) {
        const guess = { username: `victim_${i % 6}`, password: 'Nope@1234' };
        expect((await preLogin(t, guess, '198.51.100.7')).statusCode).toBe(422);
      }
      expect(
        (await preLogin(t, { username: 'victim_0', password: 'Nope@1234' }, '198.51.100.7'))
          .statusCode,
      ).toBe(429);
      // A colleague behind the same address, on an account with no failures.
      expect((await preLogin(t, DEMO, '198.51.100.7')).statusCode).toBe(200);
      // 31 password checks (argon2) on 2 shared cores.
    }, 90_000);

    it('brakes guessing on one account from one address, not its owner elsewhere', async () => {
      const t = ref.t;
      for (let i = 0; i < 5; i += 1) {
        const guess = { username: 'demo', password: 'Nope@1234' };
        expect((await preLogin(t, guess, '198.51.100.7')).statusCode).toBe(422);
      }
      const limited = await preLogin(t, DEMO, '198.51.100.7');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe(String(15 * 60));
      expect((await preLogin(t, DEMO, '203.0.113.20')).statusCode).toBe(200);
    });
  });

  describe('per IP', () => {
    const ref = withApp({ env: { LOGIN_IP_MAX_FAILURES: '3' } });

    it('answers 429 to an address that fails across many names', async () => {
      const t = ref.t;
      for (const username of ['a_one', 'a_two', 'a_three']) {
        const res = await preLogin(t, { username, password: 'Nope@1234' }, '10.0.0.9');
        expect(res.statusCode).toBe(422);
      }
      const limited = await preLogin(t, DEMO, '10.0.0.9');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await preLogin(t, DEMO, '10.0.0.10')).statusCode).toBe(200);
    });
  });

  describe('request budget', () => {
    const ref = withApp({ env: { AUTH_RATE_LIMIT_MAX: '2' } });

    it('limits sign-in requests per IP, successful or not', async () => {
      const t = ref.t;
      expect((await preLogin(t, DEMO)).statusCode).toBe(200);
      expect((await preLogin(t, DEMO)).statusCode).toBe(200);
      const limited = await preLogin(t, DEMO);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(limited.json()).toMatchObject({ status: false, errors: {} });
    });
  });

  describe('the countries', () => {
    const ref = withApp({ env: { RATE_LIMIT_MAX: '2' } });

    it('are never limited, while the other operations keep their budget', async () => {
      const t = ref.t;
      for (let i = 0; i < 4; i += 1) {
        const countries = await t.call('listCountries');
        expect(countries.statusCode).toBe(200);
        expect(countries.headers['ratelimit-limit']).toBeUndefined();
      }
      const check = () => t.call('checkUsername', { params: { username: 'new_name' } });
      expect((await check()).headers['ratelimit-remaining']).toBe('1');
      expect((await check()).statusCode).toBe(200);
      expect((await check()).statusCode).toBe(429);
      expect((await t.call('listCountries')).statusCode).toBe(200);
    });
  });

  describe('account lock', () => {
    const ref = withApp({
      env: {
        LOGIN_LOCK_THRESHOLD: '3',
        LOGIN_LOCK_MINUTES: '30',
        LOGIN_ACCOUNT_MAX_FAILURES: '50',
      },
    });
    const LOCKED =
      'This account is locked after too many failed sign-in attempts. Please try again in 30 minutes.';

    it('locks after consecutive failures, even for the right password, then expires', async () => {
      const t = ref.t;
      for (const expected of [BAD_CREDENTIALS, BAD_CREDENTIALS, LOCKED]) {
        const res = await preLogin(t, { username: 'demo', password: 'Nope@1234' });
        expect(res.statusCode).toBe(422);
        expect(res.json().msg).toBe(expected);
      }
      const locked = await preLogin(t, DEMO);
      expectRefusal(locked, 422, LOCKED);
      expect((await userRow(t)).locked_until).not.toBeNull();

      t.clock.advance(30 * 60_000);
      expect((await preLogin(t, DEMO)).statusCode).toBe(200);
    });

    it('answers an unknown name the same way', async () => {
      const t = ref.t;
      const answers = [];
      for (let i = 0; i < 4; i += 1) {
        answers.push((await preLogin(t, { username: 'ghost', password: 'Nope@1234' })).json().msg);
      }
      expect(answers).toEqual([BAD_CREDENTIALS, BAD_CREDENTIALS, LOCKED, LOCKED]);
    });

    it('counts wrong codes, and a sign-in resets the count', async () => {
      const t = ref.t;
      const token = await stepToken(t);
      await login(t, token, { ...DEMO, mpin: '0000' });
      await login(t, token, { ...DEMO, mpin: '0000' });
      expect((await userRow(t)).failed_logins).toBe(2);
      expect((await login(t, token, { ...DEMO, mpin: '1234' })).statusCode).toBe(200);
      expect(await userRow(t)).toMatchObject({ failed_logins: 0, locked_until: null });

      const next = await stepToken(t);
      for (let i = 0; i < 3; i += 1) await login(t, next, { ...DEMO, mpin: '0000' });
      const locked = await login(t, next, { ...DEMO, mpin: '1234' });
      expect(locked.statusCode).toBe(422);
      expect(locked.json().msg).toBe(LOCKED);
    });
  });
});

describe('e-mailed codes with the mail server down', () => {
  // Nothing listens on port 1: the SMTP connection is refused at once.
  const ref = withApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });

  beforeEach(async () => {
    await ref.t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
  });

  it('preLogin answers 503 with a clear message, and the account is not penalised', async () => {
    const t = ref.t;
    const res = await preLogin(t, DEMO);
    expectRefusal(
      res,
      503,
      'We could not send the code by e-mail. Please try again in a few minutes.',
    );
    expect(readOutbox(t.dataDir)).toHaveLength(0);
    const demo = await userRow(t);
    expect(demo.failed_logins).toBe(0);
  });

  it('keeps the code the user already holds working', async () => {
    const t = ref.t;
    const demo = await userRow(t);
    let earlier = '';
    await issueOtp(t.db, t.config.secretKey, demo.id, 'login', async (code) => {
      earlier = code;
    });
    expect((await preLogin(t, DEMO)).statusCode).toBe(503);
    const step = issueStepToken(t.config.secretKey, demo.id, 'login', t.clock);
    expect((await login(t, step, { ...DEMO, otp: earlier })).statusCode).toBe(200);
  });

  it('resendOtp answers the same 503', async () => {
    const t = ref.t;
    const res = await t.call('resendOtp', { headers: await t.authHeader() });
    expect(res.statusCode).toBe(503);
    expect(res.json().msg).toBe(
      'We could not send the code by e-mail. Please try again in a few minutes.',
    );
  });
});
