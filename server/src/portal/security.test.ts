import { buildApp } from '../app';
import { readOutbox } from '../domain/mailer';
import { verifySecret } from '../domain/account/passwords';
import { resetAuthenticator } from '../domain/account/security';
import { totpCode } from '../domain/account/totp';
import { DEMO_ACCOUNT } from '../seed';
import { call } from '../../test/operations';
import { createTestApp, type TestApp } from '../../test/testApp';
import { MESSAGES } from './security';
import { coded, expectFieldErrors } from '../../test/expectations';

// The Security operations through HTTP (app.inject) on a fresh seeded database: the demo
// account starts with the pin active and no authenticator.

let t: TestApp;
let auth: { authorization: string };

/** A changeMpin body the demo account may send: its password, and the new pin 5555 twice. */
const NEW_PIN = {
  password: DEMO_ACCOUNT.password,
  spassword: '5555',
  spassword_confirmation: '5555',
};

beforeEach(async () => {
  t = await createTestApp({ env: { LOGIN_ACCOUNT_MAX_FAILURES: '3' } });
  auth = await t.authHeader();
});
afterEach(() => t.close());

const read = (operationId: string, headers = auth) => t.call(operationId, { headers });
const submit = (operationId: string, body: object, headers = auth) =>
  t.call(operationId, { headers, body });

