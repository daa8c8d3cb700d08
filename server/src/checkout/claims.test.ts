import { privateKeyToAddress } from 'viem/accounts';
import { eventTypesOf } from '../../test/appRows';
import { settledRefundLink } from '../../test/refunds';
import { testAppPerBlock } from '../../test/withTestApp';
import type { TestApp } from '../../test/testApp';
import { cancelRefund } from '../domain/refunds/refunds';
import { languageFor, say, type MessageId } from './messages';
import { CHECKOUT_CSP } from './plugin';
import { formatters } from './screens';

// A refund's claim page over HTTP, as a shopper's browser meets it without JavaScript: what the
// open link shows and its headers, the claim posted and answered with a 303 back to the page,
// which then shows the claim and no form; a bad address or a missing confirmation refused next
// to its field with what was typed kept; a second claim, a cancelled link and an unknown one;
// the shopper's language, Arabic right to left; and the budget per client address.

const HOST = 'pay.shop.test';
const ENGLISH = languageFor('en', undefined);
const FRENCH = languageFor('fr', undefined);
const ARABIC = languageFor('ar', undefined);
const SHOPPER = privateKeyToAddress(`0x${'47'.repeat(32)}`);
const OTHER = privateKeyToAddress(`0x${'48'.repeat(32)}`);
const VALUES = { asset: 'USDT', network: 'BNB Smart Chain', app: 'Mug Shop' };

