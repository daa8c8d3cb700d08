import { addUser } from '../../../test/accounts';
import { insertApp, insertSubscription } from '../../../test/appRows';
import { until } from '../../../test/until';
import { startReceiver } from '../../../test/webhookReceiver';
import { testAppPerBlock } from '../../../test/withTestApp';
import { openDb } from '../../db/connection';
import { webhookDeliveryTask } from '../../jobs';
import { startWorker } from '../../jobs/worker';
import { webhookDeps } from './delivery';
import { recordEvent } from './events';
import { rotateWebhookSecret } from './secrets';

// A backlog of deliveries (a receiver back after an outage) drained by two server processes,
// each with its own connection and worker, as two processes of one deployment: every event
// reaches its receiver once, and one resource's events in the order they happened.

describe('a backlog drained by two processes', () => {
  const t = testAppPerBlock({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } });

  it('delivers each event exactly once, each resource’s in order', async () => {
    t.clock.set(new Date());
    const receiver = await startReceiver();
    const apps: string[] = [];
    for (const tag of ['a', 'b', 'c']) {
      const userId = await addUser(t, `drain_${tag}`);
      const appId = `app_drain_${tag}`;
      await insertApp(t, {
        id: appId,
        user_id: userId,
        created_at: t.clock().toISOString(),
        callback_url: receiver.url(`/hooks/${tag}`),
      });
      await insertSubscription(t, userId);
      await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
      apps.push(appId);
    }
    // The backlog: per app 20 deposits with three events each, all due now.
    const steps = ['deposit.pending', 'deposit.confirmed', 'deposit.completed'] as const;
    await t.db.transaction().execute(async (trx) => {
      for (const appId of apps) {
        for (let n = 0; n < 20; n += 1) {
          for (const [step, type] of steps.entries()) {
            await recordEvent(trx, {
              appId,
              type,
              resourceId: `dep_${appId}_${n}`,
              uniqueId: `customer-${n}`,
              data: { id: `dep_${appId}_${n}`, step },
              now: t.clock(),
            });
          }
        }
      }
    });
    const other = openDb({ dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL });
    const workers = await Promise.all(
      [t.db, other].map((db) =>
        startWorker({
          db,
          tasks: [webhookDeliveryTask(webhookDeps(t.config, db, t.clock), t.config.jobs)],
          log: { error: jest.fn(), warn: jest.fn() },
          clock: t.clock,
          pollMs: 20,
        }),
      ),
    );
    const backlog = apps.length * 20 * steps.length;
    try {
      await until(async () => receiver.received.length >= backlog, 'the backlog delivered');
      await until(
        async () =>
          (
            await t.db
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('status', '!=', 'delivered')
              .execute()
          ).length === 0,
        'every delivery recorded as delivered',
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await other.destroy();
      await receiver.close();
    }
    const ids = receiver.received.map((hook) => hook.headers['webhook-id']);
    expect(ids).toHaveLength(backlog);
    expect(new Set(ids).size).toBe(backlog);
    // Per resource, the steps arrived in order.
    const arrived = new Map<string, number[]>();
    for (const hook of receiver.received) {
      const event = JSON.parse(hook.body) as { data: { id: string; step: number } };
      arrived.set(event.data.id, [...(arrived.get(event.data.id) ?? []), event.data.step]);
    }
    expect(arrived.size).toBe(apps.length * 20);
    for (const order of arrived.values()) expect(order).toEqual([0, 1, 2]);
  }, 120_000);
});
