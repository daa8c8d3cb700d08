import { createServer, type AddressInfo, type Socket } from 'node:net';
import { runAdmin } from '../admin';
import { readOutbox } from '../domain/mailer';
import { RECOVERY_LIMITS, RECOVERY_MESSAGES, recoveriesSettled } from '../domain/account/recovery';
import { createSession } from '../domain/account/sessions';
import { DEMO_ACCOUNT } from '../seed';
import { coded, expectFieldErrors } from '../../test/expectations';
import { createTestApp, type TestApp } from '../../test/testApp';
import { withTestApp } from '../../test/withTestApp';
import { SECURITY_MESSAGES } from '../../../src/shared/security';

// Password recovery (requestPasswordReset, resetPassword, `user reset-password`) against the
// real openapi.yaml, one fresh app per test: the limits count per app.

// A fresh app per test (and a second one for the slow mail server), argon2 hashing: on
// PostgreSQL and a busy machine, more than the default.
jest.setTimeout(60_000);

const NEW_PASSWORD = 'N3w-Secret!';
const CODE_MAIL = 'Your CryptoSafeLock password reset code';
const NOTICE_MAIL = 'Your CryptoSafeLock password was reset';
const MINUTE = 60_000;
const POLICY =
  'Password must have at least 8 characters, one lowercase letter, one uppercase letter, one number and one special character.';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await recoveriesSettled();
  await t.close();
});

async function requestReset(username: string, ip?: string) {
  const res = await t.call('requestPasswordReset', {
    body: { username },
    ...(ip ? { remoteAddress: ip } : {}),
  });
  await recoveriesSettled();
  return res;
}

function mails(subject: string) {
  return readOutbox(t.dataDir).filter((mail) => mail.subject === subject);
}

/** The code of the newest reset mail. */
function lastCode(): string {
  const text = mails(CODE_MAIL).at(-1)?.text ?? '';
  const code = /reset code is (\d{8})\b/.exec(text)?.[1];
  if (!code) throw new Error(`No reset code in: ${text}`);
  return code;
}

function reset(body: Partial<Record<string, string>> = {}) {
  return t.call('resetPassword', {
    body: {
      username: DEMO_ACCOUNT.username,
      mpin: DEMO_ACCOUNT.pin,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      ...body,
      code: body.code ?? lastCode(),
    },
  });
}

function preLogin(password: string) {
  return t.call('preLogin', { body: { username: DEMO_ACCOUNT.username, password } });
}

function demoId() {
  return t.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', DEMO_ACCOUNT.username)
    .executeTakeFirstOrThrow()
    .then((row) => row.id);
}

