import { addUser } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/testApp';
import { recordAccountEvent } from '../domain/account/events';
import { readOutbox } from '../domain/mailer';
import { totpCode } from '../domain/account/totp';
import { DEMO_ACCOUNT } from '../seed';

// The bell's events (listNotifications, markNotificationsRead) as the account's own actions
// record them, the alerts they e-mail, and the dashboard's last login, through HTTP.

const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

const DEMO = { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password };

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp({
    env: { LOGIN_LOCK_THRESHOLD: '5', LOGIN_ACCOUNT_MAX_FAILURES: '20' },
  });
});
afterEach(() => t.close());

interface Client {
  ua: string;
  ip: string;
}

/** Both sign-in steps of the demo account from `client`; answers the bearer header. */
async function signIn(client: Client): Promise<{ authorization: string }> {
  const headers = { 'user-agent': client.ua };
  const step = await t.call('preLogin', { body: DEMO, headers, remoteAddress: client.ip });
  expect(step.statusCode).toBe(200);
  const res = await t.call('login', {
    headers: { ...headers, authorization: `Bearer ${step.json().token as string}` },
    body: { ...DEMO, mpin: DEMO_ACCOUNT.pin },
    remoteAddress: client.ip,
  });
  expect(res.statusCode).toBe(200);
  return { authorization: `Bearer ${res.json().token as string}` };
}

async function wrongPassword(client: Client) {
  const res = await t.call('preLogin', {
    body: { ...DEMO, password: 'Wrong@12345' },
    headers: { 'user-agent': client.ua },
    remoteAddress: client.ip,
  });
  expect(res.statusCode).toBe(422);
}

async function bell(auth: { authorization: string }, page?: number) {
  const res = await t.call('listNotifications', { headers: auth, query: { page } });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    unread: number;
    data: {
      total: number;
      per_page: number;
      data: { id: string; kind: string; title: string; text: string; read: boolean }[];
    };
  };
}

const OFFICE: Client = { ua: WINDOWS_CHROME, ip: '203.0.113.9' };
const LAPTOP: Client = { ua: MAC_SAFARI, ip: '203.0.113.9' };
const PHONE: Client = { ua: ANDROID_CHROME, ip: '198.51.100.7' };

const alerts = () => readOutbox(t.dataDir).filter((mail) => mail.to === DEMO_ACCOUNT.email);

