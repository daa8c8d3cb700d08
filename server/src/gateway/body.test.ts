import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// A gateway operation whose body is missing is refused in the envelope, never reached without
// it (found by the contract tool: POST /accounts with no body answered 500).
// test:pg leaves this file to SQLite: a request refused by its validator, before any query.

describe('gateway request without its body', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });

  let serial = 0;
  async function keyOfNewApp() {
    serial += 1;
    const app = `app_body${serial}`;
    const now = t.clock().toISOString();
    const userId = await addUser(t, `merchant_body${serial}`);
    await insertApp(t, { id: app, user_id: userId, created_at: now, whitelist_ip: null });
    await insertAppMethod(t, {
      id: `apm_body${serial}`,
      app_id: app,
      deposit_status: 1,
      withdraw_status: 0,
    });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_body${serial}`,
        app_id: app,
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['accounts:write', 'withdrawals:write', 'webhooks:write']),
        created_at: now,
      })
      .execute();
    return key.key;
  }

  it('answers 415 without a content type and 400 for an empty JSON body', async () => {
    const key = await keyOfNewApp();
    const send = (headers: Record<string, string>) =>
      t.inject({
        method: 'POST',
        url: '/gateway/v1/accounts',
        headers: { authorization: `Bearer ${key}`, ...headers },
        payload: '',
      });
    const bare = await send({});
    expect(bare.statusCode).toBe(415);
    expect(bare.json()).toEqual({
      error: {
        code: 'unsupported_media_type',
        doc_url: docUrl('unsupported_media_type'),
        message: 'Send the body as application/json.',
        request_id: REQUEST_ID,
      },
    });
    const empty = await send({ 'content-type': 'application/json' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('bad_request');
  });

  it('refuses a body of another type than JSON (415) instead of reading it unchecked', async () => {
    const key = await keyOfNewApp();
    const refusal = {
      error: {
        code: 'unsupported_media_type',
        doc_url: docUrl('unsupported_media_type'),
        message: 'Send the body as application/json.',
        request_id: REQUEST_ID,
      },
    };
    for (const [url, type, payload] of [
      ['/accounts', 'text/plain', 'hello'],
      ['/accounts', 'application/x-www-form-urlencoded', 'unique_id=a&method=USDT-BEP20'],
      ['/accounts', 'text/plain', '{"unique_id":"a","method":"USDT-BEP20"}'],
      ['/withdrawals', 'text/plain', 'hello'],
    ] as const) {
      const res = await t.inject({
        method: 'POST',
        url: `/gateway/v1${url}`,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': type,
          'idempotency-key': 'media-type',
        },
        payload,
      });
      expect([url, type, res.statusCode]).toEqual([url, type, 415]);
      expect(res.json()).toMatchObject(refusal);
    }
    // The JSON media type with its parameters is JSON.
    const json = await t.inject({
      method: 'POST',
      url: '/gateway/v1/accounts',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json; charset=utf-8',
      },
      payload: '{"unique_id":"a","method":"USDT-BEP20"}',
    });
    expect(json.statusCode).not.toBe(415);
  });

  it('still takes no body on an operation without one, and refuses one of another type', async () => {
    const key = await keyOfNewApp();
    const test = (headers: Record<string, string>, payload?: string) =>
      t.inject({
        method: 'POST',
        url: '/gateway/v1/webhooks/test',
        headers: { authorization: `Bearer ${key}`, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
    // The app has no Webhook URl: reaching the operation answers 409 webhook_not_configured.
    for (const [headers, payload] of [
      [{}, undefined],
      [{ 'content-type': 'application/json' }, ''],
      [{ 'content-type': 'application/json' }, '{}'],
      [{ 'content-type': 'text/plain' }, ''],
    ] as const) {
      const res = await test(headers, payload);
      expect([headers, res.statusCode, res.json().error.code]).toEqual([
        headers,
        409,
        'webhook_not_configured',
      ]);
    }
    const text = await test({ 'content-type': 'text/plain' }, 'hello');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({
      error: {
        code: 'unsupported_media_type',
        doc_url: docUrl('unsupported_media_type'),
        message: 'This operation takes no body.',
        request_id: REQUEST_ID,
      },
    });
  });
});