describe('requestPasswordReset', () => {
  it('answers a known username, a known e-mail and an unknown name alike; only accounts get mail', async () => {
    const answers = [];
    for (const name of ['demo', 'DEMO@example.com', 'nobody', 'nobody@example.com']) {
      const res = await requestReset(name);
      answers.push({ status: res.statusCode, body: res.body });
    }
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 200,
        body: JSON.stringify(coded({ status: true, msg: RECOVERY_MESSAGES.requested })),
      });
    }
    const sent = mails(CODE_MAIL);
    expect(sent.map((mail) => mail.to)).toEqual([DEMO_ACCOUNT.email, DEMO_ACCOUNT.email]);
    expect(sent[1]?.text).toMatch(/valid for 15 minutes and works once/);
  });

  it('answers without waiting for the mail, so a slow mail server does not tell', async () => {
    // An SMTP server that accepts the connection and never speaks: the mail hangs.
    const sockets: Socket[] = [];
    const smtp = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.address() as AddressInfo;
    await withTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } }, async (slow) => {
      for (const username of ['demo', 'nobody']) {
        const res = await slow.call('requestPasswordReset', { body: { username } });
        expect(res.json()).toEqual(coded({ status: true, msg: RECOVERY_MESSAGES.requested }));
      }
      // The known account's mail is still on its way after both answers.
      while (sockets.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sockets).toHaveLength(1);
      for (const socket of sockets) socket.destroy();
      await recoveriesSettled();
    });
    await new Promise((resolve) => smtp.close(resolve));
  });

  it('stores the code only as a keyed hash', async () => {
    await requestReset('demo');
    const code = lastCode();
    const rows = await t.db
      .selectFrom('otp_codes')
      .selectAll()
      .where('user_id', '=', await demoId())
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.purpose).toBe('password-reset');
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(15 * MINUTE);
  });

  it('limits requests per name (any case, known or not) with 429 and Retry-After', async () => {
    const max = t.config.recoveryNameMax;
    expect(max).toBe(3);
    for (const name of ['demo', 'ghost']) {
      for (let i = 0; i < max; i += 1) {
        expect((await requestReset(i % 2 ? name.toUpperCase() : name)).statusCode).toBe(200);
      }
      const refused = await requestReset(name);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(15 * 60));
      expect(refused.json()).toEqual(
        coded({
          status: false,
          msg: 'Too many reset requests. Please try again in 15 minutes.',
          errors: {},
        }),
      );
    }
    t.clock.advance(15 * MINUTE + 1);
    expect((await requestReset('ghost')).statusCode).toBe(200);
  });

  it('limits requests per client IP (RECOVERY_IP_MAX, 20 by default)', async () => {
    expect(t.config.recoveryIpMax).toBe(20);
    for (let i = 0; i < 20; i += 1) {
      expect((await requestReset(`name${i}`, '203.0.113.7')).statusCode).toBe(200);
    }
    expect((await requestReset('another', '203.0.113.7')).statusCode).toBe(429);
    expect((await requestReset('another', '203.0.113.8')).statusCode).toBe(200);
  });

  it('mails an account at most 3 codes per 15 minutes, answering the same beyond', async () => {
    for (const name of ['demo', 'demo', 'demo@example.com', 'demo@example.com']) {
      const res = await requestReset(name);
      expect(res.json()).toEqual(coded({ status: true, msg: RECOVERY_MESSAGES.requested }));
    }
    expect(mails(CODE_MAIL)).toHaveLength(RECOVERY_LIMITS.mailsPerAccount.max);
  });
});