describe('the bell lists the account’s real events', () => {
  it('a brand-new account has none: no sample entries', async () => {
    await addUser(t, 'newcomer');
    const list = await bell(await t.authHeader('newcomer'));
    expect(list.unread).toBe(0);
    expect(list.data.data).toEqual([]);
    expect(list.data.total).toBe(0);
  });

  it('a sign-in is an unread Account Login with its system, browser and address', async () => {
    const auth = await signIn(OFFICE);
    const list = await bell(auth);
    expect(list.unread).toBe(1);
    expect(list.data.data).toEqual([
      expect.objectContaining({
        kind: 'sign_in',
        title: 'Account Login',
        text: 'A login to your account from Windows 10 using Chrome, address 203.0.113.9.',
        read: false,
        ip: '203.0.113.9',
        device: 'Chrome on Windows 10',
      }),
    ]);
  });

  it('newest first; another account sees none of them', async () => {
    await signIn(OFFICE);
    t.clock.advance(60_000);
    const auth = await signIn(PHONE);
    const texts = (await bell(auth)).data.data.map((e) => e.text);
    expect(texts).toEqual([
      'A login to your account from Android 14 using Chrome, address 198.51.100.7.',
      'A login to your account from Windows 10 using Chrome, address 203.0.113.9.',
    ]);
    await addUser(t, 'neighbour');
    expect((await bell(await t.authHeader('neighbour'))).data.total).toBe(0);
  });

  it('a burst of failed sign-ins is one entry, the lock another', async () => {
    const auth = await signIn(OFFICE);
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(1_000);
      await wrongPassword(PHONE);
    }
    const kinds = (await bell(auth)).data.data.map((e) => [e.kind, e.title, e.text]);
    expect(kinds).toEqual([
      [
        'locked',
        'Account Locked',
        'Your account was locked for 30 minutes after too many failed sign-in attempts, the last from 198.51.100.7 (Chrome on Android 14).',
      ],
      [
        'sign_in_failures',
        'Failed Sign-in Attempts',
        '3 failed sign-in attempts on your account, the last from 198.51.100.7 (Chrome on Android 14).',
      ],
      ['sign_in', 'Account Login', expect.any(String)],
    ]);
  });

  it('password, pin and security method changes, and the authenticator setup', async () => {
    const auth = await signIn(OFFICE);
    const headers = { ...auth, 'user-agent': WINDOWS_CHROME };
    t.clock.advance(1_000);
    const pin = await t.call('changeMpin', {
      headers,
      body: { password: DEMO.password, spassword: '5555', spassword_confirmation: '5555' },
    });
    expect(pin.statusCode).toBe(200);
    t.clock.advance(1_000);
    const setup = (await t.call('getAuthentication', { headers })).json().image_2fa as string;
    const secret = new URL(setup).searchParams.get('secret') ?? '';
    const confirmed = await t.call('change2fa', {
      headers,
      body: { code: await totpCode(secret, t.clock()) },
    });
    expect(confirmed.statusCode).toBe(200);
    t.clock.advance(1_000);
    const switched = await t.call('updateAuthentication', {
      headers,
      body: { type: 'authenticator', spassword: '5555' },
    });
    expect(switched.statusCode).toBe(200);
    t.clock.advance(1_000);
    const password = await t.call('changePassword', {
      headers,
      body: {
        currentpassword: DEMO.password,
        newpassword: 'N3w!passw0rd',
        newpassword_confirmation: 'N3w!passw0rd',
        mpin: '5555',
      },
    });
    expect(password.statusCode).toBe(200);
    const events = (await bell(auth)).data.data;
    expect(events.map((e) => [e.kind, e.title])).toEqual([
      ['password_changed', 'Password Changed'],
      ['auth_type_changed', 'Security Method Changed'],
      ['authenticator_set_up', 'Authenticator Set Up'],
      ['pin_changed', 'Pin Changed'],
      ['sign_in', 'Account Login'],
    ]);
    expect(events[1]?.text).toBe(
      'Your security method is now Authenticator App from 127.0.0.1 (Chrome on Windows 10).',
    );
    // The password change is e-mailed too.
    const mail = alerts().find((m) => m.subject === 'Your CryptoSafeLock password was changed');
    expect(mail?.text).toContain('from Chrome on Windows 10, address 127.0.0.1');
  });

  it('a new app, a new API key and a revoked one', async () => {
    // A new account: the demo one has used its app allowance already.
    await addUser(t, 'builder');
    const auth = await t.authHeader('builder');
    const created = await t.call('createApp', {
      headers: auth,
      body: { app_name: 'Shop Checkout', project_url: 'https://shop.example' },
    });
    expect(created.statusCode).toBe(200);
    const appId = created.json().app.id as string;
    t.clock.advance(1_000);
    const key = await t.call('generateApiKey', {
      headers: auth,
      body: { token_name: 'Till', app_id: appId, abilities: ['deposits:read'] },
    });
    expect(key.statusCode).toBe(200);
    const keys = await t.call('listTokens', { headers: auth, params: { appid: appId } });
    const keyId = keys.json().data[0].id as string;
    t.clock.advance(1_000);
    const revoked = await t.call('revokeToken', {
      headers: auth,
      params: { tokenId: keyId, appid: appId },
    });
    expect(revoked.statusCode).toBe(200);
    const texts = (await bell(auth)).data.data.slice(0, 3).map((e) => [e.title, e.text]);
    expect(texts).toEqual([
      ['API Key Revoked', "The API key 'Till' of Shop Checkout was revoked from 127.0.0.1."],
      ['New API Key', "The API key 'Till' was created for Shop Checkout from 127.0.0.1."],
      ['New App', 'The app Shop Checkout was created from 127.0.0.1.'],
    ]);
  });
});

