import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import type { TestApp } from '../../test/testApp';
import { testAppPerBlock } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// The gateway API over HTTP with real keys: authentication, abilities, the whitelist, methods
// and deposit accounts.

const BASE = '/gateway/v1';

describe('gateway API', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });
  let serial = 0;

  /** A merchant's app with USDT (BEP20) enabled and a key holding `abilities`. */
  async function appWithKey(
    abilities: string[],
    app: { whitelist?: string; depositsOn?: boolean } = {},
  ) {
    serial += 1;
    const tag = `gw${serial}`;
    const now = t.clock().toISOString();
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: now,
      whitelist_ip: app.whitelist ?? null,
    });
    await insertAppMethod(t, {
      id: `apm_${tag}`,
      app_id: appId,
      deposit_status: app.depositsOn === false ? 0 : 1,
      withdraw_status: 0,
    });
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
    return { appId, keyId: `key_${tag}`, key: key.key };
  }

  const get = (url: string, key?: string, remoteAddress?: string) =>
    t.inject({
      method: 'GET',
      url: `${BASE}${url}`,
      headers: key ? { authorization: `Bearer ${key}` } : {},
      remoteAddress,
    });
  const post = (url: string, key: string, body: unknown, remoteAddress?: string) =>
    t.inject({
      method: 'POST',
      url: `${BASE}${url}`,
      headers: { authorization: `Bearer ${key}` },
      payload: body as object,
      remoteAddress,
    });

  it('answers 401 without a key, with an unknown key and with a revoked one', async () => {
    const { key, keyId } = await appWithKey(['methods:read']);
    const missing = await get('/methods');
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['x-request-id']).toBe(missing.json().error.request_id);
    expect(missing.json()).toEqual({
      error: {
        code: 'unauthenticated',
        doc_url: docUrl('unauthenticated'),
        message: 'The API key is missing, unknown or revoked.',
        request_id: REQUEST_ID,
      },
    });
    expect((await get('/methods', `${key}x`)).statusCode).toBe(401);
    const methods = await get('/methods', key);
    expect(methods.statusCode).toBe(200);
    // Servers call the gateway: the portal's XSRF cookie is not handed to them.
    expect(methods.headers['set-cookie']).toBeUndefined();
    await t.db
      .updateTable('api_keys')
      .set({ revoked_at: t.clock().toISOString() })
      .where('id', '=', keyId)
      .execute();
    expect((await get('/methods', key)).json().error.code).toBe('unauthenticated');
  });

  it('names the missing ability; a write ability implies its read', async () => {
    const reader = await appWithKey(['methods:read']);
    const refused = await post('/accounts', reader.key, { unique_id: 'o-1', method: 'USDT-BEP20' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: {
        code: 'ability_missing',
        doc_url: docUrl('ability_missing'),
        message: 'This API key lacks the accounts:write ability.',
        request_id: REQUEST_ID,
      },
    });
    const writer = await appWithKey(['accounts:write']);
    expect((await get('/accounts', writer.key)).statusCode).toBe(200);
    expect((await get('/methods', writer.key)).json().error.code).toBe('ability_missing');
  });

  it('accepts the key in X-API-Key and records its use at most once a minute', async () => {
    const { key, keyId } = await appWithKey(['methods:read']);
    const lastUsed = async () =>
      (
        await t.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', keyId)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    const res = await t.inject({
      method: 'GET',
      url: `${BASE}/methods`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    const first = await lastUsed();
    expect(first).toBe(t.clock().toISOString());
    t.clock.advance(30_000);
    await get('/methods', key);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(30_000);
    await get('/methods', key);
    expect(await lastUsed()).toBe(t.clock().toISOString());
  });

  it('refuses a caller outside the whitelist, naming the address it saw', async () => {
    const { key } = await appWithKey(['methods:read'], { whitelist: '10.0.0.0/8\n2001:db8::/32' });
    const outside = await get('/methods', key, '203.0.113.7');
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({
      error: {
        code: 'ip_not_allowed',
        doc_url: docUrl('ip_not_allowed'),
        message: "The address 203.0.113.7 is not in this app's IP whitelist.",
        request_id: REQUEST_ID,
      },
    });
    expect((await get('/methods', key, '10.1.2.3')).statusCode).toBe(200);
    expect((await get('/methods', key, '::ffff:10.1.2.3')).statusCode).toBe(200);
    expect((await get('/methods', key, '2001:db8::5')).statusCode).toBe(200);
    expect((await get('/methods', key, '2001:db9::5')).statusCode).toBe(403);
    // Each address's answer is kept per whitelist: asked again, each keeps its own.
    expect((await get('/methods', key, '203.0.113.7')).statusCode).toBe(403);
    expect((await get('/methods', key, '10.1.2.3')).statusCode).toBe(200);
  });

  it('does not let a forged X-Forwarded-For past the whitelist', async () => {
    const { key } = await appWithKey(['methods:read'], { whitelist: '10.0.0.1' });
    const forged = await t.inject({
      method: 'GET',
      url: `${BASE}/methods`,
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '10.0.0.1' },
      remoteAddress: '203.0.113.7',
    });
    expect(forged.statusCode).toBe(403);
  });

  it("lists the app's methods with what a deposit needs", async () => {
    const { key } = await appWithKey(['methods:read']);
    expect((await get('/methods', key)).json()).toEqual({
      data: [
        {
          code: 'USDT-BEP20',
          name: 'USDT',
          network: 'BNB Smart Chain',
          chain_id: 56,
          token_contract: '0x55d398326f99059fF775485246999027B3197955',
          decimals: 18,
          confirmations: 15,
          min_deposit: '1',
          deposits_enabled: true,
          withdrawals_enabled: false,
        },
      ],
    });
  });

  it('creates one account per customer and chain, and answers it again for a repeat', async () => {
    const { key } = await appWithKey(['accounts:write']);
    const created = await post('/accounts', key, { unique_id: 'order-1', method: 'USDT-BEP20' });
    expect(created.statusCode).toBe(201);
    const account = created.json();
    expect(account).toEqual({
      livemode: true,
      unique_id: 'order-1',
      method: 'USDT-BEP20',
      chain_id: 56,
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      created_at: t.clock().toISOString(),
    });
    const again = await post('/accounts', key, { unique_id: 'order-1', method: 'USDT-BEP20' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(account);
    const other = await post('/accounts', key, { unique_id: 'order-2', method: 'USDT-BEP20' });
    expect(other.json().address).not.toBe(account.address);
    expect((await get('/accounts/order-1', key)).json()).toEqual({ data: [account] });
    expect((await get('/accounts/order-9', key)).json()).toEqual({
      error: {
        code: 'not_found',
        doc_url: docUrl('not_found'),
        message: 'No accounts for order-9.',
        request_id: REQUEST_ID,
      },
    });
  });

  it('refuses a method the app has not enabled or whose deposits are off, and bad input', async () => {
    const on = await appWithKey(['accounts:write']);
    const notEnabled = await post('/accounts', on.key, { unique_id: 'o', method: 'BNB-BSC' });
    expect(notEnabled.statusCode).toBe(422);
    expect(notEnabled.json()).toEqual({
      error: {
        code: 'invalid_request',
        doc_url: docUrl('invalid_request'),
        message: 'The app has not enabled BNB-BSC.',
        fields: { method: ['The app has not enabled BNB-BSC.'] },
        request_id: REQUEST_ID,
      },
    });
    const off = await appWithKey(['accounts:write'], { depositsOn: false });
    expect(
      (await post('/accounts', off.key, { unique_id: 'o', method: 'USDT-BEP20' })).json().error
        .message,
    ).toBe('Deposits of USDT-BEP20 are switched off for this app.');
    for (const body of [
      {},
      { unique_id: 'has space', method: 'USDT-BEP20' },
      { unique_id: 'o', method: 'USDT-BEP20', extra: 1 },
    ]) {
      const res = await post('/accounts', on.key, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('invalid_request');
    }
    const notJson = await t.inject({
      method: 'POST',
      url: `${BASE}/accounts`,
      headers: { authorization: `Bearer ${on.key}`, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.code).toBe('bad_request');
  });

  it('pages accounts newest first by cursor', async () => {
    const { key } = await appWithKey(['accounts:write']);
    for (const id of ['a', 'b', 'c']) {
      await post('/accounts', key, { unique_id: id, method: 'USDT-BEP20' });
      t.clock.advance(1_000);
    }
    const first = (await get('/accounts?limit=2', key)).json();
    expect(first.data.map((a: { unique_id: string }) => a.unique_id)).toEqual(['c', 'b']);
    const second = (await get(`/accounts?limit=2&cursor=${first.next_cursor}`, key)).json();
    expect(second).toEqual({
      data: [expect.objectContaining({ unique_id: 'a' })],
      next_cursor: null,
    });
    const bad = await get('/accounts?cursor=nonsense', key);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toEqual({
      cursor: [
        'The cursor is not one this API gave: pass the next_cursor of the previous page, or ' +
          'leave cursor out for the first page.',
      ],
    });
  });

  it('serves its contract without a key, and 404s unknown operations in its own envelope', async () => {
    const doc = await get('/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json()).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'CryptoSafeLock gateway API' },
    });
    expect((await get('/nope')).json()).toEqual({
      error: {
        code: 'not_found',
        doc_url: docUrl('not_found'),
        message: 'No such gateway operation.',
        request_id: REQUEST_ID,
      },
    });
  });

  it('answers no CORS preflight: keys are for servers, and a browser must not be invited', async () => {
    const preflight = await t.inject({
      method: 'OPTIONS',
      url: `${BASE}/deposits`,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    // The path takes GET only (405 with Allow), and nothing invites a browser.
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers.allow).toBe('GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('gateway rate limit', () => {
  const t: TestApp = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '3' } });

  it('gives each key its own budget, then 429 with Retry-After in the gateway envelope', async () => {
    const get = (key: string) =>
      t.inject({
        method: 'GET',
        url: `${BASE}/methods`,
        headers: { authorization: `Bearer ${key}` },
      });
    const one = newApiKey().key;
    const two = newApiKey().key;
    for (let i = 0; i < 3; i += 1) {
      const answer = await get(one);
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['ratelimit-limit']).toBe('3');
      expect(answer.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await get(one);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().error.code).toBe('rate_limited');
    expect((await get(two)).statusCode).toBe(401);
  });

  it("counts a key's requests to every operation against its one budget", async () => {
    const key = newApiKey().key;
    const call = (url: string) =>
      t.inject({
        method: 'GET',
        url: `${BASE}${url}`,
        headers: { authorization: `Bearer ${key}` },
      });
    const remaining = [];
    for (const url of ['/methods', '/deposits', '/accounts']) {
      remaining.push((await call(url)).headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await call('/withdrawals');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
  });
});
