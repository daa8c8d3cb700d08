import type net from 'node:net';
import { insertMerchantApp } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// The gateway's HTTP plumbing around its operations: API Logs that survive a broken request,
// the answer to a method an operation does not take, and a trailing slash.

const BASE = '/gateway/v1';

describe('gateway plumbing', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });
  let serial = 0;

  /** An app whose whitelist lets the local test client in, and a key of it. */
  async function appWithKey(abilities: string[]) {
    serial += 1;
    return insertMerchantApp(t, `plumb${serial}`, abilities);
  }

  /** The app's API Logs rows once the writer has flushed `n` of them (it does every second). */
  async function flushedLogs(appId: string, n: number) {
    const read = () =>
      t.db
        .selectFrom('api_logs')
        .select(['method', 'route', 'ip', 'status'])
        .where('app_id', '=', appId)
        .execute();
    const deadline = Date.now() + 10_000;
    let rows = await read();
    while (rows.length < n && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await read();
    }
    return rows;
  }

  it('logs a request whose body could not be read, with its address, and loses no other row', async () => {
    const broken = await appWithKey(['withdrawals:write']);
    const normal = await appWithKey(['methods:read']);
    // Over a real connection: the server closes it after refusing the body, and what the
    // request reads as its address afterwards is what the log hook used to write.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const origin = `http://127.0.0.1:${port}`;
    const refused = await fetch(`${origin}${BASE}/withdrawals`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${broken.key}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'idempotency-key': 'not-gzip',
      },
      body: 'x'.repeat(70_000),
    });
    expect(refused.status).toBe(400);
    const answered = await fetch(`${origin}${BASE}/methods`, {
      headers: { authorization: `Bearer ${normal.key}` },
    });
    expect(answered.status).toBe(200);

    expect(await flushedLogs(normal.appId, 1)).toEqual([
      { method: 'GET', route: `${BASE}/methods`, ip: '127.0.0.1', status: 200 },
    ]);
    expect(await flushedLogs(broken.appId, 1)).toEqual([
      { method: 'POST', route: `${BASE}/withdrawals`, ip: '127.0.0.1', status: 400 },
    ]);
  });

  it('answers a method an operation does not take with 405 and Allow, an unknown path with 404', async () => {
    const { key } = await appWithKey(['deposits:read', 'accounts:write']);
    const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', url: string) =>
      t.inject({ method, url: `${BASE}${url}`, headers: { authorization: `Bearer ${key}` } });

    const deleted = await send('DELETE', '/deposits');
    expect(deleted.statusCode).toBe(405);
    expect(deleted.headers.allow).toBe('GET');
    expect(deleted.json()).toMatchObject({
      error: {
        code: 'method_not_allowed',
        doc_url: docUrl('method_not_allowed'),
        message: 'DELETE is not allowed here: use GET.',
        request_id: REQUEST_ID,
      },
    });
    const put = await send('PUT', '/accounts');
    expect([put.statusCode, put.headers.allow]).toEqual([405, 'GET, POST']);
    const patched = await send('PATCH', '/deposits/rcv_1?x=1');
    expect([patched.statusCode, patched.headers.allow]).toEqual([405, 'GET']);
    expect((await send('POST', '/deposits/')).headers.allow).toBe('GET');

    for (const url of ['/nope', '/deposits/rcv_1/refund', '/withdrawals/wd_1/x']) {
      const unknown = await send('DELETE', url);
      expect([url, unknown.statusCode, unknown.headers.allow]).toEqual([url, 404, undefined]);
      expect(unknown.json().error.code).toBe('not_found');
    }
  });

  it('reaches the same operation with a trailing slash', async () => {
    const { key } = await appWithKey(['deposits:read', 'accounts:write']);
    const get = (url: string) =>
      t.inject({
        method: 'GET',
        url: `${BASE}${url}`,
        headers: { authorization: `Bearer ${key}` },
      });
    const plain = await get('/deposits');
    const slashed = await get('/deposits/');
    expect(slashed.statusCode).toBe(200);
    expect(slashed.json()).toEqual(plain.json());
    expect((await get('/accounts/?limit=1')).json()).toEqual({ data: [], next_cursor: null });
    const created = await t.inject({
      method: 'POST',
      url: `${BASE}/accounts/`,
      headers: { authorization: `Bearer ${key}` },
      payload: { unique_id: 'slash-1', method: 'USDT-BEP20' },
    });
    expect(created.statusCode).toBe(201);
  });
});
