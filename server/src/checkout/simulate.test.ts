import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import type { ChainAdapter } from '../domain/chain/adapter';
import { watchDeposits } from '../domain/payments/deposits';
import { INVOICE_SIMULATION_LIMIT, simulationRefusal } from '../domain/testMode/simulations';
import { ENGLISH, languageFor, say } from './messages';
import { CHECKOUT_CSP } from './plugin';

// A test invoice's checkout page pays itself: its buttons post a plain form to
// /pay/{id}/simulate, which makes the test helpers' transfer on the test network's local chain,
// and the watcher and the state machine take it from there. Live invoices, invoices that take no
// more payments and more than the limit a minute are refused with a page.

const HOST = 'pay.shop.test';

describe('simulated payments from the checkout page', () => {
  const t = testAppPerBlock({
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', CHECKOUT_RATE_LIMIT_MAX: '10000' },
  });
  let serial = 0;

  /** An invoice of a test app (or a live one) taking USDT (BEP20), made through the gateway. */
  async function invoice(options: { live?: boolean } = {}) {
    serial += 1;
    const tag = `sim${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    const appId = `app_${tag}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: t.clock().toISOString(),
      livemode: options.live ? 1 : 0,
    });
    await insertAppMethod(t, {
      id: `apm_${tag}`,
      app_id: appId,
      payment_method_id: options.live ? 'pm_usdt_bsc' : 'pm_usdt_bsc_test',
    });
    // A live invoice needs a package; test mode needs none.
    if (options.live) await insertSubscription(t, userId);
    const key = await insertApiKey(t, {
      id: `key_${tag}`,
      app_id: appId,
      abilities: ['invoices:write'],
    });
    const res = await t.inject({
      method: 'POST',
      url: '/gateway/v1/invoices',
      headers: { host: HOST, authorization: `Bearer ${key}` },
      payload: { amount: '10', currency: 'USD' },
    });
    expect(res.statusCode).toBe(201);
    return { id: res.json<{ id: string }>().id, appId };
  }

  const page = (url: string) =>
    t.inject({ method: 'GET', url, headers: { host: HOST, accept: 'text/html' } });

  const simulate = (id: string, fields: Record<string, string>, query = '') =>
    t.inject({
      method: 'POST',
      url: `/pay/${id}/simulate${query}`,
      headers: {
        host: HOST,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(fields).toString(),
    });

  const status = (id: string) =>
    t.db.selectFrom('invoices').select('status').where('id', '=', id).executeTakeFirstOrThrow();

  const watch = () => watchDeposits(t.db, chainAdapterFor(t.config, t.db, 97), t.clock());

  it('offers full, partial and over on a test invoice, as a plain form, and none on a live one', async () => {
    const test = await invoice();
    const html = (await page(`/pay/${test.id}`)).body;
    expect(html).toContain(
      `<form class="simulate" action="/pay/${test.id}/simulate" method="post">`,
    );
    for (const [scenario, label] of [
      ['full', 'Simulate full payment'],
      ['partial', 'Simulate partial payment'],
      ['over', 'Simulate overpayment'],
    ]) {
      expect(html).toContain(
        `<button type="submit" value="${scenario}" name="scenario">${label}</button>`,
      );
    }
    expect(html).toContain('<input type="hidden" name="method" value="USDT-BEP20"/>');
    // Every label in the shopper's language, the picked one kept in the form's action.
    const japanese = (await page(`/pay/${test.id}?lang=ja`)).body;
    const ja = languageFor('ja', undefined);
    expect(japanese).toContain(`action="/pay/${test.id}/simulate?lang=ja"`);
    expect(japanese).toContain(say(ja, 'test.full'));
    expect(japanese).toContain(say(ja, 'test.over'));
    const live = await invoice({ live: true });
    expect((await page(`/pay/${live.id}`)).body).not.toContain('class="simulate"');
  });

  it('pays through the watcher: a 303 back to the page, then the invoice moves', async () => {
    const { id } = await invoice();
    const res = await simulate(id, { scenario: 'partial', method: 'USDT-BEP20' }, '?lang=fr');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/pay/${id}?method=USDT-BEP20&lang=fr`);
    expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    await watch();
    // Half of it: still new, partly paid, the page asks for the rest and still offers the buttons.
    expect((await status(id)).status).toBe('new');
    const partial = (await page(`/pay/${id}`)).body;
    expect(partial).toContain('screen-partial');
    expect(partial).toContain('value="full"');

    expect((await simulate(id, { scenario: 'full' })).statusCode).toBe(303);
    await watch();
    expect((await status(id)).status).toBe('processing');
    // Paid in full: only more than that can be simulated now.
    const seen = (await page(`/pay/${id}`)).body;
    expect(seen).toContain('value="over"');
    expect(seen).not.toContain('value="full"');
    const again = await simulate(id, { scenario: 'full' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(say(ENGLISH, 'test.paidInFull'));
    expect((await simulate(id, { scenario: 'over' })).statusCode).toBe(303);
  });

  it('refuses a live invoice, a settled one, a bad scenario and an unknown invoice', async () => {
    const live = await invoice({ live: true });
    const refused = await simulate(live.id, { scenario: 'full' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain(say(ENGLISH, 'test.live'));
    expect(refused.body).toContain(`<a href="/pay/${live.id}">${say(ENGLISH, 'test.back')}</a>`);
    const transfers = await t.db.selectFrom('chain_transfers').select('tx_hash').execute();

    const settled = await invoice();
    await t.db
      .updateTable('invoices')
      .set({ status: 'settled' })
      .where('id', '=', settled.id)
      .execute();
    const final = await simulate(settled.id, { scenario: 'full' }, '?lang=ar');
    expect(final.statusCode).toBe(409);
    expect(final.body).toContain('dir="rtl"');
    expect(final.body).toContain(say(languageFor('ar', undefined), 'test.final'));
    expect((await page(`/pay/${settled.id}`)).body).not.toContain('class="simulate"');

    const open = await invoice();
    expect((await simulate(open.id, { scenario: 'late' })).statusCode).toBe(400);
    expect((await simulate(open.id, { scenario: 'full', method: 'ETH-ERC20' })).statusCode).toBe(
      400,
    );
    expect(
      (await simulate('inv_00000000000000000000000000', { scenario: 'full' })).statusCode,
    ).toBe(404);
    // Nothing refused made a transfer.
    expect(await t.db.selectFrom('chain_transfers').select('tx_hash').execute()).toEqual(transfers);
  });

  it(`allows ${INVOICE_SIMULATION_LIMIT} simulations a minute per invoice`, async () => {
    const { id } = await invoice();
    for (let i = 0; i < INVOICE_SIMULATION_LIMIT; i += 1) {
      expect((await simulate(id, { scenario: 'over' })).statusCode).toBe(303);
    }
    const limited = await simulate(id, { scenario: 'over' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain(say(ENGLISH, 'test.tooMany'));
  });
});

describe('which invoices a page offers simulations on', () => {
  const local = new Map<number, ChainAdapter>([[97, {} as ChainAdapter]]);

  it('only a test invoice still payable, on a chain this server runs locally', () => {
    const open = { livemode: false, status: 'new', chainId: 97 };
    expect(simulationRefusal(open, local)).toBeNull();
    expect(simulationRefusal({ ...open, status: 'processing' }, local)).toBeNull();
    expect(simulationRefusal({ ...open, livemode: true }, local)).toBe('live');
    for (const status of ['settled', 'expired', 'invalid']) {
      expect(simulationRefusal({ ...open, status }, local)).toBe('final');
    }
    // A test chain pointed at the public testnet (an RPC configured): no local chain to pay on.
    expect(simulationRefusal({ ...open, chainId: 11155111 }, local)).toBe('testnet');
  });
});