describe('resetPassword', () => {
  it('sets the new password, ends every session and announces it by e-mail', async () => {
    const id = await demoId();
    const sessions = [await createSession(t.db, id), await createSession(t.db, id)];
    for (const s of sessions) {
      const res = await t.call('getProfile', { headers: { authorization: `Bearer ${s.token}` } });
      expect(res.statusCode).toBe(200);
    }
    await requestReset('demo@example.com');

    const res = await reset({ code: lastCode().replace(/^(\d{4})/, '$1-') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(coded({ status: true, msg: RECOVERY_MESSAGES.reset }));

    for (const s of sessions) {
      const after = await t.call('getProfile', { headers: { authorization: `Bearer ${s.token}` } });
      expect(after.statusCode).toBe(401);
    }
    expect((await preLogin(DEMO_ACCOUNT.password)).statusCode).toBe(422);
    expect((await preLogin(NEW_PASSWORD)).statusCode).toBe(200);
    const notice = mails(NOTICE_MAIL);
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatchObject({ to: DEMO_ACCOUNT.email });
    expect(notice[0]?.text).toMatch(/account demo was reset/);
  });

  it('spends the code: the same code does not work twice', async () => {
    await requestReset('demo');
    const code = lastCode();
    expect((await reset({ code })).statusCode).toBe(200);
    expectFieldErrors(
      await reset({ code, password: 'An0ther-Pass!', password_confirmation: 'An0ther-Pass!' }),
      {
        code: [RECOVERY_MESSAGES.wrongCode],
      },
    );
    expect((await preLogin(NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a code after its 15 minutes, and an older code once a newer one is sent', async () => {
    await requestReset('demo');
    const first = lastCode();
    t.clock.advance(14 * MINUTE);
    await requestReset('demo');
    const second = lastCode();
    expectFieldErrors(await reset({ code: first }), { code: [RECOVERY_MESSAGES.wrongCode] });
    t.clock.advance(15 * MINUTE + 1);
    expectFieldErrors(await reset({ code: second }), { code: [RECOVERY_MESSAGES.wrongCode] });
    expect((await preLogin(DEMO_ACCOUNT.password)).statusCode).toBe(200);
  });

  it('refuses a wrong pin, keeping the code usable with the right one', async () => {
    await requestReset('demo');
    expectFieldErrors(await reset({ mpin: '9999' }), { mpin: [RECOVERY_MESSAGES.wrongPin] });
    expect((await preLogin(DEMO_ACCOUNT.password)).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(200);
  });

  it('answers a wrong code the same for a known and an unknown name', async () => {
    await requestReset('demo');
    for (const username of ['demo', 'nobody']) {
      expectFieldErrors(await reset({ username, code: '00000000', mpin: '0000' }), {
        code: [RECOVERY_MESSAGES.wrongCode],
      });
    }
  });

  it('holds the new password to the sign-up rules and its confirmation', async () => {
    await requestReset('demo');
    expectFieldErrors(
      await reset({ password: 'lowercase1!', password_confirmation: 'lowercase1!' }),
      {
        password: [POLICY],
      },
    );
    expectFieldErrors(await reset({ password_confirmation: 'N3w-Secret?' }), {
      password_confirmation: [SECURITY_MESSAGES.passwordMismatch],
    });
    expect(
      (await reset({ password: 'Short1!', password_confirmation: 'Short1!' })).statusCode,
    ).toBe(422);
    expect((await reset()).statusCode).toBe(200);
  });

  it('limits failed resets per account with 429, even with the right code after', async () => {
    await requestReset('demo');
    expect(t.config.recoveryFailedResetMax).toBe(5);
    for (let i = 0; i < t.config.recoveryFailedResetMax; i += 1) {
      expect((await reset({ mpin: '9999' })).statusCode).toBe(422);
    }
    const refused = await reset();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().msg).toBe('Too many failed attempts. Please try again in 15 minutes.');
  });

  it('lifts a sign-in lock', async () => {
    const id = await demoId();
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(t.clock().getTime() + 10 * MINUTE).toISOString() })
      .where('id', '=', id)
      .execute();
    await requestReset('demo');
    expect((await reset()).statusCode).toBe(200);
    expect((await preLogin(NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('npm run admin -- user reset-password', () => {
  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (line) => lines.push(line) },
      { ...t.storeEnv, NODE_ENV: 'test', SECRET_KEY: t.config.secretKey },
    );
    return { code, text: lines.join('\n') };
  };

  it('prints a one-time code that resets the password with the pin', async () => {
    const { code, text } = await admin('user', 'reset-password', 'DEMO');
    expect(code).toBe(0);
    const issued = /Reset code for demo: (\d{8})/.exec(text)?.[1] ?? '';
    expect(issued).toMatch(/^\d{8}$/);
    expect(mails(CODE_MAIL)).toHaveLength(0);
    expectFieldErrors(await reset({ code: issued, mpin: '9999' }), {
      mpin: [RECOVERY_MESSAGES.wrongPin],
    });
    expect((await reset({ code: issued })).statusCode).toBe(200);
    expectFieldErrors(await reset({ code: issued }), { code: [RECOVERY_MESSAGES.wrongCode] });
  });

  it('says so for an unknown user and for wrong arguments', async () => {
    expect(await admin('user', 'reset-password', 'nobody')).toEqual({
      code: 1,
      text: "No user named 'nobody'.",
    });
    expect((await admin('user', 'reset-password')).code).toBe(2);
  });
});