/** The page's text, tags dropped and entities read. */
const text = (html: string) =>
  html
    .replace(/<title>.*?<\/title>/s, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
const en = (id: MessageId, params: Record<string, string> = VALUES) => say(ENGLISH, id, params);
/** The opening tag of the element with id `id`. */
const tagOf = (html: string, id: string) =>
  new RegExp(`<[a-z]+ id="${id}"[^>]*>`).exec(html)?.[0] ?? '';

/** Helpers over one test app: refund links made the real way, the page and its form. */
function shopper(t: TestApp) {
  let serial = 0;
  return {
    /** A settled invoice of Mug Shop refunded with a claim link; its page's path. */
    async link(options: { funded?: boolean } = {}) {
      serial += 1;
      const made = await settledRefundLink(
        t,
        `rc${serial}_${Math.random().toString(36).slice(2, 8)}`,
        { ...options, appName: 'Mug Shop' },
      );
      return { ...made, path: `/refund/${made.token}` };
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
    refund: (id: string) =>
      t.db
        .selectFrom('refunds')
        .select(['status', 'address', 'address_source', 'request_mac'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
  };
}

describe('refund claim page', () => {
  const t = testAppPerBlock({ env: { REFUND_CLAIM_RATE_LIMIT_MAX: '10000' } });
  const s = shopper(t);
  jest.setTimeout(60_000);

  it('shows an open link with a plain form and no script, under the checkout’s headers', async () => {
    const { path } = await s.link();
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
    expect(html).not.toMatch(/ style=/i);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain(`<form action="${path}" method="post">`);
    expect(html).not.toContain('name="lang"');
    expect(html.match(/<button/g)).toHaveLength(1);
    const address = tagOf(html, 'address');
    for (const attribute of [
      'name="address"',
      'type="text"',
      'required=""',
      'autoComplete="off"',
      'spellCheck="false"',
      'dir="ltr"',
      'value=""',
      'aria-describedby="address-warning"',
    ]) {
      expect(address).toContain(attribute);
    }
    expect(address).not.toContain('aria-invalid');
    const confirm = tagOf(html, 'confirm');
    expect(confirm).toContain('type="checkbox"');
    expect(confirm).toContain('name="confirm"');
    expect(confirm).toContain('required=""');
    expect(html).toContain('<span class="amount" dir="ltr">53.9 USDT</span>');
    const expires = new Date(t.clock().getTime() + 30 * 86_400_000).toISOString();
    const shown = text(html);
    for (const sentence of [
      'Refund from Mug Shop',
      en('refund.heading'),
      en('refund.intro'),
      'USDT-BEP20',
      `${en('network.heading')} ${en('network.value', { network: 'BNB Smart Chain', chainId: '56' })}`,
      `${en('refund.reason')} The mug arrived broken`,
      `${en('refund.until')} ${formatters(ENGLISH).time(expires)}`,
      en('refund.addressLabel'),
      en('refund.warning'),
      en('refund.confirm'),
      en('refund.final'),
      en('refund.submit'),
    ]) {
      expect(shown).toContain(sentence);
    }
  });

  it('says on a test app’s refund, in the shopper’s language, that no real money moves', async () => {
    const { appId, path } = await s.link();
    expect((await s.page(path)).body).not.toContain('class="test-mode"');
    await t.db.updateTable('apps').set({ livemode: 0 }).where('id', '=', appId).execute();
    expect((await s.page(path)).body).toContain(
      `<p class="test-mode" role="status">${en('test.banner')}</p>`,
    );
    expect((await s.page(`${path}?lang=ar`)).body).toContain(
      `<p class="test-mode" role="status">${say(ARABIC, 'test.banner')}</p>`,
    );
  });

  it('claims with a 303 back to the page, which shows the claim and no form', async () => {
    const { id, path } = await s.link();
    const res = await s.post(path, { address: ` ${SHOPPER.toLowerCase()} `, confirm: 'yes' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(path);
    expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(await s.refund(id)).toMatchObject({
      status: 'queued',
      address: SHOPPER,
      address_source: 'shopper',
      request_mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);

    const page = await s.page(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<form');
    expect(page.body).toContain(`<code class="address" dir="ltr">${SHOPPER}</code>`);
    const shown = text(page.body);
    expect(shown).toContain(en('refund.claimedHeading'));
    expect(shown).toContain(`${en('refund.status')} ${en('refund.statusQueued')}`);
    expect(shown).toContain(en('refund.close'));
    expect(shown).toContain('53.9 USDT');
    expect(shown).not.toContain(en('refund.alreadyClaimed'));
  });

  it('shows a refund claimed from an empty wallet as waiting to be sent', async () => {
    const { id, path } = await s.link({ funded: false });
    expect((await s.post(path, { address: SHOPPER, confirm: 'yes' })).statusCode).toBe(303);
    expect((await s.refund(id)).status).toBe('awaiting_funds');
    expect(text((await s.page(path)).body)).toContain(en('refund.statusQueued'));
  });

  it('refuses a bad address next to the field, keeping what was typed, changing nothing', async () => {
    const { id, path, paidTo } = await s.link();
    for (const [typed, sentence] of [
      ['abc"><b>', en('refund.addressInvalid')],
      ['', en('refund.addressInvalid')],
      ['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', en('refund.addressInvalid')],
      ['0x0000000000000000000000000000000000000000', en('refund.addressLost')],
      [paidTo, en('refund.addressMerchant')],
    ] as const) {
      const res = await s.post(path, { address: typed, confirm: 'yes' });
      expect({ typed, status: res.statusCode }).toEqual({ typed, status: 422 });
      expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      const address = tagOf(res.body, 'address');
      expect(address).toContain('aria-describedby="address-error address-warning"');
      expect(address).toContain('aria-invalid="true"');
      expect(address).toContain(
        `value="${typed.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`,
      );
      expect(res.body).toContain(`<p id="address-error" class="field-error">${sentence}</p>`);
      expect(res.body).toContain('<form');
    }
    expect(await s.refund(id)).toMatchObject({ status: 'pending_claim', address: null });
    expect(await eventTypesOf(t, id)).toEqual(['refund.created']);
  });

  it('refuses a claim without the confirmation ticked, next to the box', async () => {
    const { id, path } = await s.link();
    const res = await s.post(path, { address: SHOPPER });
    expect(res.statusCode).toBe(422);
    const confirm = tagOf(res.body, 'confirm');
    expect(confirm).toContain('aria-invalid="true"');
    expect(confirm).toContain('aria-describedby="confirm-error"');
    expect(res.body).toContain(
      `<p id="confirm-error" class="field-error">${en('refund.confirmMissing')}</p>`,
    );
    expect(tagOf(res.body, 'address')).toContain(`value="${SHOPPER}"`);
    expect(tagOf(res.body, 'address')).not.toContain('aria-invalid');
    expect((await s.refund(id)).status).toBe('pending_claim');
  });

  it('refuses a second claim with a 409: the address stays the first one', async () => {
    const { id, path } = await s.link();
    expect((await s.post(path, { address: SHOPPER, confirm: 'yes' })).statusCode).toBe(303);
    const again = await s.post(path, { address: OTHER, confirm: 'yes' });
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain('<form');
    expect(text(again.body)).toContain(en('refund.alreadyClaimed'));
    expect(again.body).toContain(SHOPPER);
    expect(again.body).not.toContain(OTHER);
    expect((await s.refund(id)).address).toBe(SHOPPER);
    expect(await eventTypesOf(t, id)).toEqual(['refund.created', 'refund.claimed']);
  });

  it('says a cancelled link can no longer be claimed, and refuses its claim', async () => {
    const { appId, id, path } = await s.link();
    await cancelRefund(t.db, appId, id, t.clock());
    const page = await s.page(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<form');
    expect(text(page.body)).toContain(en('refund.cancelledHeading'));
    expect(text(page.body)).toContain(en('refund.cancelled'));
    const post = await s.post(path, { address: SHOPPER, confirm: 'yes' });
    expect(post.statusCode).toBe(409);
    expect(text(post.body)).toContain(en('refund.cancelled'));
    expect(await s.refund(id)).toMatchObject({ status: 'cancelled', address: null });
  });

  it('says an expired link can no longer be claimed', async () => {
    const { id, path } = await s.link();
    t.clock.advance(30 * 86_400_000 + 1000);
    try {
      const page = await s.page(path);
      expect(page.body).not.toContain('<form');
      expect(text(page.body)).toContain(en('refund.expiredHeading'));
      expect(text(page.body)).toContain(en('refund.expired'));
      const post = await s.post(path, { address: SHOPPER, confirm: 'yes' });
      expect(post.statusCode).toBe(409);
      expect(text(post.body)).toContain(en('refund.expiredHeading'));
    } finally {
      t.clock.advance(-(30 * 86_400_000 + 1000));
    }
    expect(await s.refund(id)).toMatchObject({ status: 'pending_claim', address: null });
  });

  it('answers an unknown link with a 404 in the shopper’s language', async () => {
    for (const path of [
      `/refund/${'A'.repeat(32)}`,
      '/refund/not-a-token',
      `/refund/${'a'.repeat(300)}`,
    ]) {
      const res = await s.page(path, { 'accept-language': 'fr-FR,fr;q=0.9' });
      expect({ path, status: res.statusCode }).toEqual({ path, status: 404 });
      expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.body).toContain('<html lang="fr"');
      expect(text(res.body)).toContain(text(say(FRENCH, 'refund.notFoundHeading')));
      expect(text(res.body)).toContain(text(say(FRENCH, 'refund.notFound')));
    }
    const post = await s.post(`/refund/${'A'.repeat(32)}`, { address: SHOPPER, confirm: 'yes' });
    expect(post.statusCode).toBe(404);
  });

  it('draws Arabic right to left, addresses and amounts left to right, and keeps the picked language', async () => {
    const { path } = await s.link();
    const page = await s.page(`${path}?lang=ar`, { 'accept-language': 'fr-FR' });
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toContain('<span class="amount" dir="ltr">53.9 USDT</span>');
    expect(page.body).toContain('<code dir="ltr">USDT-BEP20</code>');
    expect(tagOf(page.body, 'address')).toContain('dir="ltr"');
    expect(page.body).toContain('<input type="hidden" name="lang" value="ar"/>');
    expect(text(page.body)).toContain(text(say(ARABIC, 'refund.warning', VALUES)));
    const refused = await s.post(path, { address: 'nope', lang: 'ar', confirm: 'yes' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<html lang="ar" dir="rtl">');
    expect(text(refused.body)).toContain(text(say(ARABIC, 'refund.addressInvalid', VALUES)));
    const claimed = await s.post(path, { address: SHOPPER, lang: 'ar', confirm: 'yes' });
    expect(claimed.statusCode).toBe(303);
    expect(claimed.headers.location).toBe(`${path}?lang=ar`);
    const after = await s.page(`${path}?lang=ar`);
    expect(after.body).toContain(`<code class="address" dir="ltr">${SHOPPER}</code>`);
    expect(text(after.body)).toContain(text(say(ARABIC, 'refund.claimedHeading')));
  });
});

describe('refund claim budget', () => {
  const t = testAppPerBlock({ env: { REFUND_CLAIM_RATE_LIMIT_MAX: '3' } });
  const s = shopper(t);
  jest.setTimeout(60_000);

  it('limits the pages and claims one address asks for', async () => {
    const { path } = await s.link();
    const address = '198.51.100.9';
    const answers = [
      (await s.page(path, {}, address)).statusCode,
      (await s.post(path, { address: 'nope', confirm: 'yes' }, {}, address)).statusCode,
      (await s.page(path, {}, address)).statusCode,
    ];
    expect(answers).toEqual([200, 422, 200]);
    const refused = await s.post(path, { address: SHOPPER, confirm: 'yes' }, {}, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-security-policy']).toBe(CHECKOUT_CSP);
    expect(text(refused.body)).toContain(en('tooMany.heading'));
    // Another address still claims.
    expect(
      (await s.post(path, { address: SHOPPER, confirm: 'yes' }, {}, '198.51.100.10')).statusCode,
    ).toBe(303);
  });
});