function secretOf(otpauthUrl: string): string {
  const secret = new URL(otpauthUrl).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${otpauthUrl}`);
  return secret;
}

async function demoRow() {
  return t.db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', DEMO_ACCOUNT.username)
    .executeTakeFirstOrThrow();
}

/** Starts and confirms the authenticator setup; answers the secret. */
async function setUpAuthenticator(): Promise<string> {
  const secret = secretOf((await read('getAuthentication')).json().image_2fa);
  const res = await submit('change2fa', { code: await totpCode(secret, t.clock()) });
  expect(res.statusCode).toBe(200);
  return secret;
}

describe('getAuthentication and the authenticator setup (change2fa)', () => {
  it('starts a setup with an otpauth URL that stays the same until confirmed', async () => {
    const first = await read('getAuthentication');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ status: true, more_details: { authenticator: 0 } });
    expect(body.auth_type).toBe('mpin');
    expect(body.image_2fa).toMatch(/^otpauth:\/\/totp\/CryptoSafeLock:demo\?/);
    expect((await read('getAuthentication')).json().image_2fa).toBe(body.image_2fa);
  });

  it('stores the secret sealed: the row never contains it', async () => {
    const secret = secretOf((await read('getAuthentication')).json().image_2fa);
    const row = await demoRow();
    expect(row.totp_secret_enc).toMatch(/^v1\./);
    expect(row.totp_secret_enc).not.toContain(secret);
  });

  it('refuses a wrong code on the code field and keeps the setup pending', async () => {
    await read('getAuthentication');
    const res = await submit('change2fa', { code: '000000' });
    expectFieldErrors(res, { code: [MESSAGES.wrongTwoFactor] });
    expect((await read('getAuthentication')).json().more_details.authenticator).toBe(0);
  });

  it('answers the spec message for a missing code', async () => {
    const res = await submit('change2fa', {});
    expectFieldErrors(res, { code: ['Two Factor code is required'] });
  });

  it('marks it set up with a correct code and stops sending the URL', async () => {
    const secret = secretOf((await read('getAuthentication')).json().image_2fa);
    const res = await submit('change2fa', { code: await totpCode(secret, t.clock()) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, msg: MESSAGES.setUp });
    expect(res.json().profile).toMatchObject({ image_2fa: null, auth_type: 'mpin' });

    const after = (await read('getAuthentication')).json();
    expect(after).toMatchObject({ more_details: { authenticator: 1 }, image_2fa: null });

    t.clock.advance(60_000);
    const again = await submit('change2fa', { code: await totpCode(secret, t.clock()) });
    expect(again.statusCode).toBe(409);
  });

  it('gives a new secret when the setup restarts after a reset', async () => {
    const first = await setUpAuthenticator();
    await resetAuthenticator(t.db, (await demoRow()).id);
    const body = (await read('getAuthentication')).json();
    expect(body.more_details.authenticator).toBe(0);
    expect(secretOf(body.image_2fa)).not.toBe(first);
  });
});

describe('updateAuthentication: switching the active method', () => {
  it("refuses the authenticator before it is set up with 'Please setup 2fa First'", async () => {
    const res = await submit('updateAuthentication', {
      type: 'authenticator',
      spassword: DEMO_ACCOUNT.pin,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ msg: 'Please setup 2fa First', errors: {} });
    expect((await demoRow()).auth_type).toBe('mpin');
  });

  it('needs the code of the method being left', async () => {
    await setUpAuthenticator();
    const missing = await submit('updateAuthentication', { type: 'authenticator' });
    expectFieldErrors(missing, { spassword: [MESSAGES.codeRequired] });

    const wrong = await submit('updateAuthentication', {
      type: 'authenticator',
      spassword: '9999',
    });
    expectFieldErrors(wrong, { spassword: [MESSAGES.wrongCode] });
    expect((await demoRow()).auth_type).toBe('mpin');

    const ok = await submit('updateAuthentication', {
      type: 'authenticator',
      spassword: DEMO_ACCOUNT.pin,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ auth_type: 'authenticator', msg: MESSAGES.switched });
    expect(ok.json().profile).toMatchObject({ auth_type: 'authenticator', image_2fa: null });
    expect((await demoRow()).auth_type).toBe('authenticator');
  });

  it('refuses the method that is already active', async () => {
    const res = await submit('updateAuthentication', { type: 'mpin', spassword: DEMO_ACCOUNT.pin });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe(MESSAGES.alreadyActive);
  });

  it('leaves the authenticator with a TOTP code, and refuses a replayed one', async () => {
    const secret = await setUpAuthenticator();
    t.clock.advance(60_000);
    await submit('updateAuthentication', { type: 'authenticator', spassword: DEMO_ACCOUNT.pin });

    const wrongField = await submit('updateAuthentication', { type: 'mpin', spassword: '1234' });
    expectFieldErrors(wrongField, { code: [MESSAGES.codeRequired] });

    const code = await totpCode(secret, t.clock());
    expect((await submit('updateAuthentication', { type: 'mpin', code })).statusCode).toBe(200);
    await submit('updateAuthentication', { type: 'authenticator', spassword: DEMO_ACCOUNT.pin });

    // Same code, same 30 s step: already used.
    const replay = await submit('updateAuthentication', { type: 'mpin', code });
    expectFieldErrors(replay, { code: [MESSAGES.wrongCode] });
    expect((await demoRow()).auth_type).toBe('authenticator');

    t.clock.advance(30_000);
    const next = await totpCode(secret, t.clock());
    expect((await submit('updateAuthentication', { type: 'mpin', code: next })).statusCode).toBe(
      200,
    );
  });

  it('leaves otp with the e-mailed code (resendOtp), once', async () => {
    await t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
    const sent = await t.call('resendOtp', { headers: auth });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual(coded({ status: true, msg: MESSAGES.otpSent }));
    const mail = readOutbox(t.dataDir).at(-1);
    expect(mail?.to).toBe(DEMO_ACCOUNT.email);
    const code = /\b(\d{4})\b/.exec(mail?.text ?? '')?.[1] ?? '';

    const wrong = await submit('updateAuthentication', {
      type: 'mpin',
      otp: code === '0000' ? '0001' : '0000',
    });
    expectFieldErrors(wrong, { otp: [MESSAGES.wrongCode] });

    const ok = await submit('updateAuthentication', { type: 'mpin', otp: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().auth_type).toBe('mpin');

    await t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
    const reused = await submit('updateAuthentication', { type: 'mpin', otp: code });
    expect(reused.statusCode).toBe(422);
  });

  it('sends an OTP only when it is the active method', async () => {
    const res = await t.call('resendOtp', { headers: auth });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe(MESSAGES.otpNotActive);
    expect(readOutbox(t.dataDir)).toHaveLength(0);
  });
});

describe('rate limits on code checks', () => {
  it('answers 429 with Retry-After once the failures are used up, even for the right code', async () => {
    await setUpAuthenticator();
    for (let i = 0; i < 3; i += 1) {
      const res = await submit('updateAuthentication', {
        type: 'authenticator',
        spassword: '0000',
      });
      expect(res.statusCode).toBe(422);
    }
    const limited = await submit('updateAuthentication', {
      type: 'authenticator',
      spassword: DEMO_ACCOUNT.pin,
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().status).toBe(false);

    // The budget is the account's, across the operations of the slice.
    const pin = await submit('changeMpin', NEW_PIN);
    expect(pin.statusCode).toBe(429);

    t.clock.advance(16 * 60_000);
    const ok = await submit('updateAuthentication', {
      type: 'authenticator',
      spassword: DEMO_ACCOUNT.pin,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('counts parallel guesses too', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        submit('changeMpin', { ...NEW_PIN, password: `Wrong@${i}` }),
      ),
    );
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes.filter((code) => code === 422)).toHaveLength(3);
    expect(codes.filter((code) => code === 429)).toHaveLength(5);
  });

  it('limits the e-mailed codes per account', async () => {
    await t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
    for (let i = 0; i < 3; i += 1) {
      expect((await t.call('resendOtp', { headers: auth })).statusCode).toBe(200);
    }
    const limited = await t.call('resendOtp', { headers: auth });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(readOutbox(t.dataDir)).toHaveLength(3);
  });

  it('keeps both budgets across a restart (a new app on the same database)', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await submit('changeMpin', { ...NEW_PIN, password: 'Wrong@1234' });
      expect(res.statusCode).toBe(422);
    }
    await t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
    for (let i = 0; i < 3; i += 1) {
      expect((await t.call('resendOtp', { headers: auth })).statusCode).toBe(200);
    }

    const restarted = await buildApp({ config: t.config, db: t.db, clock: t.clock });
    try {
      const pin = await call(restarted, 'changeMpin', {
        headers: auth,
        body: NEW_PIN,
      });
      expect(pin.statusCode).toBe(429);
      const code = await call(restarted, 'resendOtp', { headers: auth });
      expect(code.statusCode).toBe(429);
    } finally {
      await restarted.close();
    }
  });
});

describe('changeMpin', () => {
  it('answers the spec messages for missing fields', async () => {
    const res = await submit('changeMpin', {});
    expectFieldErrors(res, {
      password: ['Current Password is required'],
      spassword: ['New 4 Digit Pin is required'],
      spassword_confirmation: ['Confirm Pin is required'],
    });
  });

  it('refuses a confirmation that differs', async () => {
    const res = await submit('changeMpin', { ...NEW_PIN, spassword_confirmation: '5556' });
    expectFieldErrors(res, {
      spassword_confirmation: ['The confirm Pin does not match the new Pin'],
    });
  });

  it('refuses a wrong password and keeps the old pin', async () => {
    const res = await submit('changeMpin', { ...NEW_PIN, password: 'Wrong@12345' });
    expectFieldErrors(res, { password: [MESSAGES.wrongPassword] });
    expect(await verifySecret((await demoRow()).pin_hash, DEMO_ACCOUNT.pin)).toBe(true);
  });

  it('stores the new pin hashed', async () => {
    const res = await submit('changeMpin', NEW_PIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(coded({ status: true, msg: MESSAGES.pinChanged }));
    const { pin_hash: pinHash } = await demoRow();
    expect(pinHash).toMatch(/^\$argon2id\$/);
    expect(await verifySecret(pinHash, '5555')).toBe(true);
  });
});

describe('changePassword', () => {
  const valid = {
    currentpassword: DEMO_ACCOUNT.password,
    newpassword: 'Fresh#Pass9',
    newpassword_confirmation: 'Fresh#Pass9',
    mpin: DEMO_ACCOUNT.pin,
  };

  it('answers the spec messages for missing fields', async () => {
    const res = await submit('changePassword', {});
    expectFieldErrors(res, {
      currentpassword: ['Current Password is required'],
      newpassword: ['New password is required'],
      newpassword_confirmation: ['Confirm Password is required'],
      mpin: ['4 Digit Pin is required'],
    });
  });

  it('enforces the password checklist and the confirmation', async () => {
    const weak = await submit('changePassword', {
      ...valid,
      newpassword: 'alllowercase1!',
      newpassword_confirmation: 'alllowercase1!',
    });
    expect(weak.statusCode).toBe(422);
    expect(Object.keys(weak.json().errors)).toEqual(['newpassword']);

    const mismatch = await submit('changePassword', {
      ...valid,
      newpassword_confirmation: 'Fresh#Pass8',
    });
    expectFieldErrors(mismatch, {
      newpassword_confirmation: ['The confirm password does not match the new password'],
    });
  });

  it('refuses a wrong current password or pin on its field', async () => {
    const res = await submit('changePassword', {
      ...valid,
      currentpassword: 'Wrong@12345',
      mpin: '9999',
    });
    expectFieldErrors(res, {
      currentpassword: [MESSAGES.wrongPassword],
      mpin: [MESSAGES.wrongPin],
    });
    expect(await verifySecret((await demoRow()).password_hash, DEMO_ACCOUNT.password)).toBe(true);
  });

  it('changes the password and revokes every other session of the user', async () => {
    const other = await t.authHeader();
    expect((await read('getAuthentication', other)).statusCode).toBe(200);

    const res = await submit('changePassword', valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(coded({ status: true, msg: MESSAGES.passwordChanged }));

    expect((await read('getAuthentication', other)).statusCode).toBe(401);
    expect((await read('getAuthentication')).statusCode).toBe(200);
    const { password_hash: hash } = await demoRow();
    expect(await verifySecret(hash, valid.newpassword)).toBe(true);
    expect(await verifySecret(hash, DEMO_ACCOUNT.password)).toBe(false);
  });
});
