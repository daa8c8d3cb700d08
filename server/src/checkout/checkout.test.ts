import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { PNG } from '../../test/images';
import { multipart } from '../../test/multipart';
import { testAppPerBlock } from '../../test/withTestApp';
import { setTableRate } from '../domain/rates/table';
import { LANGUAGES, say } from './messages';
import { CHECKOUT_CSP } from './plugin';

// The hosted checkout page over HTTP, as a shopper's browser meets it: each state's screen from
// an invoice made through the gateway (states reached by writing the rows the watcher and the
// expiry job would write), the method picker, the 404 and 400 pages, the headers, the rate
// limit, the status answer and the event stream.

const HOST = 'pay.shop.test';
const ID = /^inv_[0-9a-z]+$/;

describe('checkout page', () => {
  const t = testAppPerBlock({
    env: { GATEWAY_RATE_LIMIT_MAX: '100000', CHECKOUT_RATE_LIMIT_MAX: '1000' },
    checkoutFeedTickMs: 50,
  });
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
    await setTableRate(t.db, { pair: 'BNB/USD', rate: '600', maxAgeHours: 24, now: t.clock() });
  });

  /** An app called `name` with USDT (BEP20) and, when `bnb`, BNB; its gateway key. */
  async function merchant(name: string, options: { bnb?: boolean } = {}) {
    serial += 1;
    const tag = `co${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await t.db.updateTable('apps').set({ app_name: name }).where('id', '=', appId).execute();
    await insertAppMethod(t, { id: `apm_${tag}_usdt`, app_id: appId });
    if (options.bnb) {
      await insertAppMethod(t, {
        id: `apm_${tag}_bnb`,
        app_id: appId,
        payment_method_id: 'pm_bnb',
      });
    }
    const key = await insertApiKey(t, {
      id: `key_${tag}`,
      app_id: appId,
      abilities: ['invoices:write'],
    });
    return { appId, key, username: `merchant_${tag}` };
  }

  async function newInvoice(
    options: { bnb?: boolean; redirect?: boolean; amount?: string } = {},
  ): Promise<{ id: string; address: string; appId: string }> {
    const { key, appId } = await merchant('Mug Shop', options);
    const res = await t.inject({
      method: 'POST',
      url: '/gateway/v1/invoices',
      headers: { host: HOST, authorization: `Bearer ${key}` },
      payload: {
        amount: options.amount ?? '49.90',
        currency: 'EUR',
        order_id: 'secret-order-7',
        buyer_email: 'buyer@example.com',
        description: 'Two mugs',
        ...(options.redirect === false ? {} : { redirect_url: 'https://shop.example.com/thanks' }),
      },
    });
    expect(res.statusCode).toBe(201);
    const invoice = res.json() as { id: string; payment_options: { address: string }[] };
    expect(invoice.id).toMatch(ID);
    return { id: invoice.id, address: invoice.payment_options[0]?.address ?? '', appId };
  }

  const page = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url, headers: { host: HOST, accept: 'text/html', ...headers } });

  /** A payment of `amount` USDT (18 decimals) with `confirmations`, as the watcher records it. */
  async function pay(
    invoice: { id: string; appId: string },
    amount: string,
    confirmations: number,
    tx = `0x${String(++serial).padStart(64, '0')}`,
  ) {
    const raw = BigInt(Math.round(Number(amount) * 100)) * 10n ** 16n;
    // The value at the locked rate (1 USDT = 1/1.08 EUR... priced in EUR): amount * rate.
    const option = await t.db
      .selectFrom('invoice_payment_options')
      .select(['rate', 'payment_method_id', 'chain_id'])
      .where('invoice_id', '=', invoice.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    const value = (Number(amount) * Number(option.rate)).toFixed(8);
    const at = t.clock().toISOString();
    await t.db
      .insertInto('invoice_payments')
      .values({
        id: `ip_${tx.slice(-12)}`,
        invoice_id: invoice.id,
        app_id: invoice.appId,
        payment_method_id: option.payment_method_id,
        chain_id: option.chain_id,
        tx_hash: tx,
        log_index: 0,
        block_number: 100,
        amount_raw: raw.toString(),
        value,
        confirmations,
        status: confirmations >= 15 ? 'confirmed' : 'pending',
        late: 0,
        created_at: at,
        seen_at: at,
      })
      .execute();
    return tx;
  }

  const setStatus = (
    id: string,
    status: 'new' | 'processing' | 'settled' | 'expired' | 'invalid',
    flags: { paid_partial?: 0 | 1; paid_late?: 0 | 1 } = {},
  ) =>
    t.db
      .updateTable('invoices')
      .set({ status, ...flags, updated_at: new Date(t.clock().getTime() + ++serial).toISOString() })
      .where('id', '=', id)
      .execute();

  const text = (html: string) =>
    html
      .replace(/<title>.*?<\/title>/s, '')
      .replace(/<svg.*?<\/svg>/s, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');

  it('shows everything needed to pay, with no script, and nothing of the merchant beyond its name', async () => {
    const { id, address } = await newInvoice();
    const res = await page(`/pay/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    const shown = text(html);
    expect(shown).toContain('Mug Shop');
    // 49.90 EUR at 1.08 USD per EUR, USDT pegged at 1 USD: 53.892 rounded up to cents.
    expect(shown).toContain('Pay 53.9 USDT');
    expect(shown).toContain('€49.90');
    expect(shown).toContain('1 USDT = ');
    expect(shown).toContain('BNB Smart Chain (chain id 56)');
    expect(shown).toContain('Send only USDT on BNB Smart Chain (BEP20) to this address.');
    expect(shown).toContain(address);
    expect(shown).toMatch(/Pay by .* UTC/);
    expect(html).toMatch(
      /<a class="button" href="ethereum:0x[0-9a-fA-F]{40}@56\/transfer\?address=/,
    );
    expect(html).toMatch(
      /<svg[^>]*role="img"><title>QR code of a payment request: 53.9 USDT on BNB Smart Chain to 0x/,
    );
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="15"></noscript>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    // No inline script or style anywhere.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle="/);
    // Nothing of the merchant's account or the buyer.
    expect(html).not.toContain('secret-order-7');
    expect(html).not.toContain('buyer@example.com');
    expect(html).not.toContain('merchant_');
  });

  it('says on a test app’s invoice, in every language, that no real money moves, and never on a live one', async () => {
    const live = await newInvoice();
    const test = await newInvoice();
    await t.db.updateTable('apps').set({ livemode: 0 }).where('id', '=', test.appId).execute();
    const banner = /<p class="test-mode" role="status">([^<]*)<\/p>/;
    const livePage = (await page(`/pay/${live.id}`)).body;
    expect(livePage).not.toMatch(banner);
    expect(text(livePage)).not.toContain('TEST MODE');
    for (const language of LANGUAGES) {
      const html = (await page(`/pay/${test.id}?lang=${language.code}`)).body;
      expect(html.match(banner)?.[1]).toBe(escapeHtml(say(language, 'test.banner')));
      // Before the merchant's header: the first thing the page says.
      expect(html.indexOf('class="test-mode"')).toBeLessThan(html.indexOf('class="merchant"'));
      expect(html).toContain(`dir="${language.dir}"`);
    }
    // The app's test invoice on another screen (paid) keeps it.
    await setStatus(test.id, 'settled');
    expect((await page(`/pay/${test.id}`)).body).toMatch(banner);
  });

  it('shows the app’s initial without a logo, and its logo, sized, once one is uploaded', async () => {
    const { key, appId, username } = await merchant('Mug Shop');
    const res = await t.inject({
      method: 'POST',
      url: '/gateway/v1/invoices',
      headers: { host: HOST, authorization: `Bearer ${key}` },
      payload: { amount: '10', currency: 'EUR' },
    });
    const { id } = res.json() as { id: string };
    // Read before the upload (and kept: a second read is the same page).
    const before = (await page(`/pay/${id}`)).body;
    expect(before).toContain('<span class="logo" aria-hidden="true">M</span>');
    expect(before).not.toContain('<img');
    expect((await page(`/pay/${id}`)).body).toBe(before);

    const body = multipart([{ name: 'logo', value: PNG, filename: 'mug.png' }]);
    const uploaded = await t.call('uploadAppLogo', {
      params: { id: appId },
      headers: { ...(await t.authHeader(username)), ...body.headers },
      body: body.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const logo = uploaded.json<{ data: { logo: string } }>().data.logo;

    // The change of the app's row voids the kept page: the logo shows at once.
    const after = (await page(`/pay/${id}`)).body;
    expect(after).toContain(
      `<img class="logo logo-image" src="/api/images/${logo}" alt="" width="40" height="40"/>`,
    );
    expect(after).not.toContain('<span class="logo"');
    expect(text(after)).toContain('Mug Shop');
    // Served by the portal's image route on the page's own origin, which img-src 'self' allows.
    expect(CHECKOUT_CSP).toContain("img-src 'self'");
    const image = await page(`/api/images/${logo}`, { accept: 'image/*' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    // Removed: the initial again.
    const removed = await t.call('removeAppLogo', {
      params: { id: appId },
      headers: await t.authHeader(username),
    });
    expect(removed.statusCode).toBe(200);
    expect((await page(`/pay/${id}`)).body).toContain(
      '<span class="logo" aria-hidden="true">M</span>',
    );
  });

  it('sends a strict CSP, noindex and no referrer', async () => {
    const { id } = await newInvoice();
    for (const url of [
      `/pay/${id}`,
      `/pay/${id}/status`,
      `/pay/${id}/fragment`,
      '/pay/inv_nothere0000000000',
    ]) {
      const res = await page(url);
      expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(CHECKOUT_CSP).toContain("script-src 'self'");
    expect(CHECKOUT_CSP).not.toContain('unsafe');
    expect(CHECKOUT_CSP).not.toMatch(/https?:/);
  });

  it('answers an unknown or malformed id with a 404 page', async () => {
    for (const url of [
      '/pay/inv_0000000000000000000000000a',
      '/pay/nope',
      "/pay/inv_'%3Cx%3E",
      `/pay/${'a'.repeat(300)}`,
    ]) {
      const res = await page(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(text(res.body)).toContain('Payment page not found');
    }
    const status = await page('/pay/inv_0000000000000000000000000a/status');
    expect(status.statusCode).toBe(404);
  });

  it('lets the shopper pick a method first, each a plain link', async () => {
    const { id } = await newInvoice({ bnb: true });
    const res = await page(`/pay/${id}`);
    expect(res.statusCode).toBe(200);
    const shown = text(res.body);
    expect(shown).toContain('Choose how to pay');
    expect(res.body).toContain(`href="/pay/${id}?method=USDT-BEP20"`);
    expect(res.body).toContain(`href="/pay/${id}?method=BNB-BSC"`);
    expect(shown).not.toContain('Send only');

    const bnb = await page(`/pay/${id}?method=BNB-BSC`);
    expect(bnb.statusCode).toBe(200);
    expect(text(bnb.body)).toContain('Send only BNB on BNB Smart Chain to this address.');
    expect(text(bnb.body)).toContain('Native coin, no token contract');
    expect(bnb.body).toContain(`href="/pay/${id}"`);

    for (const method of ['ETH-ETHEREUM', '<script>', 'x'.repeat(80)]) {
      const bad = await page(`/pay/${id}?method=${encodeURIComponent(method)}`);
      expect(bad.statusCode).toBe(400);
      expect(text(bad.body)).toContain('This way to pay is not offered');
      expect(bad.body).not.toContain('<script>');
    }
    const twice = await page(`/pay/${id}?method=BNB-BSC&method=USDT-BEP20`);
    expect(twice.statusCode).toBe(400);
  });

  it("speaks the browser's language, and the one the shopper picks, links and all", async () => {
    const { id } = await newInvoice({ bnb: true });
    const french = await page(`/pay/${id}`, { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' });
    expect(french.headers.vary).toMatch(/Accept-Language/i);
    expect(french.body).toMatch(/^<!doctype html><html lang="fr" dir="ltr">/);
    // Picked by the browser: the page's links need not say it.
    expect(french.body).toContain(`href="/pay/${id}?method=USDT-BEP20"`);

    // Picked from the page's list, a plain link: every link of the page keeps it.
    expect(french.body).toContain(`href="/pay/${id}?lang=ar"`);
    const arabic = await page(`/pay/${id}?lang=ar`, { 'accept-language': 'fr' });
    expect(arabic.body).toMatch(/<html lang="ar" dir="rtl">/);
    expect(arabic.body).toContain(`href="/pay/${id}?method=USDT-BEP20&amp;lang=ar"`);
    const chosen = await page(`/pay/${id}?method=USDT-BEP20&lang=ar`);
    expect(chosen.body).toContain(
      `data-fragment="/pay/${id}/fragment?method=USDT-BEP20&amp;lang=ar"`,
    );
    // Addresses and amounts read left to right inside the right-to-left page.
    expect(chosen.body).toMatch(/<code class="address" dir="ltr">0x[0-9a-fA-F]{40}<\/code>/);
    expect(chosen.body).toMatch(/<span class="amount" dir="ltr">53.9 USDT<\/span>/);

    const japanese = await page(`/pay/${id}?method=USDT-BEP20&lang=ja`);
    expect(japanese.body).toMatch(/<html lang="ja" dir="ltr">/);
    expect(text(japanese.body)).toMatch(/\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2} UTC/);
    const fragment = await page(`/pay/${id}/fragment?method=USDT-BEP20&lang=ja`);
    expect(text(fragment.body)).toMatch(/\d{4}\/\d{1,2}\/\d{1,2} \d{1,2}:\d{2} UTC/);

    // A language the page does not have is no choice: the browser's stands.
    const unknown = await page(`/pay/${id}?lang=xx`, { 'accept-language': 'ru' });
    expect(unknown.body).toMatch(/<html lang="ru" dir="ltr">/);
    expect(unknown.body).toContain(`href="/pay/${id}?method=USDT-BEP20"`);
  });

  it("answers an unknown id in the shopper's language", async () => {
    const english = await page('/pay/inv_0000000000000000000000000a');
    const spanish = await page('/pay/inv_0000000000000000000000000a', {
      'accept-language': 'es-MX',
    });
    expect(spanish.statusCode).toBe(404);
    expect(spanish.body).toMatch(/<html lang="es" dir="ltr">/);
    expect(text(spanish.body)).not.toContain('Payment page not found');
    expect(text(english.body)).toContain('Payment page not found');
    expect(spanish.body).toContain('href="/pay/inv_0000000000000000000000000a?lang=ar"');
  });

  it('shows a partial payment as still due, at the same address', async () => {
    const invoice = await newInvoice();
    // Seen before the payment: the page drawn then is not shown after it.
    for (const url of [`/pay/${invoice.id}`, `/pay/${invoice.id}/fragment`]) {
      expect(text((await page(url)).body)).toContain('Pay 53.9 USDT');
      expect(text((await page(url)).body)).toContain('Pay 53.9 USDT');
    }
    const before = (await page(`/pay/${invoice.id}/status`)).json() as { key: string };
    await pay(invoice, '20', 2);
    await setStatus(invoice.id, 'new', { paid_partial: 1 });
    const res = await page(`/pay/${invoice.id}`);
    const shown = text(res.body);
    expect(shown).toContain('Still due: 33.9 USDT');
    expect(shown).toContain(
      'We received 20 USDT. Send the remaining 33.9 USDT to the same address.',
    );
    expect(shown).toContain(invoice.address);
    // The wallet link asks for the rest.
    expect(res.body).toContain(`uint256=${339n * 10n ** 17n}`);
    expect(res.body).toContain('http-equiv="refresh" content="15"');
    expect(text((await page(`/pay/${invoice.id}/fragment`)).body)).toContain('Still due');
    const after = (await page(`/pay/${invoice.id}/status`)).json() as { key: string };
    expect(after).toEqual({ screen: 'partial', key: expect.any(String) });
    expect(after.key).not.toBe(before.key);
  });

  it('shows a covering payment with its confirmations while processing', async () => {
    const invoice = await newInvoice();
    await pay(invoice, '53.9', 3);
    await setStatus(invoice.id, 'processing');
    const shown = text((await page(`/pay/${invoice.id}`)).body);
    expect(shown).toContain('Payment received, confirming');
    expect(shown).toContain('53.9 USDT seen, 3 of 15 confirmations.');
    expect(shown).not.toContain('Send only');
  });

  it('shows paid, then takes the shopper back to the merchant', async () => {
    const invoice = await newInvoice();
    await pay(invoice, '53.9', 15);
    await setStatus(invoice.id, 'settled');
    const res = await page(`/pay/${invoice.id}`);
    const shown = text(res.body);
    expect(shown).toContain('Paid');
    expect(shown).toContain('Thank you. Mug Shop has received your payment.');
    expect(res.body).toContain(
      '<a class="button" href="https://shop.example.com/thanks">Return to Mug Shop</a>',
    );
    expect(res.body).toContain(
      '<noscript><meta http-equiv="refresh" content="5;url=https://shop.example.com/thanks"></noscript>',
    );
    expect(res.body).toContain('data-redirect="https://shop.example.com/thanks"');

    const plain = await newInvoice({ redirect: false });
    await pay(plain, '53.9', 15);
    await setStatus(plain.id, 'settled');
    const closing = await page(`/pay/${plain.id}`);
    expect(text(closing.body)).toContain('You can close this page.');
    expect(closing.body).not.toContain('http-equiv');
  });

  it('shows an expired invoice without inviting a payment to its address', async () => {
    const nothing = await newInvoice();
    await setStatus(nothing.id, 'expired');
    const res = await page(`/pay/${nothing.id}`);
    const shown = text(res.body);
    expect(shown).toContain('This invoice has expired');
    expect(shown).toContain('Do not send anything to its address.');
    expect(shown).not.toContain(nothing.address);
    expect(res.body).not.toContain('ethereum:');
    expect(res.body).not.toContain('<svg');
    // A payment sent just before the expiry may still land: the page keeps following.
    expect(res.body).toContain('<noscript><meta http-equiv="refresh" content="15"></noscript>');

    const partial = await newInvoice();
    await pay(partial, '20', 15);
    await setStatus(partial.id, 'expired', { paid_partial: 1 });
    const part = text((await page(`/pay/${partial.id}`)).body);
    expect(part).toContain('This invoice expired, paid in part');
    expect(part).toContain('We received 20 USDT of 53.9 USDT before it expired.');
    expect(part).toContain('Do not send more to its address.');
    expect(part).not.toContain(partial.address);
  });

  it('shows a payment that came too late, and one that still counted', async () => {
    const late = await newInvoice();
    await pay(late, '53.9', 15);
    await setStatus(late.id, 'expired', { paid_late: 1 });
    const shown = text((await page(`/pay/${late.id}`)).body);
    expect(shown).toContain('Your payment arrived too late');
    expect(shown).toContain('Mug Shop will refund it.');

    const counted = await newInvoice();
    await pay(counted, '53.9', 15);
    await setStatus(counted.id, 'settled', { paid_late: 1 });
    const paid = text((await page(`/pay/${counted.id}`)).body);
    expect(paid).toContain('Paid');
    expect(paid).toContain('soon enough to count');
  });

  it('shows an invalid invoice', async () => {
    const invoice = await newInvoice();
    await setStatus(invoice.id, 'invalid');
    const shown = text((await page(`/pay/${invoice.id}`)).body);
    expect(shown).toContain('This invoice is no longer valid');
    expect(shown).not.toContain(invoice.address);
  });

  it('answers the state as JSON, and the fragment the script swaps in', async () => {
    const invoice = await newInvoice();
    const before = (await page(`/pay/${invoice.id}/status`)).json();
    expect(before).toEqual({ screen: 'waiting', key: expect.any(String) });
    await pay(invoice, '20', 1);
    const after = (await page(`/pay/${invoice.id}/status`)).json();
    expect(after.screen).toBe('partial');
    expect(after.key).not.toBe(before.key);
    const fragment = await page(`/pay/${invoice.id}/fragment`);
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).toMatch(/^<section class="screen screen-partial" data-screen="partial"/);
    expect(fragment.body).toContain(`data-key="${after.key}"`);
  });

  it('streams a change to every open stream of the invoice from one feed', async () => {
    const invoice = await newInvoice();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const open = () =>
      new Promise<{ events: string[]; close: () => void; next: () => Promise<void> }>(
        (resolve, reject) => {
          const events: string[] = [];
          let waiting: (() => void) | undefined;
          const req = http.get(
            { host: '127.0.0.1', port, path: `/pay/${invoice.id}/events`, headers: { host: HOST } },
            (res) => {
              expect(res.statusCode).toBe(200);
              expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
              expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => {
                for (const block of chunk.split('\n\n')) {
                  const data = /^event: status\ndata: (.*)$/m.exec(block)?.[1];
                  if (data) {
                    events.push(data);
                    waiting?.();
                  }
                }
              });
              resolve({
                events,
                close: () => req.destroy(),
                next: () =>
                  new Promise<void>((done) => {
                    waiting = done;
                  }),
              });
            },
          );
          req.on('error', reject);
        },
      );
    const first = await open();
    const second = await open();
    await until(() => first.events.length >= 1 && second.events.length >= 1);
    const initial = JSON.parse(first.events[0] ?? '{}') as { screen: string; key: string };
    expect(initial.screen).toBe('waiting');

    const seen = first.events.length;
    await pay(invoice, '20', 1);
    await until(
      () =>
        first.events.some((e) => e.includes('"partial"')) &&
        second.events.some((e) => e.includes('"partial"')),
    );
    expect(first.events.length).toBeGreaterThan(seen);
    first.close();
    second.close();
  });

  it('limits requests per client address', async () => {
    const { id } = await newInvoice();
    const limited = await t.inject({
      method: 'GET',
      url: `/pay/${id}/status`,
      headers: { host: HOST },
      remoteAddress: '198.51.100.7',
    });
    expect(limited.headers['ratelimit-limit']).toBe('1000');
  });
});

/** `text` as the page's markup writes it. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&#x27;');
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('checkout rate limit', () => {
  const t = testAppPerBlock({ env: { CHECKOUT_RATE_LIMIT_MAX: '3' } });

  it('refuses a client address past its budget with a page, others still served', async () => {
    const get = (url: string, remoteAddress: string) =>
      t.inject({ method: 'GET', url, headers: { accept: 'text/html' }, remoteAddress });
    for (let i = 0; i < 3; i += 1) {
      expect((await get('/pay/inv_0000000000000000000000000a', '198.51.100.7')).statusCode).toBe(
        404,
      );
    }
    const refused = await get('/pay/inv_0000000000000000000000000a', '198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(refused.body).toContain('Too many requests');
    // The status answers share the budget, and answer in JSON.
    const status = await get('/pay/inv_0000000000000000000000000a/status', '198.51.100.7');
    expect(status.statusCode).toBe(429);
    expect(status.json()).toEqual({ error: expect.any(String) });
    expect((await get('/pay/inv_0000000000000000000000000a', '198.51.100.8')).statusCode).toBe(404);
  });
});
