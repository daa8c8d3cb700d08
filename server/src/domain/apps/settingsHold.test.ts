import { addUser } from '../../../test/accounts';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { readOutbox } from '../mailer';

// Settings that steer money are held when changed: a new payout address or IP whitelist (not
// the first one) records when the hold ends (SETTINGS_HOLD_HOURS, 24 h by default), which the
// signer reads before any sweep or withdrawal, and the merchant gets an e-mail.

// A test app on PostgreSQL takes a while on a busy machine.
jest.setTimeout(120_000);

let t: TestApp;
let headers: { authorization: string };
let appId: string;
beforeAll(async () => {
  t = await createTestApp();
  await addUser(t, 'holder');
  headers = await t.authHeader('holder');
  const res = await t.call('createApp', {
    headers,
    body: { app_name: 'Held', project_url: 'https://held.example' },
  });
  appId = res.json().app.id;
});
afterAll(() => t?.close());

const inHours = (hours: number) => new Date(t.clock().getTime() + hours * 3_600_000).toISOString();
const mails = () => readOutbox(t.dataDir).filter((m) => /was changed/.test(m.subject));

it('holds a changed payout address for 24 h and mails the merchant; the first is not held', async () => {
  const first = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  await t.call('usePaymentMethod', {
    headers,
    body: { payment_method_id: 'pm_usdt_bsc', collect_address: first, user_app_id: appId },
  });
  const row = () =>
    t.db
      .selectFrom('app_payment_methods')
      .select(['id', 'collect_address', 'payout_hold_until'])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
  expect((await row()).payout_hold_until).toBeNull();
  const { id } = await row();
  const res = await t.call('updatePaymentMethod', {
    headers,
    body: {
      id,
      user_app_id: appId,
      type: 'address',
      collect_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    },
  });
  expect(res.statusCode).toBe(200);
  expect((await row()).payout_hold_until).toBe(inHours(24));
  // The portal shows when it ends.
  const details = await t.call('getAppDetails', { headers, params: { id: appId } });
  expect(details.json().data.user_payment_methods[0]).toMatchObject({
    payout_hold_until: inHours(24),
  });
  expect(mails()).toEqual([
    expect.objectContaining({ subject: 'The payout address of Held was changed' }),
  ]);
});

it('holds a changed IP whitelist, not the first one set', async () => {
  const save = (whitelist_ip: string) =>
    t.call('updateApp', {
      headers,
      body: {
        app_id: appId,
        app_name: 'Held',
        project_url: 'https://held.example',
        whitelist_ip,
        status: 1,
      },
    });
  const hold = async () =>
    (
      await t.db
        .selectFrom('apps')
        .select('whitelist_hold_until')
        .where('id', '=', appId)
        .executeTakeFirstOrThrow()
    ).whitelist_hold_until;
  expect((await save('203.0.113.7')).statusCode).toBe(200);
  expect(await hold()).toBeNull();
  const changed = await save('203.0.113.7,198.51.100.1');
  expect(changed.statusCode).toBe(200);
  expect(await hold()).toBe(inHours(24));
  // The Merchant Setting screen reads it from the answer, the app list and the details.
  expect(changed.json().data).toMatchObject({ whitelist_hold_until: inHours(24) });
  const listed = (await t.call('getApps', { headers })).json().data;
  expect(listed.find((a: { id: string }) => a.id === appId)).toMatchObject({
    whitelist_hold_until: inHours(24),
  });
  const details = await t.call('getAppDetails', { headers, params: { id: appId } });
  expect(details.json().data.app_data).toMatchObject({ whitelist_hold_until: inHours(24) });
  expect(mails().map((m) => m.subject)).toContain('The IP whitelist of Held was changed');
});

it("shows the holds while they are ahead of the server's clock, and drops them once over", async () => {
  // Both holds from the tests above end 24 h after their change.
  // A session of a day ago has ended: sign in again at the clock's time.
  t.clock.advance(24 * 3_600_000 - 20_000);
  const fresh = await t.authHeader('holder');
  const details = async () =>
    (await t.call('getAppDetails', { headers: fresh, params: { id: appId } })).json().data;
  const listed = async () =>
    (await t.call('getApps', { headers: fresh }))
      .json()
      .data.find((app: { id: string }) => app.id === appId);
  let data = await details();
  expect(data.app_data.whitelist_hold_until).toEqual(expect.any(String));
  expect(data.user_payment_methods[0].payout_hold_until).toEqual(expect.any(String));
  expect(await listed()).toHaveProperty('whitelist_hold_until');
  // The same session 30 s on, with no row changed (its last sign of life is written once a
  // minute): the answers kept from the reads above ended with the holds (http/keptAnswers.ts).
  t.clock.advance(30_000);
  data = await details();
  expect(data.app_data).not.toHaveProperty('whitelist_hold_until');
  expect(data.user_payment_methods[0]).not.toHaveProperty('payout_hold_until');
  expect(await listed()).not.toHaveProperty('whitelist_hold_until');
});
