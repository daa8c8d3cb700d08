import { Webhook } from 'standardwebhooks';
import { addUser } from '../../test/accounts';
import { insertApp } from '../../test/appRows';
import { startReceiver, type WebhookReceiver } from '../../test/webhookReceiver';
import { testAppPerBlock } from '../../test/withTestApp';

// The Webhooks operations through HTTP: the secret shown once, the test event and Redeliver
// reaching a receiver on loopback that verifies them, View Details, and IPN Logs listing the
// real deliveries.

describe('Webhooks operations', () => {
  const t = testAppPerBlock({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
  let receiver: WebhookReceiver;
  let headers: { authorization: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    const userId = await addUser(t, 'hooks');
    headers = await t.authHeader('hooks');
    await insertApp(t, {
      id: 'app_hooks',
      user_id: userId,
      created_at: t.clock().toISOString(),
      callback_url: receiver.url(),
    });
    const other = await addUser(t, 'hooks_other');
    await insertApp(t, { id: 'app_other', user_id: other, created_at: t.clock().toISOString() });
  });
  afterAll(async () => {
    await receiver.close();
  });

  const params = { id: 'app_hooks' };

  it('shows the secret once, then only rotates it', async () => {
    const before = await t.call('getWebhookSettings', { headers, params });
    expect(before.json().data).toEqual({
      has_secret: false,
      secret_created_at: null,
      previous_valid_until: null,
      disabled_at: null,
      disabled_reason: null,
    });
    const made = await t.call('rotateWebhookSecret', { headers, params });
    expect(made.statusCode).toBe(200);
    expect(made.json().secret).toMatch(/^whsec_/);
    const after = (await t.call('getWebhookSettings', { headers, params })).json().data;
    expect(after).toMatchObject({ has_secret: true, previous_valid_until: null });
    expect(JSON.stringify(after)).not.toContain('whsec_');
    const again = (await t.call('rotateWebhookSecret', { headers, params })).json();
    expect(again.secret).not.toBe(made.json().secret);
    expect(
      (await t.call('getWebhookSettings', { headers, params })).json().data.previous_valid_until,
    ).toBe(new Date(t.clock().getTime() + 24 * 3_600_000).toISOString());
    const foreign = await t.call('rotateWebhookSecret', { headers, params: { id: 'app_other' } });
    expect(foreign.statusCode).toBe(404);
    // Each new secret is a security event of the account: the bell lists both.
    const bell = (await t.call('listNotifications', { headers })).json();
    const secrets = bell.data.data.filter(
      (event: { title: string }) => event.title === 'New Webhook Secret',
    );
    expect(secrets).toHaveLength(2);
    expect(secrets[0].text).toMatch(/^A new webhook signing secret was issued for /);
  });

  it('sends a test event and redelivers it; both verify; IPN Logs lists them', async () => {
    const secret = (await t.call('rotateWebhookSecret', { headers, params })).json().secret;
    receiver.answer({ status: 500, body: 'not yet' });
    const test = await t.call('sendTestWebhook', { headers, params });
    expect(test.statusCode).toBe(200);
    expect(test.json().msg).toBe('Test event not delivered (HTTP 500); it will be retried');
    const failed = test.json().data;
    expect(failed.delivery).toMatchObject({
      event: 'test.ping',
      status: 'retrying',
      http_code: 500,
      attempts: 1,
    });
    expect(failed.attempts_made[0]).toMatchObject({
      attempt: 1,
      outcome: 'http_error',
      status_code: 500,
      response_excerpt: 'not yet',
      url: receiver.url(),
    });
    expect(failed.attempts_made[0].request_headers['webhook-id']).toBe(
      JSON.parse(failed.delivery.data).id,
    );

    const again = await t.call('redeliverWebhook', { headers, params: { id: failed.delivery.id } });
    expect(again.json().msg).toBe('Redelivery delivered (HTTP 200)');
    expect(again.json().data.delivery).toMatchObject({
      status: 'delivered',
      redelivery: true,
      http_code: 200,
    });
    const [first, second] = receiver.received.slice(-2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    for (const hook of [first, second]) {
      // Both signatures (the rotation of the test before) verify with the latest secret.
      expect(new Webhook(secret).verify(hook?.body ?? '', hook?.headers ?? {})).toMatchObject({
        type: 'test.ping',
        app_id: 'app_hooks',
      });
    }

    const details = await t.call('getAppDetails', {
      headers,
      params: { id: 'app_hooks' },
      query: { callback_data: 1 },
    });
    const ipn = details.json().data.callback_data;
    expect(ipn.total).toBe(2);
    expect(
      ipn.data.map((r: { status: string; redelivery: boolean; http_code: number }) => [
        r.status,
        r.redelivery,
        r.http_code,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['retrying', false, 500],
        ['delivered', true, 200],
      ]),
    );

    const shown = await t.call('getWebhookDelivery', {
      headers,
      params: { id: again.json().data.delivery.id },
    });
    expect(shown.json().data.attempts_made).toHaveLength(1);
    const foreign = await t.call('getWebhookDelivery', {
      headers: await t.authHeader('hooks_other'),
      params: { id: again.json().data.delivery.id },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses a test event without a Webhook URl, and says when a 410 switched it off', async () => {
    const none = await t.call('sendTestWebhook', {
      headers: await t.authHeader('hooks_other'),
      params: { id: 'app_other' },
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().msg).toBe('Set a Webhook URl in Merchant Setting first.');

    receiver.answer({ status: 410 });
    const gone = await t.call('sendTestWebhook', { headers, params });
    expect(gone.json().msg).toBe('Test event failed (HTTP 410)');
    const settings = (await t.call('getWebhookSettings', { headers, params })).json().data;
    expect(settings.disabled_reason).toBe('The endpoint answered 410 Gone: webhook switched off.');
    const refused = await t.call('sendTestWebhook', { headers, params });
    expect(refused.statusCode).toBe(409);
    expect((await t.call('switchWebhookOn', { headers, params })).statusCode).toBe(200);
    const back = await t.call('sendTestWebhook', { headers, params });
    expect(back.json().data.delivery.status).toBe('delivered');
  });

  it('keeps an app within 5 test events and 30 redeliveries a minute (429 with Retry-After)', async () => {
    const userId = await addUser(t, 'hooks_budget');
    const own = await t.authHeader('hooks_budget');
    await insertApp(t, {
      id: 'app_budget',
      user_id: userId,
      created_at: t.clock().toISOString(),
      callback_url: receiver.url(),
    });
    const id = { id: 'app_budget' };
    receiver.answer({ status: 200 });
    let last = '';
    for (let i = 0; i < 5; i += 1) {
      const sent = await t.call('sendTestWebhook', { headers: own, params: id });
      expect(sent.statusCode).toBe(200);
      last = sent.json().data.delivery.id;
    }
    const sixth = await t.call('sendTestWebhook', { headers: own, params: id });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().msg).toMatch(
      /^An app may send 5 test events a minute; try again in \d+ s\.$/,
    );
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // Another app's budget is its own.
    expect((await t.call('sendTestWebhook', { headers, params })).statusCode).not.toBe(429);

    for (let i = 0; i < 30; i += 1) {
      const again = await t.call('redeliverWebhook', { headers: own, params: { id: last } });
      expect(again.statusCode).toBe(200);
    }
    const over = await t.call('redeliverWebhook', { headers: own, params: { id: last } });
    expect(over.statusCode).toBe(429);
    expect(over.json().msg).toMatch(
      /^An app may send 30 redeliveries a minute; try again in \d+ s\.$/,
    );

    t.clock.advance(60_000);
    expect((await t.call('sendTestWebhook', { headers: own, params: id })).statusCode).toBe(200);
    expect(
      (await t.call('redeliverWebhook', { headers: own, params: { id: last } })).statusCode,
    ).toBe(200);
  });
});
