import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { addUser } from '../../test/accounts';
import { insertApp } from '../../test/appRows';
import { createTestApp, type TestApp } from '../../test/testApp';
import { startReceiver, type WebhookReceiver } from '../../test/webhookReceiver';
import { testAppPerBlock } from '../../test/withTestApp';
import type { Db } from '../db/connection';
import { newApiKey } from '../domain/apps/apiKeys';
import { recordEvent } from '../domain/webhooks/events';
import { rotateWebhookSecret } from '../domain/webhooks/secrets';

// The events API (GET /gateway/v1/events) and the test event (POST /gateway/v1/webhooks/test):
// abilities, paging with the cursor, commit order under concurrent writers of two processes,
// and the envelopes exactly as delivered.

const BASE = '/gateway/v1';

interface EventBody {
  id: string;
  type: string;
  created_at: string;
  app_id: string;
  data: unknown;
}

describe('gateway events API', () => {
  const t = testAppPerBlock({
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      // The out-of-order test's reader polls as fast as it can for as long as the writers take,
      // under a clock that stands still: one loaded CI run spent the key's 600 requests (429).
      // The limiter is tested in gateway.test.ts.
      GATEWAY_RATE_LIMIT_MAX: '1000000',
    },
  });
  let serial = 0;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await startReceiver();
    // standardwebhooks refuses timestamps 5 min off the real time.
    t.clock.set(new Date());
  });
  afterEach(async () => {
    await receiver.close();
  });

  /** A merchant's app (with `callbackUrl` as Webhook URl) and a key holding `abilities`. */
  async function appWithKey(abilities: string[], callbackUrl: string | null = null) {
    serial += 1;
    const tag = `ev${serial}`;
    const now = t.clock().toISOString();
    const userId = await addUser(t, `merchant_${tag}`);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: now, callback_url: callbackUrl });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${tag}`,
        app_id: appId,
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(abilities),
        created_at: now,
      })
      .execute();
    return { appId, key: key.key };
  }

  const get = (url: string, key: string) =>
    t.inject({ method: 'GET', url: `${BASE}${url}`, headers: { authorization: `Bearer ${key}` } });
  const postTest = (key: string) =>
    t.inject({
      method: 'POST',
      url: `${BASE}/webhooks/test`,
      headers: { authorization: `Bearer ${key}` },
    });

  /** One event of `appId` in a transaction of its own on `db` (a process), no delivery. */
  const record = (db: Db, appId: string, message: string, holdMs = 0) =>
    db.transaction().execute(async (trx) => {
      const { eventId } = await recordEvent(trx, {
        appId,
        type: 'test.ping',
        uniqueId: null,
        data: { message },
        now: t.clock(),
      });
      // Committed later than recorded: the window in which a sequence would be overtaken.
      if (holdMs > 0) await sleep(holdMs);
      return eventId;
    });

  /** Follows the cursor from `after` until caught up; answers the events and the last cursor. */
  async function readAll(key: string, after = '0', limit = 2) {
    const events: EventBody[] = [];
    let cursor = after;
    for (;;) {
      const page = await get(`/events?after=${cursor}&limit=${limit}`, key);
      expect(page.statusCode).toBe(200);
      const body = page.json<{ data: EventBody[]; next: string; has_more: boolean }>();
      events.push(...body.data);
      cursor = body.next;
      if (!body.has_more) return { events, cursor };
    }
  }

  it('refuses both operations with 403 to a key without webhooks:write', async () => {
    const { key } = await appWithKey(['deposits:read', 'accounts:write']);
    for (const answer of [await get('/events', key), await postTest(key)]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().error).toMatchObject({
        code: 'ability_missing',
        message: 'This API key lacks the webhooks:write ability.',
      });
    }
  });

  it("pages through the app's events with the cursor, only its own, and resumes from it", async () => {
    const { appId, key } = await appWithKey(['webhooks:write']);
    const other = await appWithKey(['webhooks:write']);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      ids.push(await record(t.db, appId, `ping ${i}`));
      await record(t.db, other.appId, `other ${i}`);
    }
    const empty = await get('/events', (await appWithKey(['webhooks:write'])).key);
    expect(empty.json()).toEqual({ data: [], next: '0', has_more: false });

    const first = await get('/events?limit=2', key);
    expect(first.json()).toMatchObject({ next: '2', has_more: true });
    const { events, cursor } = await readAll(key);
    expect(events.map((e) => e.id)).toEqual(ids);
    expect(events.map((e) => (e.data as { message: string }).message)).toEqual(
      ids.map((_, i) => `ping ${i + 1}`),
    );
    expect(events.every((e) => e.app_id === appId)).toBe(true);

    // Caught up: the same cursor answers nothing, then only what happened since.
    expect((await get(`/events?after=${cursor}`, key)).json()).toEqual({
      data: [],
      next: cursor,
      has_more: false,
    });
    const later = await record(t.db, appId, 'ping 6');
    const since = await readAll(key, cursor);
    expect(since.events.map((e) => e.id)).toEqual([later]);

    // A position past the last event (even past PostgreSQL's integer) is no position of the
    // feed: refused, rather than answered as a `next` that would skip what comes.
    const past = await get('/events?after=3000000000', key);
    expect(past.statusCode).toBe(422);
    expect(Object.keys(past.json().error.fields)).toEqual(['after']);

    const refused = await get('/events?after=-1', key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('invalid_request');
  });

  it("never numbers an event again once the app's events are deleted: a saved cursor stays valid", async () => {
    const { appId, key } = await appWithKey(['webhooks:write']);
    for (let i = 1; i <= 3; i += 1) await record(t.db, appId, `before ${i}`);
    const { cursor } = await readAll(key);
    expect(cursor).toBe('3');
    // What deleting a test app's data does to its events.
    await t.db.deleteFrom('webhook_events').where('app_id', '=', appId).execute();
    const id = await record(t.db, appId, 'after');

    const page = await get(`/events?after=${cursor}`, key);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ next: '4', has_more: false });
    expect(page.json<{ data: EventBody[] }>().data.map((e) => e.id)).toEqual([id]);
  });

  it('never lets a later commit slip behind a reader: two processes, out-of-order commits', async () => {
    const { appId, key } = await appWithKey(['webhooks:write']);
    // A second server process of the same deployment: its own connection to the database.
    const second: TestApp = await createTestApp({ beside: t });
    try {
      const seen: EventBody[] = [];
      let cursor = '0';
      let writing = true;
      const reader = (async () => {
        // Reads while the writers commit, each page from the cursor it was left at.
        while (writing) {
          const page = await readAll(key, cursor, 3);
          seen.push(...page.events);
          cursor = page.cursor;
          await sleep(1);
        }
      })();
      const written = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          // Early writers hold longest: with numbers drawn at insert (a sequence), later ones
          // would commit first and the reader would move past the early ones' numbers.
          record(i % 2 === 0 ? t.db : second.db, appId, `w${i}`, 120 - ((i * 37) % 120)),
        ),
      );
      writing = false;
      await reader;
      seen.push(...(await readAll(key, cursor)).events);
      // Every event exactly once, none skipped by the reader, in one order for everyone.
      expect(seen.map((e) => e.id).sort()).toEqual([...written].sort());
      expect(new Set(seen.map((e) => e.id)).size).toBe(written.length);
      const rows = await t.db
        .selectFrom('webhook_events')
        .select(['id', 'seq'])
        .where('app_id', '=', appId)
        .orderBy('seq')
        .execute();
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      expect(seen.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    } finally {
      await second.close();
    }
  });

  it('lists the envelope exactly as the test event delivered it, verified with standardwebhooks', async () => {
    const { appId, key } = await appWithKey(['webhooks:write'], receiver.url());
    const secret = await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
    const sent = await postTest(key);
    expect(sent.statusCode).toBe(200);
    const received = receiver.received[0];
    if (!received) throw new Error('nothing received');
    const event = new Webhook(secret).verify(received.body, received.headers) as EventBody;
    expect(sent.json()).toEqual({
      event_id: event.id,
      delivery_id: expect.stringMatching(/^whd_/),
      status: 'delivered',
      http_code: 200,
      error: null,
      attempts: 1,
      next_attempt_at: null,
    });
    expect(event).toMatchObject({ type: 'test.ping', app_id: appId });
    const listed = await get('/events', key);
    expect(listed.json().data).toEqual([JSON.parse(received.body)]);
    // Byte for byte: the same text the receiver verified.
    expect(JSON.stringify(listed.json().data[0])).toBe(received.body);
  });

  it('answers a failed test delivery with its status, and 409 without a URl or when switched off', async () => {
    const failing = await appWithKey(['webhooks:write'], receiver.url());
    receiver.answer({ status: 500, body: 'down' });
    const retrying = await postTest(failing.key);
    expect(retrying.json()).toMatchObject({
      status: 'retrying',
      http_code: 500,
      error: null,
      attempts: 1,
      next_attempt_at: expect.any(String),
    });

    const none = await postTest((await appWithKey(['webhooks:write'])).key);
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toMatchObject({
      code: 'webhook_not_configured',
      message: "The app has no Webhook URl; set one in the portal's Merchant Setting.",
    });

    const gone = await appWithKey(['webhooks:write'], receiver.url());
    await rotateWebhookSecret(t.db, t.config.secretKey, gone.appId, t.clock());
    await t.db
      .updateTable('app_webhooks')
      .set({ disabled_at: t.clock().toISOString(), disabled_reason: 'gone' })
      .where('app_id', '=', gone.appId)
      .execute();
    const off = await postTest(gone.key);
    expect(off.statusCode).toBe(409);
    expect(off.json().error.code).toBe('webhook_switched_off');
    expect(receiver.received).toHaveLength(1);
  });

  it("answers 429 with Retry-After past an app's five test events a minute; another app's still go", async () => {
    const busy = await appWithKey(['webhooks:write'], receiver.url());
    for (let i = 0; i < 5; i += 1) expect((await postTest(busy.key)).statusCode).toBe(200);
    t.clock.advance(20_000);
    const refused = await postTest(busy.key);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.json()).toMatchObject({
      error: {
        code: 'rate_limited',
        message: 'An app may send 5 test events a minute; try again in 40 s.',
        request_id: refused.headers['x-request-id'],
      },
    });
    expect(receiver.received).toHaveLength(5);

    const other = await appWithKey(['webhooks:write'], receiver.url());
    expect((await postTest(other.key)).json()).toMatchObject({ status: 'delivered' });
    t.clock.advance(40_000);
    expect((await postTest(busy.key)).json()).toMatchObject({ status: 'delivered' });
    expect(receiver.received).toHaveLength(7);
  });
});