describe('Read All', () => {
  it('marks the events read, up to the newest one shown', async () => {
    await signIn(OFFICE);
    t.clock.advance(60_000);
    const auth = await signIn(LAPTOP);
    const shown = await bell(auth);
    expect(shown.unread).toBe(2);
    // A sign-in that arrives after the panel was drawn stays unread.
    t.clock.advance(60_000);
    await signIn(PHONE);
    const newest = shown.data.data[0]?.id ?? '';
    const res = await t.call('markNotificationsRead', { headers: auth, query: { until: newest } });
    expect(res.json()).toEqual({ status: true, marked: 2 });
    const after = await bell(auth);
    expect(after.unread).toBe(1);
    expect(after.data.data.map((e) => e.read)).toEqual([false, true, true]);
    // Without `until`, everything.
    expect((await t.call('markNotificationsRead', { headers: auth })).json().marked).toBe(1);
    expect((await bell(auth)).unread).toBe(0);
  });

  it('cannot touch another account’s events', async () => {
    const auth = await signIn(OFFICE);
    const id = (await bell(auth)).data.data[0]?.id ?? '';
    await addUser(t, 'neighbour');
    const other = await t.authHeader('neighbour');
    const res = await t.call('markNotificationsRead', { headers: other, query: { until: id } });
    expect(res.json()).toEqual({ status: true, marked: 0 });
    expect((await t.call('markNotificationsRead', { headers: other })).json().marked).toBe(0);
    expect((await bell(auth)).unread).toBe(1);
  });

  it('needs a session', async () => {
    expect((await t.call('listNotifications')).statusCode).toBe(401);
    expect((await t.call('markNotificationsRead')).statusCode).toBe(401);
  });
});

describe('paging', () => {
  it('20 a page; the page number is bounded', async () => {
    const userId = await addUser(t, 'busy');
    const auth = await t.authHeader('busy');
    for (let i = 0; i < 21; i += 1) {
      t.clock.advance(1_000);
      await recordAccountEvent(
        t.db,
        userId,
        'app_created',
        { app_name: `App ${i}` },
        {
          clock: t.clock,
        },
      );
    }
    const first = await bell(auth);
    expect(first.data).toMatchObject({ per_page: 20, total: 21 });
    expect(first.data.data).toHaveLength(20);
    expect(first.data.data[0]?.text).toBe('The app App 20 was created.');
    const second = await bell(auth, 2);
    expect(second.data.data.map((e) => e.text)).toEqual(['The app App 0 was created.']);
    const huge = await t.call('listNotifications', { headers: auth, query: { page: 1e308 } });
    expect([400, 422]).toContain(huge.statusCode);
    expect(huge.json()).toMatchObject({ status: false });
  });
});

describe('e-mailed sign-in alerts', () => {
  it('a new device or a new address is e-mailed; the first sign-in and a known one are not', async () => {
    await signIn(OFFICE);
    expect(alerts()).toEqual([]);
    await signIn(OFFICE);
    expect(alerts()).toEqual([]);
    await signIn(LAPTOP); // same address, new device
    await signIn(PHONE); // new device and address
    const mails = alerts();
    expect(mails.map((m) => m.subject)).toEqual([
      'New sign-in to your CryptoSafeLock account',
      'New sign-in to your CryptoSafeLock account',
    ]);
    expect(mails[0]?.text).toContain('from Safari on macOS, address 203.0.113.9');
    expect(mails[0]?.text).toContain('This device had not signed in');
    expect(mails[1]?.text).toContain('This device and address had not signed in');
  });
});

describe('the dashboard’s last login', () => {
  it('is the sign-in before the current session’s own, with its address and device', async () => {
    const first = await signIn(OFFICE);
    const firstAt = t.clock().toISOString();
    const own = await t.call('getDashboard', { headers: first });
    expect(own.json().data).toMatchObject({
      last_login_at: null,
      last_login_ip: null,
      last_login_device: null,
    });
    t.clock.advance(10 * 60_000);
    const second = await signIn(PHONE);
    const res = await t.call('getDashboard', { headers: second });
    expect(res.json().data).toMatchObject({
      last_login_at: firstAt,
      last_login_ip: '203.0.113.9',
      last_login_device: 'Chrome on Windows 10',
    });
    // The first session still sees none before its own: the later one is not "previous".
    expect((await t.call('getDashboard', { headers: first })).json().data.last_login_at).toBe(null);
  });
});
