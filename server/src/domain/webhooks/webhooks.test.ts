import { Webhook } from 'standardwebhooks';
import { newApiKey } from '../apps/apiKeys';
import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { startReceiver, type WebhookReceiver } from '../../../test/webhookReceiver';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalTransfer } from '../chain/localAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from '../payments/accounts';
import { watchDeposits } from '../payments/deposits';
import { startWorker } from '../../jobs/worker';
import { webhookDeliveryTask } from '../../jobs';
import { attemptDelivery, webhookDeps, type DeliveryDeps } from './delivery';
import { deliveryDetails, redeliver, sendTestEvent, switchWebhookOn } from './portal';
import { rotateWebhookSecret, ROTATION_OVERLAP_MS } from './secrets';
import { verifyWebhook } from './signing';
import type { Resolver } from './ssrf';

// Webhooks end to end on the domain: the watcher's status changes become signed deliveries to
// a receiver on loopback (WEBHOOK_ALLOW_PRIVATE), retried on a short schedule, in order per
// deposit, verified with the independent `standardwebhooks` package as well as our own code.

describe('webhook deliveries', () => {
  const t = testAppPerBlock({
    env: { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' },
  });
  let receiver: WebhookReceiver;
  let serial = 0;

  beforeEach(async () => {
    receiver = await startReceiver();
    // Each test starts at the real time (standardwebhooks refuses timestamps 5 min off) with
    // no deliveries of the earlier tests' apps left to wake.
    t.clock.set(new Date());
    await t.db.deleteFrom('jobs').where('kind', '=', 'webhooks.deliver').execute();
  });
  afterEach(async () => {
    await receiver.close();
  });

  const deps = (resolve?: Resolver): DeliveryDeps => webhookDeps(t.config, t.db, t.clock, resolve);
  const log = { error: jest.fn(), warn: jest.fn() };
  async function drain(d: DeliveryDeps = deps()) {
    const worker = await startWorker({
      db: t.db,
      tasks: [webhookDeliveryTask(d, t.config.jobs)],
      log,
      clock: t.clock,
      pollMs: 0,
    });
    return worker.drain();
  }

  async function merchant(callbackUrl: string | null = receiver.url()) {
    serial += 1;
    const userId = await addUser(t, `hooked_${serial}`);
    const appId = `app_hook_${serial}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: t.clock().toISOString(),
      callback_url: callbackUrl,
    });
    await insertAppMethod(t, { id: `apm_hook_${serial}`, app_id: appId });
    await insertSubscription(t, userId);
    const secret = await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
    return { userId, appId, secret };
  }

  async function accountOf(appId: string, uniqueId: string) {
    const { account } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId,
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    return account.address;
  }

  const watch = () => watchDeposits(t.db, chainAdapterFor(t.config, t.db), t.clock());
  const pay = (to: string, micro: bigint) =>
    recordLocalTransfer(t.db, { to, amountMicro: micro, createdAt: t.clock().toISOString() });
  const deliveriesOf = (appId: string) =>
    t.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'e.type', 'd.status', 'd.attempts', 'd.last_status_code', 'd.event_id'])
      .where('d.app_id', '=', appId)
      .orderBy('d.created_at')
      .orderBy('e.resource_seq')
      .execute();
  const bodyOf = (i: number) => JSON.parse(receiver.received[i]?.body ?? '{}');

  it('sends deposit.pending then deposit.confirmed, data as the gateway answers it, signed', async () => {
    const { appId, secret } = await merchant();
    const address = await accountOf(appId, 'order-1');
    await pay(address, 25_500_000n);
    await watch();
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${appId}`,
        app_id: appId,
        token_name: 'reader',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['deposits:read']),
        created_at: t.clock().toISOString(),
      })
      .execute();
    const events = await t.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('app_id', '=', appId)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['deposit.pending']);
    const pendingEvent = JSON.parse(events[0]?.body ?? '{}');
    const fromApi = await t.inject({
      method: 'GET',
      url: `/gateway/v1/deposits/${pendingEvent.data.id}`,
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(pendingEvent).toEqual({
      id: events[0]?.id,
      type: 'deposit.pending',
      created_at: t.clock().toISOString(),
      app_id: appId,
      data: fromApi.json(),
      livemode: true,
    });

    await mineLocalBlocks(t.db, 14);
    await watch();
    // Whichever job the queue picks first, the confirmed one waits for the pending one.
    await drain();
    expect(receiver.received.map((_, i) => bodyOf(i).type)).toEqual([
      'deposit.pending',
      'deposit.confirmed',
    ]);
    const confirmed = bodyOf(1);
    expect(confirmed.data).toMatchObject({ status: 3, amount: '25.5', unique_id: 'order-1' });
    for (const hook of receiver.received) {
      // The independent implementation, then ours.
      expect(new Webhook(secret).verify(hook.body, hook.headers)).toEqual(JSON.parse(hook.body));
      expect(
        verifyWebhook(
          secret,
          {
            id: hook.headers['webhook-id'] ?? '',
            timestamp: hook.headers['webhook-timestamp'] ?? '',
            signature: hook.headers['webhook-signature'] ?? '',
          },
          hook.body,
        ),
      ).toBe(true);
      expect(hook.headers['webhook-id']).toBe(JSON.parse(hook.body).id);
      expect(hook.headers['content-type']).toBe('application/json');
    }
    expect((await deliveriesOf(appId)).map((d) => [d.type, d.status, d.attempts])).toEqual([
      ['deposit.pending', 'delivered', 1],
      ['deposit.confirmed', 'delivered', 1],
    ]);
  });

  it('sends deposit.failed for a deposit below the minimum; no Webhook URl, no delivery', async () => {
    const { appId } = await merchant();
    await pay(await accountOf(appId, 'tiny'), 1n);
    const { appId: quiet } = await merchant(null);
    await pay(await accountOf(quiet, 'tiny'), 1n);
    await watch();
    await drain();
    expect(receiver.received.map((_, i) => bodyOf(i).type)).toEqual(['deposit.failed']);
    expect(bodyOf(0).data).toMatchObject({ status: 5, failure_reason: 'below_minimum' });
    const quietEvents = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('app_id', '=', quiet)
      .execute();
    expect(quietEvents).toEqual([{ type: 'deposit.failed' }]);
    expect(await deliveriesOf(quiet)).toEqual([]);
  });

  it('retries 500, 500 then 200 on the schedule: retrying, then delivered after 3 attempts', async () => {
    const { appId, userId } = await merchant();
    receiver.answer({ status: 500, body: 'down' }, { status: 500 });
    await pay(await accountOf(appId, 'r-1'), 5_000_000n);
    await watch();
    expect(await drain()).toBe(1);
    expect(await deliveriesOf(appId)).toMatchObject([
      { status: 'retrying', attempts: 1, last_status_code: 500 },
    ]);
    expect(await drain()).toBe(0); // not before its wait
    t.clock.advance(1_500);
    await drain();
    expect(await deliveriesOf(appId)).toMatchObject([{ status: 'retrying', attempts: 2 }]);
    t.clock.advance(1_500);
    await drain();
    const [delivery] = await deliveriesOf(appId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
    // One event id across the retries: receivers deduplicate on it.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const details = await deliveryDetails(t.db, userId, delivery?.id ?? '');
    expect(details.attemptsMade.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [1, 'http_error', 500],
      [2, 'http_error', 500],
      [3, 'delivered', 200],
    ]);
    expect(details.attemptsMade[0]?.responseExcerpt).toBe('down');
    expect(details.attemptsMade[0]?.requestHeaders['webhook-id']).toBe(delivery?.event_id);
  });

  it('fails after the last retry, honours Retry-After, and follows no redirect', async () => {
    const { appId } = await merchant();
    receiver.answer({ status: 503, headers: { 'retry-after': '120' } });
    await pay(await accountOf(appId, 'ra'), 5_000_000n);
    await watch();
    await drain();
    const [first] = await t.db
      .selectFrom('webhook_deliveries')
      .select(['next_attempt_at', 'status'])
      .where('app_id', '=', appId)
      .execute();
    expect(first?.next_attempt_at).toBe(t.clock().getTime() + 120_000);
    t.clock.advance(60_000);
    expect(await drain()).toBe(0);
    receiver.answer(
      { status: 302, headers: { location: receiver.url('/elsewhere') } },
      { status: 500 },
      { status: 500 },
    );
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(61_000);
      await drain();
    }
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks', '/hooks', '/hooks']);
    expect(await deliveriesOf(appId)).toMatchObject([
      { status: 'failed', attempts: 4, last_status_code: 500 },
    ]);
  });

  it('a 410 switches the webhook off: queued deliveries fail, none is made until it is on again', async () => {
    const { appId, userId } = await merchant();
    receiver.answer({ status: 410 });
    await pay(await accountOf(appId, 'gone-1'), 5_000_000n);
    await watch();
    await t.db
      .updateTable('jobs')
      .set({ run_at: t.clock().getTime() + 10_000 })
      .where('kind', '=', 'webhooks.deliver')
      .execute();
    await pay(await accountOf(appId, 'gone-2'), 5_000_000n);
    await watch();
    // Only the gone-2 delivery is due: it meets the 410.
    await drain();
    const hooks = await t.db
      .selectFrom('app_webhooks')
      .select(['disabled_at', 'disabled_reason'])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(hooks.disabled_reason).toMatch(/410/);
    expect((await deliveriesOf(appId)).map((d) => d.status)).toEqual(['failed', 'failed']);
    t.clock.advance(20_000);
    expect(await drain()).toBe(1); // the stale job of the other one: nothing sent
    expect(receiver.received).toHaveLength(1);
    await pay(await accountOf(appId, 'gone-3'), 5_000_000n);
    await watch();
    expect(await deliveriesOf(appId)).toHaveLength(2);

    await switchWebhookOn(t.db, userId, appId);
    const again = await redeliver(deps(), userId, (await deliveriesOf(appId))[0]?.id ?? '');
    expect(again).toMatchObject({ status: 'delivered', redelivery: true });
  });

  it('keeps order per deposit: a failing delivery holds back only its own deposit', async () => {
    const { appId } = await merchant();
    const a = await accountOf(appId, 'ord-a');
    const b = await accountOf(appId, 'ord-b');
    receiver.answer({ status: 500 });
    await pay(a, 5_000_000n);
    await watch(); // a: pending, fails once
    await drain();
    await mineLocalBlocks(t.db, 14);
    await pay(b, 5_000_000n);
    await watch(); // a: confirmed (held), b: pending (goes)
    await drain();
    expect(receiver.received.map((_, i) => [bodyOf(i).type, bodyOf(i).data.unique_id])).toEqual([
      ['deposit.pending', 'ord-a'],
      ['deposit.pending', 'ord-b'],
    ]);
    t.clock.advance(1_500);
    await drain();
    expect(receiver.received.slice(2).map((_, i) => bodyOf(i + 2).type)).toEqual([
      'deposit.pending',
      'deposit.confirmed',
    ]);
    expect(bodyOf(3).data.unique_id).toBe('ord-a');
  });

  it('a changed Webhook URl applies to deliveries not yet attempted', async () => {
    const { appId } = await merchant(receiver.url('/old'));
    await pay(await accountOf(appId, 'moved'), 5_000_000n);
    await watch();
    await t.db
      .updateTable('apps')
      .set({ callback_url: receiver.url('/new') })
      .where('id', '=', appId)
      .execute();
    await drain();
    expect(receiver.received.map((r) => r.path)).toEqual(['/new']);
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const { appId, userId, secret: old } = await merchant();
    const fresh = await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
    expect(fresh).toMatch(/^whsec_/);
    const both = await sendTestEvent(deps(), userId, appId);
    expect(both.status).toBe('delivered');
    const hook = receiver.received[0];
    expect(hook?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(hook?.body ?? '', hook?.headers ?? {})).toMatchObject({
      type: 'test.ping',
      app_id: appId,
    });
    expect(new Webhook(fresh).verify(hook?.body ?? '', hook?.headers ?? {})).toBeTruthy();
    t.clock.advance(ROTATION_OVERLAP_MS + 1_000);
    await sendTestEvent(deps(), userId, appId);
    const later = receiver.received[1];
    const signature = later?.headers['webhook-signature'] ?? '';
    expect(signature.split(' ')).toHaveLength(1);
    const parts = {
      id: later?.headers['webhook-id'] ?? '',
      timestamp: later?.headers['webhook-timestamp'] ?? '',
      signature,
    };
    expect(verifyWebhook(fresh, parts, later?.body ?? '')).toBe(true);
    expect(verifyWebhook(old, parts, later?.body ?? '')).toBe(false);
  });

  it('redelivers with the same event id, a new timestamp and signature, marked as such', async () => {
    const { appId, userId, secret } = await merchant();
    await pay(await accountOf(appId, 'again'), 5_000_000n);
    await watch();
    await drain();
    const [original] = await deliveriesOf(appId);
    t.clock.advance(2_000);
    const again = await redeliver(deps(), userId, original?.id ?? '');
    expect(again).toMatchObject({ status: 'delivered', redelivery: true, attempts: 1 });
    const [first, second] = receiver.received;
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    expect(Number(second?.headers['webhook-timestamp'])).toBe(
      Number(first?.headers['webhook-timestamp']) + 2,
    );
    expect(second?.headers['webhook-signature']).not.toBe(first?.headers['webhook-signature']);
    expect(new Webhook(secret).verify(second?.body ?? '', second?.headers ?? {})).toBeTruthy();
  });

  it('goes out after a restart, and is not sent again once it got its 2xx', async () => {
    const { appId } = await merchant();
    await pay(await accountOf(appId, 'crash'), 5_000_000n);
    await watch();
    // A process claims the job and dies mid-POST: its lease runs out.
    await t.db
      .updateTable('jobs')
      .set({ locked_by: 'dead-process', locked_until: t.clock().getTime() + 30_000 })
      .where('kind', '=', 'webhooks.deliver')
      .execute();
    expect(await drain()).toBe(0);
    t.clock.advance(31_000);
    expect(await drain()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    // Its wake run again (e.g. a lease lost after the 2xx): nothing is sent twice.
    const [delivery] = await deliveriesOf(appId);
    await attemptDelivery(deps(), { deliveryId: delivery?.id ?? '', wake: 1 });
    expect(receiver.received).toHaveLength(1);
    expect(await drain()).toBe(0);
  });

  it('connects to the address the name was checked as, never resolving it again', async () => {
    const port = new URL(receiver.url()).port;
    const { appId } = await merchant(`http://receiver.merchant.test:${port}/named`);
    await pay(await accountOf(appId, 'named'), 5_000_000n);
    await watch();
    const asked: string[] = [];
    await drain(
      deps(async (host) => {
        asked.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      }),
    );
    expect(asked).toEqual(['receiver.merchant.test']);
    expect(receiver.received.map((r) => [r.path, r.headers.host])).toEqual([
      ['/named', `receiver.merchant.test:${port}`],
    ]);
  });

  it('refuses at send time a name that now resolves to a private address (rebinding)', async () => {
    const { appId } = await merchant('http://hooks.merchant.test:8080/in');
    await pay(await accountOf(appId, 'rebind'), 5_000_000n);
    await watch();
    const strict: DeliveryDeps = {
      ...deps(async () => [{ address: '127.0.0.1', family: 4 }]),
      policy: { allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    };
    await drain(strict);
    const [delivery] = await deliveriesOf(appId);
    expect(delivery).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: null });
    const row = await t.db
      .selectFrom('webhook_attempts')
      .select(['outcome', 'error'])
      .where('delivery_id', '=', delivery?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      outcome: 'refused',
      error: 'Webhook URl must reach a public address: 127.0.0.1 is loopback.',
    });
    expect(receiver.received).toEqual([]);
  });
});
