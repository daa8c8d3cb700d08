import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { PNG } from '../../test/images';
import { multipart } from '../../test/multipart';
import { testAppPerBlock } from '../../test/withTestApp';
import type { TestApp } from '../../test/testApp';
import { languageFor, say, type MessageId } from './messages';
import { CHECKOUT_CSP } from './plugin';
import { formatters } from './screens';

// A payment link's page over HTTP, as a shopper's browser meets it without JavaScript: what it
// shows and its headers, a fixed price and a chosen one, every refusal with its message next to
// the field, the 303 to the invoice's checkout page, one invoice per visit, closed and unknown
// links, the shopper's language, a clear page when no invoice can be made, and the budget of
// invoices per client address.

const HOST = 'pay.shop.test';
const ENGLISH = languageFor('en', undefined);
const FRENCH = languageFor('fr', undefined);

/** The page's text, tags dropped and entities read. */
const text = (html: string) =>
  html
    .replace(/<title>.*?<\/title>/s, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const en = (id: MessageId, params?: Record<string, string>) => say(ENGLISH, id, params);
const visitOf = (html: string) => /name="visit" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** Helpers over one test app: a merchant, its links through the gateway, and the page. */
function shop(t: TestApp) {
  let serial = 0;
  return {
    /** An app called Mug Shop with USDT (BEP20), a package unless told, and a gateway key. */
    async merchant(options: { subscribed?: boolean } = {}) {
      serial += 1;
      const tag = `lk${serial}_${Math.random().toString(36).slice(2, 8)}`;
      const userId = await addUser(t, `merchant_${tag}`);
      if (options.subscribed !== false) await insertSubscription(t, userId);
      const appId = `app_${tag}`;
      await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
      await t.db
        .updateTable('apps')
        .set({ app_name: 'Mug Shop' })
        .where('id', '=', appId)
        .execute();
      await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
      const key = await insertApiKey(t, {
        id: `key_${tag}`,
        app_id: appId,
        abilities: ['invoices:write'],
      });
      return { appId, key, username: `merchant_${tag}` };
    },
    /** A link made through the gateway; its id and page's path. */
    async link(key: string, fields: Record<string, unknown>) {
      const res = await t.inject({
        method: 'POST',
        url: '/gateway/v1/payment-links',
        headers: { host: HOST, authorization: `Bearer ${key}` },
        payload: { title: 'Blue mug', currency: 'USD', ...fields },
      });
      expect(res.statusCode).toBe(201);
      const link = res.json() as { id: string; url: string };
      return { id: link.id, path: new URL(link.url).pathname };
    },
    page: (path: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
      t.inject({
        method: 'GET',
        url: path,
        headers: { host: HOST, accept: 'text/html', ...headers },
        ...(remoteAddress ? { remoteAddress } : {}),
      }),
    post: (
      path: string,
      fields: Record<string, string>,
      headers: Record<string, string> = {},
      remoteAddress?: string,
    ) =>
      t.inject({
        method: 'POST',
        url: path,
        headers: {
          host: HOST,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          ...headers,
        },
        payload: new URLSearchParams(fields).toString(),
        ...(remoteAddress ? { remoteAddress } : {}),
      }),
    /** The invoices made from link `id`. */
    invoicesOf: (id: string) =>
      t.db
        .selectFrom('invoices')
        .select(['id', 'amount', 'description', 'status'])
        .where('payment_link_id', '=', id)
        .orderBy('created_at')
        .execute(),
  };
}

describe('payment link page', () => {
  const t = testAppPerBlock({
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', CHECKOUT_RATE_LIMIT_MAX: '10000' },
  });
  const s = shop(t);

  it('shows the app’s initial without a logo, and its logo, sized, with one', async () => {
    const { key, appId, username } = await s.merchant();
    const { path } = await s.link(key, { amount: '12.50' });
    const before = (await s.page(path)).body;
    expect(before).toContain('<span class="logo" aria-hidden="true">M</span>');
    expect(before).not.toContain('<img');

    const body = multipart([{ name: 'logo', value: PNG, filename: 'mug.png' }]);
    const uploaded = await t.call('uploadAppLogo', {
      params: { id: appId },
      headers: { ...(await t.authHeader(username)), ...body.headers },
      body: body.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const logo = uploaded.json<{ data: { logo: string } }>().data.logo;

    const after = (await s.page(path)).body;
    expect(after).toContain(
      `<img class="logo logo-image" src="/api/images/${logo}" alt="" width="40" height="40"/>`,
    );
    expect(after).not.toContain('<span class="logo"');
    expect(text(after)).toContain('Mug Shop');
  });

  it('says on a test app’s link, right to left too, that no real money moves', async () => {
    const { key, appId } = await s.merchant();
    const { path } = await s.link(key, { amount: '12.50' });
    expect((await s.page(path)).body).not.toContain('class="test-mode"');
    await t.db.updateTable('apps').set({ livemode: 0 }).where('id', '=', appId).execute();
    expect((await s.page(path)).body).toContain(
      `<p class="test-mode" role="status">${en('test.banner')}</p>`,
    );
    const arabic = (await s.page(`${path}?lang=ar`)).body;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain(
      `<p class="test-mode" role="status">${say(languageFor('ar', undefined), 'test.banner')}</p>`,
    );
  });

  it('shows the link with a plain form and no script, under the checkout’s headers', async () => {
    const { key } = await s.merchant();
    const expires = new Date(t.clock().getTime() + 7 * 86_400_000);
    const { path } = await s.link(key, {
      description: 'From the spring batch <b>',
      amount: '25.00',
      expires_at: expires.toISOString(),
    });
    const res = await s.page(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Accept-Language/i);
    const html = res.body;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain(`<form action="${path}" method="post">`);
    expect(visitOf(html)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(html).not.toContain('name="lang"');
    expect(html).not.toContain('name="amount"');
    expect(html.match(/<button/g)).toHaveLength(1);
    const shown = text(html);
    for (const sentence of [
      'Payment to Mug Shop',
      'Blue mug',
      `${en('link.amount')}: $25.00`,
      en('link.pay'),
      en('link.next'),
      en('link.until', { date: formatters(ENGLISH).time(expires.toISOString()) }),
    ]) {
      expect(shown).toContain(sentence);
    }
    // Escaped, never markup.
    expect(html).toContain('From the spring batch &lt;b&gt;');
    // Every drawing of the page is a new visit.
    expect(visitOf((await s.page(path)).body)).not.toBe(visitOf(html));
  });

  it('makes the invoice of a fixed price and sends the shopper to its checkout page', async () => {
    const { key } = await s.merchant();
    const { id, path } = await s.link(key, {
      amount: '25.00',
      redirect_url: 'https://shop.example.com/thanks',
    });
    const visit = visitOf((await s.page(path)).body);
    const res = await s.post(path, { visit, amount: '99' });
    expect(res.statusCode).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/pay\/inv_[0-9a-z]{26}$/);
    expect(await s.invoicesOf(id)).toEqual([
      { id: location.slice(5), amount: '25.00', description: 'Blue mug', status: 'new' },
    ]);
    // The checkout page is there.
    expect((await s.page(location)).statusCode).toBe(200);
    // The same visit again (a reload of the POST, a second click): the same invoice.
    const again = await s.post(path, { visit });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(location);
    // Twice at once: still one.
    const other = visitOf((await s.page(path)).body);
    const [a, b] = await Promise.all([
      s.post(path, { visit: other }),
      s.post(path, { visit: other }),
    ]);
    expect(a.headers.location).toBe(b.headers.location);
    expect(await s.invoicesOf(id)).toHaveLength(2);
  });

  it("takes the shopper's amount within the range, with a point or a comma", async () => {
    const { key } = await s.merchant();
    const { id, path } = await s.link(key, { amount_min: '5', amount_max: '500' });
    const html = (await s.page(path)).body;
    const input = /<input id="amount"[^>]*>/.exec(html)?.[0] ?? '';
    for (const attribute of [
      'name="amount"',
      'type="text"',
      'inputMode="decimal"',
      'value=""',
      'aria-describedby="amount-range"',
    ]) {
      expect(input).toContain(attribute);
    }
    expect(input).not.toContain('aria-invalid');
    expect(text(html)).toContain(en('link.amountLabel', { currency: 'USD' }));
    expect(text(html)).toContain(en('link.range', { min: '$5.00', max: '$500.00' }));
    const comma = await s.post(path, { visit: visitOf(html), amount: '25,50' });
    expect(comma.statusCode).toBe(303);
    const point = await s.post(path, { visit: visitOf((await s.page(path)).body), amount: '7.5' });
    expect(point.statusCode).toBe(303);
    expect((await s.invoicesOf(id)).map((i) => i.amount).sort()).toEqual(['25.50', '7.5']);

    const { path: atLeast } = await s.link(key, { amount_min: '5' });
    expect(text((await s.page(atLeast)).body)).toContain(en('link.rangeMin', { min: '$5.00' }));
    const { path: atMost } = await s.link(key, { amount_max: '500' });
    expect(text((await s.page(atMost)).body)).toContain(en('link.rangeMax', { max: '$500.00' }));
  });

  it('refuses a bad amount next to the field, keeping what was typed and the visit', async () => {
    const { key } = await s.merchant();
    const { id, path } = await s.link(key, { amount_min: '5', amount_max: '500' });
    const visit = visitOf((await s.page(path)).body);
    for (const [typed, sentence] of [
      ['abc"><b>', en('link.amountInvalid')],
      ['', en('link.amountInvalid')],
      ['1.000,00', en('link.amountInvalid')],
      ['25.001', en('link.amountPlaces', { currency: 'USD' })],
      ['4.99', en('link.amountTooLow', { min: '$5.00' })],
      ['500.01', en('link.amountTooHigh', { max: '$500.00' })],
    ] as const) {
      const res = await s.post(path, { visit, amount: typed });
      expect({ typed, status: res.statusCode }).toEqual({ typed, status: 400 });
      expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      expect(res.body).toContain(
        'aria-describedby="amount-error amount-range" aria-invalid="true"',
      );
      expect(res.body).toContain(`<p id="amount-error" class="field-error">${sentence}</p>`);
      expect(res.body).toContain(
        `value="${typed.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`,
      );
      expect(visitOf(res.body)).toBe(visit);
    }
    expect(await s.invoicesOf(id)).toEqual([]);
    // The same visit, mended, pays.
    expect((await s.post(path, { visit, amount: '5' })).statusCode).toBe(303);
  });

  it('closes a link that is deactivated, expired or used up, saying why, with a 410', async () => {
    const { key } = await s.merchant();
    const closed = async (path: string) => {
      const page = await s.page(path);
      const post = await s.post(path, { visit: 'x'.repeat(22) });
      expect([page.statusCode, post.statusCode]).toEqual([410, 410]);
      expect(page.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      expect(text(post.body)).toBe(text(page.body));
      expect(text(page.body)).toContain(en('link.closedHeading'));
      return text(page.body);
    };

    const off = await s.link(key, { amount: '10' });
    const visit = visitOf((await s.page(off.path)).body);
    const made = (await s.post(off.path, { visit })).headers.location;
    await t.inject({
      method: 'POST',
      url: `/gateway/v1/payment-links/${off.id}/deactivate`,
      headers: { host: HOST, authorization: `Bearer ${key}` },
    });
    expect(await closed(off.path)).toContain(en('link.off', { app: 'Mug Shop' }));
    // The visit that made an invoice still goes to it.
    expect((await s.post(off.path, { visit })).headers.location).toBe(made);

    const expires = new Date(t.clock().getTime() + 60_000);
    const soon = await s.link(key, { amount: '10', expires_at: expires.toISOString() });
    const drawn = (await s.page(soon.path)).body;
    t.clock.advance(60_000);
    const date = formatters(ENGLISH).time(expires.toISOString());
    expect(await closed(soon.path)).toContain(en('link.expired', { date, app: 'Mug Shop' }));
    // A page drawn before it expired, posted after.
    expect((await s.post(soon.path, { visit: visitOf(drawn) })).statusCode).toBe(410);

    const once = await s.link(key, { amount: '10', max_uses: 1 });
    const first = await s.post(once.path, { visit: visitOf((await s.page(once.path)).body) });
    await t.db
      .updateTable('invoices')
      .set({ status: 'settled' })
      .where('id', '=', (first.headers.location as string).slice(5))
      .execute();
    expect(await closed(once.path)).toContain(en('link.usedUp', { app: 'Mug Shop' }));
  });

  it('answers an unknown link with a 404 in the shopper’s language', async () => {
    for (const path of ['/l/aaaaaaaaaaaaaaaa', '/l/NOT-A-SLUG', `/l/${'a'.repeat(300)}`]) {
      const res = await s.page(path, { 'accept-language': 'fr-FR,fr;q=0.9' });
      expect({ path, status: res.statusCode }).toEqual({ path, status: 404 });
      expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      expect(res.body).toContain('<html lang="fr"');
      expect(text(res.body)).toContain(say(FRENCH, 'link.notFoundHeading'));
      expect(text(res.body)).toContain(say(FRENCH, 'link.notFound'));
    }
    expect((await s.post('/l/aaaaaaaaaaaaaaaa', { visit: 'x'.repeat(22) })).statusCode).toBe(404);
  });

  it("speaks the browser's language, and keeps the one the shopper picks to the checkout", async () => {
    const { key } = await s.merchant();
    const { path } = await s.link(key, { amount: '1234.5', currency: 'USDT' });
    const french = await s.page(path, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(french.body).toContain('<html lang="fr" dir="ltr">');
    // French typography: a no-break space before the colon.
    expect(text(french.body)).toContain(
      text(`${say(FRENCH, 'link.amount')}\u00a0: 1\u202f234,5 USDT`),
    );
    expect(text(french.body)).toContain(say(FRENCH, 'link.pay'));
    expect(french.body).not.toContain('name="lang"');

    const picked = await s.page(`${path}?lang=ja`, { 'accept-language': 'fr-FR' });
    expect(picked.body).toContain('<html lang="ja"');
    expect(picked.body).toContain('<input type="hidden" name="lang" value="ja"/>');
    const paid = await s.post(
      path,
      { visit: visitOf(picked.body), lang: 'ja' },
      { 'accept-language': 'fr-FR' },
    );
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(/^\/pay\/inv_[0-9a-z]{26}\?lang=ja$/);
    // A refusal comes back in the picked language, and the language's own decimal comma works.
    const { path: open } = await s.link(key, { amount_min: '5' });
    const refused = await s.post(open, { visit: 'y'.repeat(22), amount: '1,5', lang: 'fr' });
    expect(refused.statusCode).toBe(400);
    expect(text(refused.body)).toContain(
      text(say(FRENCH, 'link.amountTooLow', { min: formatters(FRENCH).money('5', 'USD') })),
    );
    expect(refused.body).toContain('<input type="hidden" name="lang" value="fr"/>');
  });

  it('shows a clear page, not a 500, when no invoice can be made', async () => {
    // No fresh rate for GBP: an invoice is never priced with a stale one.
    const { key } = await s.merchant();
    const { id, path } = await s.link(key, { amount: '10', currency: 'GBP' });
    const res = await s.post(path, { visit: 'z'.repeat(22) });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(text(res.body)).toContain(en('link.unavailableHeading'));
    expect(await s.invoicesOf(id)).toEqual([]);
    // The merchant's plan has no room.
    const unsubscribed = await s.merchant({ subscribed: false });
    const { path: planless } = await s.link(unsubscribed.key, { amount: '10' });
    const refused = await s.post(planless, { visit: 'z'.repeat(22) });
    expect(refused.statusCode).toBe(503);
    expect(text(refused.body)).toContain(en('link.unavailable', { app: 'Mug Shop' }));
  });

  it('draws the page again for a post that is not its form', async () => {
    const { key } = await s.merchant();
    const { id, path } = await s.link(key, { amount: '10' });
    const bare = await s.post(path, {});
    expect(bare.statusCode).toBe(400);
    expect(visitOf(bare.body)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const json = await t.inject({
      method: 'POST',
      url: path,
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: { visit: 'j'.repeat(22) },
    });
    expect(json.statusCode).toBe(400);
    const twice = await t.inject({
      method: 'POST',
      url: path,
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `visit=${'a'.repeat(22)}&visit=${'b'.repeat(22)}`,
    });
    expect(twice.statusCode).toBe(400);
    const huge = await s.post(path, { visit: 'h'.repeat(22), amount: '1'.repeat(4000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.headers['content-type']).toMatch(/^text\/html/);
    expect(await s.invoicesOf(id)).toEqual([]);
  });
});

describe('payment link budgets', () => {
  const t = testAppPerBlock({
    env: { LINK_INVOICE_RATE_LIMIT_MAX: '2', CHECKOUT_RATE_LIMIT_MAX: '12' },
  });
  const s = shop(t);

  it('limits the invoices one address makes, and the pages it asks for, apart', async () => {
    const { key } = await s.merchant();
    const { path } = await s.link(key, { amount_min: '1' });
    const address = '198.51.100.7';
    const made = [];
    for (const visit of ['a', 'b'].map((c) => c.repeat(22))) {
      const res = await s.post(path, { visit, amount: '1' }, {}, address);
      expect(res.statusCode).toBe(303);
      made.push(res.headers.location);
    }
    // What makes no invoice is not counted: the same visit again, a refused amount.
    expect((await s.post(path, { visit: 'a'.repeat(22) }, {}, address)).headers.location).toBe(
      made[0],
    );
    expect(
      (await s.post(path, { visit: 'c'.repeat(22), amount: 'x' }, {}, address)).statusCode,
    ).toBe(400);
    const refused = await s.post(path, { visit: 'c'.repeat(22), amount: '1' }, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(text(refused.body)).toContain(en('tooMany.heading'));
    // Another address still makes its invoice.
    expect(
      (await s.post(path, { visit: 'd'.repeat(22), amount: '1' }, {}, '198.51.100.8')).statusCode,
    ).toBe(303);
    // The page itself is in the checkout's budget per address (12 here: 5 posts so far).
    const pages = [];
    for (let i = 0; i < 8; i += 1) pages.push((await s.page(path, {}, address)).statusCode);
    expect(pages).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
  });
});
