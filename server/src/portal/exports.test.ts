import { parse } from 'csv-parse/sync';
import { addMerchant, credit } from '../../test/moneyFixtures';
import { insertApp, insertInvoice, insertReceive } from '../../test/appRows';
import { expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';
import { EXPORT_LINK_MESSAGES } from '../domain/exports/links';

// Download CSV: a signed link made with the session, then the file through the link alone.

describe('portal exports', () => {
  const t = testAppPerBlock();

  async function merchantWithApp(name: string) {
    const merchant = await addMerchant(t, name);
    const appId = `app_${name}`;
    await insertApp(t, { id: appId, user_id: merchant.id, created_at: t.clock().toISOString() });
    return { ...merchant, appId };
  }

  const link = (headers: { authorization: string }, kind: string, body: object) =>
    t.call('createExportLink', { params: { kind }, body, headers });

  const follow = (url: string) => t.inject({ method: 'GET', url });

  it("downloads an app's Receive list through a link that needs no session", async () => {
    const { headers, appId } = await merchantWithApp('exp_a');
    await insertReceive(t, {
      id: 'rcv_exp_a',
      app_id: appId,
      unique_id: '=cmd|calc',
      amount_micro: 1_500_000,
      deposit_status: 3,
      created_at: t.clock().toISOString(),
    });
    const res = await link(headers, 'deposits', { app_id: appId, bom: true });
    expect(res.statusCode).toBe(200);
    const { url, expires_at } = res.json().data;
    expect(Date.parse(expires_at) - t.clock().getTime()).toBeLessThanOrEqual(60_000);
    const file = await follow(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="deposits-v1.csv"');
    const records = parse(file.body, { bom: true }) as string[][];
    expect(records.map((r) => [r[0], r[2], r[7], r[8]])).toEqual([
      ['id', 'unique_id', 'amount', 'status'],
      ['rcv_exp_a', "'=cmd|calc", '1.5', 'credited'],
    ]);
  });

  it("downloads the account's ledger, and refuses an app for it", async () => {
    const { id, headers } = await addMerchant(t, 'exp_b');
    await credit(t, id, '12.5');
    const refused = await link(headers, 'ledger', { app_id: 'app_x' });
    expectFieldErrors(refused, { app_id: [EXPORT_LINK_MESSAGES.noApp] });
    const res = await link(headers, 'ledger', {});
    const records = parse((await follow(res.json().data.url)).body) as string[][];
    expect(records.map((r) => [r[3], r[4], r[5]])).toEqual([
      ['type', 'amount', 'currency'],
      ['credit', '12.5', 'USDT'],
    ]);
  });

  it("downloads the invoices the Invoices tab's status and order id select", async () => {
    const { headers, appId } = await merchantWithApp('exp_f');
    const at = t.clock().toISOString();
    for (const [id, status, order_id] of [
      ['inv_exp_a', 'settled', 'order-1'],
      ['inv_exp_b', 'expired', 'order-1'],
      ['inv_exp_c', 'settled', 'order-2'],
    ] as const) {
      await insertInvoice(t, { id, app_id: appId, status, order_id, created_at: at });
    }
    const res = await link(headers, 'invoices', {
      app_id: appId,
      status: 'settled',
      order_id: 'order-1',
    });
    const records = parse((await follow(res.json().data.url)).body) as string[][];
    expect(records.slice(1).map((r) => r[0])).toEqual(['inv_exp_a']);
  });

  it("refuses another account's app, an app list without an app, and no session", async () => {
    const { appId } = await merchantWithApp('exp_c');
    const { headers } = await addMerchant(t, 'exp_d');
    expect((await link(headers, 'deposits', { app_id: appId })).statusCode).toBe(404);
    expectFieldErrors(await link(headers, 'withdrawals', {}), {
      app_id: [EXPORT_LINK_MESSAGES.appRequired],
    });
    const anonymous = await t.call('createExportLink', {
      params: { kind: 'ledger' },
      body: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a link past its minute or altered', async () => {
    const { headers, appId } = await merchantWithApp('exp_e');
    const { url } = (await link(headers, 'deposits', { app_id: appId })).json().data;
    const [, token = ''] = url.split('token=');
    const [payload = '', signature = ''] = token.slice('exp_'.length).split('.');
    const other = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), app: 'app_x' }),
    ).toString('base64url');
    const altered = await follow(url.replace(token, `exp_${other}.${signature}`));
    expect(altered.statusCode).toBe(403);
    expect(altered.json().msg).toBe(EXPORT_LINK_MESSAGES.invalid);
    t.clock.advance(61_000);
    const late = await follow(url);
    expect(late.statusCode).toBe(403);
    expect(late.json().msg).toBe(EXPORT_LINK_MESSAGES.expired);
  });
});
