import { addUser } from '../../test/accounts';
import { insertApp } from '../../test/appRows';
import { startReceiver, type WebhookReceiver } from '../../test/webhookReceiver';
import { testAppPerBlock } from '../../test/withTestApp';
import { loadConfig } from '../config';
import { newApiKey } from './apps/apiKeys';
import { newId } from './ids';
import { startWorker } from '../jobs/worker';
import { retentionTask } from '../jobs';
import { webhookDeps } from './webhooks/delivery';
import { sendTestPing } from './webhooks/portal';

// Retention on a fixed clock: old deliveries keep their rows but lose their bodies (IPN Logs and
// Redeliver say so, the events API skips them), old API Logs go, in batches, on the job runner.

const DAY = 86_400_000;

describe('retention', () => {
  const t = testAppPerBlock({
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      WEBHOOK_BODY_RETENTION_DAYS: '60',
      API_LOG_RETENTION_DAYS: '30',
    },
  });
  let receiver: WebhookReceiver;
  const start = new Date('2026-01-01T12:00:00.000Z');
  const log = { error: jest.fn(), warn: jest.fn() };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('reads both periods from the environment, 60 and 30 days by default', () => {
    expect(loadConfig({})).toMatchObject({
      webhooks: { bodyRetentionDays: 60 },
      apiLogRetentionDays: 30,
    });
    const set = loadConfig({ WEBHOOK_BODY_RETENTION_DAYS: '7', API_LOG_RETENTION_DAYS: '90' });
    expect(set).toMatchObject({ webhooks: { bodyRetentionDays: 7 }, apiLogRetentionDays: 90 });
    expect(() => loadConfig({ API_LOG_RETENTION_DAYS: '0' })).toThrow(
      'API_LOG_RETENTION_DAYS must be between 1 and 36500',
    );
  });

  it('prunes old delivery bodies (rows stay) and deletes old API Logs, on the job runner', async () => {
    t.clock.set(start);
    const userId = await addUser(t, 'retained');
    const appId = 'app_retained';
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: start.toISOString(),
      callback_url: receiver.url(),
    });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: 'key_retained',
        app_id: appId,
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['webhooks:write']),
        created_at: start.toISOString(),
      })
      .execute();
    const deps = webhookDeps(t.config, t.db, t.clock);

    // Day 0: delivered; its answer's excerpt is kept. Also one still retrying then.
    receiver.answer({ status: 200, body: 'thanks' });
    const old = await sendTestPing(deps, appId);
    receiver.answer({ status: 503, body: 'busy' });
    const stuck = await sendTestPing(deps, appId);
    expect(stuck.status).toBe('retrying');
    // Day 59: delivered, inside the period when the job runs on day 61.
    t.clock.set(new Date(start.getTime() + 59 * DAY));
    const recent = await sendTestPing(deps, appId);

    // API Logs: 1,200 rows of day 0 (several batches) and one of day 59; another app's too
    // (retention goes app by app).
    const otherApp = 'app_retained_two';
    await insertApp(t, { id: otherApp, user_id: userId, created_at: start.toISOString() });
    const row = (at: Date, app = appId) => ({
      id: newId('log'),
      app_id: app,
      method: 'GET',
      route: '/gateway/v1/events',
      ip: '203.0.113.7',
      status: 200,
      created_at: at.toISOString(),
    });
    for (let i = 0; i < 12; i += 1) {
      await t.db
        .insertInto('api_logs')
        .values(Array.from({ length: 100 }, () => row(start)))
        .execute();
    }
    await t.db.insertInto('api_logs').values(row(t.clock())).execute();
    await t.db
      .insertInto('api_logs')
      .values([
        ...Array.from({ length: 501 }, () => row(start, otherApp)),
        row(t.clock(), otherApp),
      ])
      .execute();

    t.clock.set(new Date(start.getTime() + 61 * DAY));
    const worker = await startWorker({
      db: t.db,
      tasks: [retentionTask(t.config, t.db, t.clock)],
      log,
      clock: t.clock,
      pollMs: 0,
    });
    expect(await worker.drain()).toBe(1);
    expect(log.error).not.toHaveBeenCalled();

    const events = await t.db
      .selectFrom('webhook_events')
      .select(['id', 'body', 'pruned_at'])
      .where('app_id', '=', appId)
      .orderBy('seq')
      .execute();
    expect(events.map((e) => [e.id, e.body === '', e.pruned_at])).toEqual([
      [old.eventId, true, t.clock().toISOString()],
      // Still on its way: kept until its delivery ends.
      [stuck.eventId, false, null],
      [recent.eventId, false, null],
    ]);
    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'response_excerpt', 'status_code'])
      .where('delivery_id', 'in', [old.id, recent.id])
      .execute();
    expect(attempts).toEqual(
      expect.arrayContaining([
        { delivery_id: old.id, response_excerpt: null, status_code: 200 },
        { delivery_id: recent.id, response_excerpt: 'ok', status_code: 200 },
      ]),
    );
    const logs = await t.db
      .selectFrom('api_logs')
      .select(['app_id', 'created_at'])
      .where('app_id', 'in', [appId, otherApp])
      .orderBy('app_id')
      .execute();
    const day59 = new Date(start.getTime() + 59 * DAY).toISOString();
    expect(logs).toEqual([
      { app_id: appId, created_at: day59 },
      { app_id: otherApp, created_at: day59 },
    ]);

    // The portal: the row stays, marked pruned; Redeliver says why it cannot.
    const headers = await t.authHeader('retained');
    const details = await t.call('getWebhookDelivery', { headers, params: { id: old.id } });
    expect(details.json().data.delivery).toMatchObject({
      id: old.id,
      status: 'delivered',
      data: '',
      pruned: true,
    });
    const again = await t.call('redeliverWebhook', { headers, params: { id: old.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(
      "This delivery's payload was removed after 60 days; it cannot be redelivered.",
    );
    const kept = await t.call('getWebhookDelivery', { headers, params: { id: recent.id } });
    expect(kept.json().data.delivery.pruned).toBe(false);

    // The events API no longer lists the pruned event.
    const listed = await t.inject({
      method: 'GET',
      url: '/gateway/v1/events',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([
      stuck.eventId,
      recent.eventId,
    ]);
  });
});
