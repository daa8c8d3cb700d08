import { parse } from 'csv-parse/sync';
import { insertInvoice, insertMerchantApp, insertReceive } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';

// GET /gateway/v1/exports/{kind}: the app's records as CSV, each kind behind its records' ability.

const BASE = '/gateway/v1';

describe('gateway exports', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });

  const get = (key: string, url: string) =>
    t.inject({
      method: 'GET',
      url: `${BASE}${url}`,
      headers: { authorization: `Bearer ${key}` },
      remoteAddress: '127.0.0.1',
    });

  it('streams the deposits of a period as CSV, newest first, with the version sent', async () => {
    const { appId, key } = await insertMerchantApp(t, 'gwx1', ['deposits:read']);
    for (const [id, at] of [
      ['rcv_old', '2026-10-31T23:59:59.999Z'],
      ['rcv_a', '2026-11-01T00:00:00.000Z'],
      ['rcv_b', '2026-11-15T08:00:00.000Z'],
      ['rcv_late', '2026-12-01T00:00:00.000Z'],
    ] as const) {
      await insertReceive(t, {
        id,
        app_id: appId,
        unique_id: 'c',
        amount_micro: 2_500_000,
        deposit_status: 1,
        created_at: at,
      });
    }
    const res = await get(
      key,
      '/exports/deposits?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z&format=csv',
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="deposits-v1.csv"');
    expect(res.headers['export-version']).toBe('1');
    const records = parse(res.body) as string[][];
    expect(records.map((r) => [r[0], r[7], r[8]])).toEqual([
      ['id', 'amount', 'status'],
      ['rcv_b', '2.5', 'completed'],
      ['rcv_a', '2.5', 'completed'],
    ]);
  });

  it('begins with a byte-order mark when asked', async () => {
    const { key } = await insertMerchantApp(t, 'gwx2', ['deposits:read']);
    const res = await get(key, '/exports/deposits?bom=true');
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(res.body.slice(1).split('\r\n')[0]).toMatch(/^id,created_at,/);
  });

  it('needs the ability of the kind', async () => {
    const { key } = await insertMerchantApp(t, 'gwx3', ['deposits:read']);
    const refused = await get(key, '/exports/api_logs');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: { code: 'ability_missing', message: 'This API key lacks the logs:read ability.' },
    });
    const { key: writer } = await insertMerchantApp(t, 'gwx4', ['withdrawals:write']);
    expect((await get(writer, '/exports/withdrawals')).statusCode).toBe(200);
    expect((await get(writer, '/exports/deposits')).statusCode).toBe(403);
  });

  it("needs both the invoices' and the deposits' ability for the reconciliation", async () => {
    const { key: deposits } = await insertMerchantApp(t, 'gwx_r1', ['deposits:read']);
    expect((await get(deposits, '/exports/reconciliation')).json()).toMatchObject({
      error: { code: 'ability_missing', message: 'This API key lacks the invoices:read ability.' },
    });
    const { key: invoices } = await insertMerchantApp(t, 'gwx_r2', ['invoices:read']);
    expect((await get(invoices, '/exports/reconciliation')).json()).toMatchObject({
      error: { code: 'ability_missing', message: 'This API key lacks the deposits:read ability.' },
    });
    const { key: both } = await insertMerchantApp(t, 'gwx_r3', ['invoices:read', 'deposits:read']);
    const res = await get(both, '/exports/reconciliation');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="reconciliation-v1.csv"');
  });

  it("filters invoices by the Invoices list's status and order id, with the range", async () => {
    const { appId, key } = await insertMerchantApp(t, 'gwx6', ['invoices:read']);
    for (const [id, status, order_id, at] of [
      ['inv_gwx_a', 'settled', 'order-1', '2026-11-02T00:00:00.000Z'],
      ['inv_gwx_b', 'expired', 'order-1', '2026-11-03T00:00:00.000Z'],
      ['inv_gwx_c', 'settled', 'order-2', '2026-11-04T00:00:00.000Z'],
      ['inv_gwx_d', 'settled', 'order-1', '2026-12-02T00:00:00.000Z'],
    ] as const) {
      await insertInvoice(t, { id, app_id: appId, status, order_id, created_at: at });
    }
    const ids = async (query: string) => {
      const res = await get(key, `/exports/invoices?${query}`);
      expect(res.statusCode).toBe(200);
      return (parse(res.body) as string[][]).slice(1).map((r) => r[0]);
    };
    expect(await ids('status=settled')).toEqual(['inv_gwx_d', 'inv_gwx_c', 'inv_gwx_a']);
    expect(await ids('order_id=order-1')).toEqual(['inv_gwx_d', 'inv_gwx_b', 'inv_gwx_a']);
    expect(await ids('status=settled&order_id=order-1&to=2026-12-01T00:00:00Z')).toEqual([
      'inv_gwx_a',
    ]);
  });

  it('refuses a bad status or order id, and either on a kind without them', async () => {
    const { key } = await insertMerchantApp(t, 'gwx7', ['invoices:read', 'deposits:read']);
    const status = await get(key, '/exports/invoices?status=paid');
    expect(status.statusCode).toBe(422);
    expect(status.json()).toMatchObject({
      error: {
        code: 'invalid_request',
        fields: { status: ['Status must be one of: new, processing, settled, expired, invalid'] },
      },
    });
    const long = await get(key, `/exports/invoices?order_id=${'x'.repeat(129)}`);
    expect(long.statusCode).toBe(422);
    expect(long.json().error.fields).toEqual({
      order_id: ['order_id must be at most 128 characters, like "order-1042".'],
    });
    const empty = await get(key, '/exports/invoices?order_id=');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.fields).toEqual({ order_id: ['Order id is required'] });
    const deposits = await get(key, '/exports/deposits?status=settled');
    expect(deposits.statusCode).toBe(422);
    expect(deposits.json().error.fields).toEqual({
      status: ['Only the invoices list is filtered by status and order id.'],
    });
    const payments = await get(key, '/exports/payments?order_id=order-1');
    expect(payments.statusCode).toBe(422);
    expect(payments.json().error.fields).toEqual({
      order_id: ['Only the invoices list is filtered by status and order id.'],
    });
  });

  it('refuses an unknown kind, version or format with a message naming the field', async () => {
    const { key } = await insertMerchantApp(t, 'gwx5', ['deposits:read']);
    const version = await get(key, '/exports/deposits?version=2');
    expect(version.statusCode).toBe(422);
    expect(version.json()).toMatchObject({
      error: {
        code: 'invalid_request',
        fields: { version: ['The deposits export has versions 1 to 1, not 2.'] },
      },
    });
    const kind = await get(key, '/exports/secrets');
    expect(kind.statusCode).toBe(422);
    expect(kind.json().error.message).toMatch(/kind must be one of deposits/);
    const format = await get(key, '/exports/deposits?format=xlsx');
    expect(format.statusCode).toBe(422);
    expect(format.json().error.message).toBe('format must be csv.');
    const range = await get(
      key,
      '/exports/deposits?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z',
    );
    expect(range.statusCode).toBe(422);
    expect(range.json().error.fields).toEqual({ to: ['to must not be before from.'] });
  });
});
