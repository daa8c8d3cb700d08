import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { IDEMPOTENCY_KEY_REUSED } from '../domain/payments/idempotency';
import { paymentLinkBySlug, payInvoice } from '../domain/paymentLinks/paymentLinks';
import { RateBook } from '../domain/rates/rates';

// Payment links through the gateway over HTTP, as a merchant's server sees them: a new link and
// its URL, every bad field named, Idempotency-Key, the list, one link read with its totals, its
// deactivation, the abilities, and a link's invoices through GET /invoices?payment_link=.

const BASE = '/gateway/v1';
const HOST = 'pay.shop.test';

describe('gateway payment links', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  /** A merchant with a package, USDT (BEP20) enabled, and a key. */
  async function merchant(abilities = ['invoices:write']) {
    serial += 1;
    const tag = `gpl${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}_usdt`, app_id: appId });
    const key = await insertApiKey(t, { id: `key_${tag}`, app_id: appId, abilities });
    return { appId, key };
  }

  const send = (
    method: 'GET' | 'POST',
    url: string,
    key: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.inject({
      method,
      url: `${BASE}${url}`,
      headers: { host: HOST, authorization: `Bearer ${key}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const mug = {
    title: 'Blue mug',
    description: 'From the spring batch',
    amount: '25.00',
    currency: 'USD',
    methods: ['USDT-BEP20'],
    redirect_url: 'https://shop.example.com/thanks',
    max_uses: 100,
  };

  /** A shopper's "Pay" on the link's page, as its page calls the domain. */
  async function shopperPays(url: string, visit: string, amount?: string) {
    const found = await paymentLinkBySlug(t.db, url.split('/').pop() ?? '', t.clock());
    if (!found) throw new Error(`no link at ${url}`);
    return payInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        link: found.link,
        amount,
        visit,
        checkoutOrigin: `http://${HOST}`,
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => listed,
      },
    );
  }

  it('creates a link whose page is on the gateway’s origin, and reads it back', async () => {
    const { key } = await merchant();
    const res = await send('POST', '/payment-links', key, mug);
    expect(res.statusCode).toBe(201);
    const link = res.json();
    const now = t.clock().toISOString();
    expect(link).toEqual({
      livemode: true,
      id: expect.stringMatching(/^plink_[0-9a-z]{26}$/),
      url: expect.stringMatching(new RegExp(`^http://${HOST}/l/[a-z0-9]{16}$`)),
      title: 'Blue mug',
      description: 'From the spring batch',
      amount: '25.00',
      amount_min: null,
      amount_max: null,
      currency: 'USD',
      methods: ['USDT-BEP20'],
      redirect_url: 'https://shop.example.com/thanks',
      expires_at: null,
      max_uses: 100,
      status: 'active',
      created_at: now,
      updated_at: now,
      totals: { invoices: 0, paid_invoices: 0, amount_paid: '0.00', uses: 0 },
    });
    expect((await send('GET', `/payment-links/${link.id}`, key)).json()).toEqual(link);
    // Another app's link is not found.
    const other = await merchant();
    const missing = await send('GET', `/payment-links/${link.id}`, other.key);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('names every bad field, from the contract and from the rules', async () => {
    const { key } = await merchant();
    const contract = await send('POST', '/payment-links', key, {
      title: '',
      amount: '25,00',
      currency: 'USD',
      expires_at: 'tomorrow',
      max_uses: 0,
    });
    expect(contract.statusCode).toBe(422);
    expect(contract.json().error).toMatchObject({
      code: 'invalid_request',
      fields: {
        title: ['title must not be empty, like "Blue mug".'],
        amount: ['amount must be a decimal string like "25.00".'],
        expires_at: ['expires_at must be an RFC 3339 date-time, like "2026-12-31T23:59:59Z".'],
        max_uses: ['max_uses must be a whole number from 1 to 1000000, like 100.'],
      },
    });
    const rules = await send('POST', '/payment-links', key, {
      title: 'Gift',
      amount: '10',
      amount_min: '20',
      amount_max: '10',
      currency: 'JPY',
      methods: ['ETH-ETHEREUM'],
      expires_at: new Date(t.clock().getTime() - 1000).toISOString(),
    });
    expect(rules.statusCode).toBe(422);
    expect(rules.json().error.fields).toEqual({
      amount: [
        'Give either amount (a fixed price) or amount_min and amount_max (the shopper chooses within them), not both.',
      ],
      methods: ['The app has not enabled ETH-ETHEREUM.'],
      expires_at: [expect.stringMatching(/^expires_at must be in the future/)],
    });
    const range = await send('POST', '/payment-links', key, {
      title: 'Gift',
      amount_min: '20.5',
      amount_max: '10',
      currency: 'JPY',
    });
    expect(range.json().error.fields).toEqual({
      amount_min: ['JPY has 0 decimals: amount_min has more (20.5).'],
    });
    expect((await send('GET', '/payment-links', key)).json().data).toEqual([]);
  });

  it('honours Idempotency-Key as invoices do', async () => {
    const { key } = await merchant();
    const headers = { 'idempotency-key': 'mug-link-1' };
    const first = await send('POST', '/payment-links', key, mug, headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(
      'POST',
      '/payment-links',
      key,
      Object.fromEntries(Object.entries(mug).reverse()),
      headers,
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await send('POST', '/payment-links', key, { ...mug, amount: '26' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.fields).toEqual({ 'Idempotency-Key': [IDEMPOTENCY_KEY_REUSED] });
    expect((await send('GET', '/payment-links', key)).json().data).toHaveLength(1);
  });

  it('lists links newest first, page by page, refusing another list’s cursor', async () => {
    const { key } = await merchant();
    const ids = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(
        (await send('POST', '/payment-links', key, { ...mug, title: `Mug ${i}` })).json().id,
      );
      t.clock.advance(1000);
    }
    const first = (await send('GET', '/payment-links?limit=2', key)).json();
    expect(first.data.map((l: { id: string }) => l.id)).toEqual([ids[2], ids[1]]);
    const second = (
      await send('GET', `/payment-links?limit=2&cursor=${first.next_cursor as string}`, key)
    ).json();
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    // A cursor of the invoices is not one of the links.
    await send('POST', '/invoices', key, { amount: '1', currency: 'USD' });
    await send('POST', '/invoices', key, { amount: '2', currency: 'USD' });
    const invoices = (await send('GET', '/invoices?limit=1', key)).json();
    const refused = await send(
      'GET',
      `/payment-links?cursor=${invoices.next_cursor as string}`,
      key,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields.cursor[0]).toMatch(
      /^This cursor belongs to GET \/invoices, not GET \/payment-links/,
    );
  });

  it("lists a link's invoices and counts what they brought", async () => {
    const { appId, key } = await merchant();
    const link = (
      await send('POST', '/payment-links', key, {
        title: 'Donation',
        amount_min: '1',
        currency: 'USD',
      })
    ).json();
    const other = (await send('POST', '/payment-links', key, mug)).json();
    const a = await shopperPays(link.url, 'a'.repeat(22), '10.10');
    t.clock.advance(1000);
    const b = await shopperPays(link.url, 'b'.repeat(22), '5');
    t.clock.advance(1000);
    await shopperPays(other.url, 'c'.repeat(22));
    t.clock.advance(1000);
    await send('POST', '/invoices', key, { amount: '3', currency: 'USD' });
    await t.db
      .updateTable('invoices')
      .set({ status: 'settled' })
      .where('app_id', '=', appId)
      .where('id', 'in', [a.id, b.id])
      .execute();

    const page = await send('GET', `/invoices?payment_link=${link.id as string}`, key);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toEqual([
      expect.objectContaining({ id: b.id, payment_link_id: link.id, description: 'Donation' }),
      expect.objectContaining({ id: a.id, payment_link_id: link.id, amount: '10.10' }),
    ]);
    expect((await send('GET', `/payment-links/${link.id as string}`, key)).json()).toMatchObject({
      status: 'active',
      totals: { invoices: 2, paid_invoices: 2, amount_paid: '15.10', uses: 2 },
    });
    // Invoices made otherwise have none.
    const all = (await send('GET', '/invoices', key)).json().data as { payment_link_id: unknown }[];
    expect(all.map((i) => i.payment_link_id)).toEqual([null, other.id, link.id, link.id]);
  });

  it('deactivates a link once, for good', async () => {
    const { key } = await merchant();
    const link = (await send('POST', '/payment-links', key, mug)).json();
    t.clock.advance(1000);
    const off = await send('POST', `/payment-links/${link.id as string}/deactivate`, key);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      ...link,
      status: 'deactivated',
      updated_at: t.clock().toISOString(),
    });
    t.clock.advance(1000);
    expect(
      (await send('POST', `/payment-links/${link.id as string}/deactivate`, key)).json(),
    ).toEqual(off.json());
    expect((await send('POST', '/payment-links/plink_none/deactivate', key)).statusCode).toBe(404);
  });

  it('reads with invoices:read and needs invoices:write to create or deactivate', async () => {
    const writer = await merchant();
    const link = (await send('POST', '/payment-links', writer.key, mug)).json();
    const reader = await insertApiKey(t, {
      id: `key_reader_${serial}`,
      app_id: writer.appId,
      abilities: ['invoices:read'],
    });
    expect((await send('GET', '/payment-links', reader)).statusCode).toBe(200);
    expect((await send('GET', `/payment-links/${link.id as string}`, reader)).statusCode).toBe(200);
    for (const refused of [
      await send('POST', '/payment-links', reader, mug),
      await send('POST', `/payment-links/${link.id as string}/deactivate`, reader),
    ]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'ability_missing',
        message: 'This API key lacks the invoices:write ability.',
      });
    }
    const stranger = await merchant(['deposits:read']);
    expect((await send('GET', '/payment-links', stranger.key)).json().error.message).toBe(
      'This API key lacks the invoices:read ability.',
    );
  });
});
