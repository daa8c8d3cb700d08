import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { coded, expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { payInvoice, paymentLinkBySlug } from '../domain/paymentLinks/paymentLinks';
import { RateBook } from '../domain/rates/rates';
import { PAYMENT_LINK_MESSAGES } from '../../../src/shared/paymentLinks';

// The Invoices tab's payment links, through HTTP as the portal calls them: the gateway's payment
// link functions behind a session, owner-checked, methods named by the portal's ids, every
// refusal in the portal's envelope by its field; the list's numbered pages; a link's totals
// summed exactly (on both engines: `npm run test:pg`) and its invoices; Deactivate.

const HOST = 'portal.shop.test';
const VISIT = 'v'.repeat(22);

describe('portal payment links', () => {
  const t = testAppPerBlock();
  let serial = 0;

  /** A merchant with a package, an app with USDT (BEP20) for deposits and BNB with it off. */
  async function merchant() {
    serial += 1;
    const tag = `ppl${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    await insertAppMethod(t, {
      id: `apm_${tag}_bnb`,
      app_id: appId,
      payment_method_id: 'pm_bnb',
      deposit_status: 0,
    });
    return { userId, appId, auth: await t.authHeader(`merchant_${tag}`) };
  }

  type Auth = { authorization: string };
  const create = (auth: Auth, id: string, body: Record<string, unknown>) =>
    t.call('createAppPaymentLink', { headers: { ...auth, host: HOST }, params: { id }, body });
  const list = (auth: Auth, id: string, query: Record<string, string | number> = {}) =>
    t.call('listAppPaymentLinks', { headers: { ...auth, host: HOST }, params: { id }, query });
  const details = (auth: Auth, id: string, linkId: string, query: Record<string, number> = {}) =>
    t.call('getAppPaymentLink', {
      headers: { ...auth, host: HOST },
      params: { id, linkId },
      query,
    });
  const deactivate = (auth: Auth, id: string, linkId: string) =>
    t.call('deactivateAppPaymentLink', {
      headers: { ...auth, host: HOST },
      params: { id, linkId },
    });
  const linkCount = async (appId: string) =>
    Number(
      (
        await t.db
          .selectFrom('payment_links')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A shopper's Pay on the link's page (one visit each), as its page calls it. */
  const shopperPays = async (url: string, visit: string, amount?: string) => {
    const slug = url.split('/l/')[1] ?? '';
    const found = await paymentLinkBySlug(t.db, slug, t.clock());
    if (!found) throw new Error(`No link at ${url}`);
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
  };

  it('creates a fixed-price link on the portal origin, and gives it back with no invoices', async () => {
    const { appId, auth } = await merchant();
    const res = await create(auth, appId, {
      title: 'Blue mug',
      description: 'From the spring batch',
      amount: '25.00',
      currency: 'EUR',
      max_uses: 100,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, msg: 'Payment link created' });
    const link = res.json().data;
    expect(link).toEqual({
      id: expect.stringMatching(/^plink_/),
      url: expect.stringMatching(new RegExp(`^http://${HOST}/l/[a-z0-9]{16}$`)),
      title: 'Blue mug',
      description: 'From the spring batch',
      amount: '25.00',
      amount_min: null,
      amount_max: null,
      currency: 'EUR',
      methods: null,
      redirect_url: null,
      expires_at: null,
      max_uses: 100,
      status: 'active',
      created_at: t.clock().toISOString(),
      updated_at: t.clock().toISOString(),
      totals: { invoices: 0, paid_invoices: 0, amount_paid: '0.00', uses: 0 },
    });
    const again = (await details(auth, appId, link.id)).json().data;
    expect(again.link).toEqual(link);
    expect(again.invoices).toMatchObject({
      data: [],
      total: 0,
      current_page: 1,
      last_page: 1,
      first_page_url: `/api/cryptosafelock/app-payment-links/${appId}/${link.id}?page=1`,
    });
  });

  it('creates a link whose shopper chooses the amount, its methods named by the portal ids', async () => {
    const { appId, auth } = await merchant();
    const expiresAt = new Date(t.clock().getTime() + 86_400_000).toISOString();
    const link = (
      await create(auth, appId, {
        title: 'Donation',
        description: '',
        amount_min: '5',
        amount_max: '500',
        currency: 'USD',
        methods: ['pm_usdt_bsc'],
        expires_at: expiresAt,
        redirect_url: 'https://shop.example.com/thanks',
      })
    ).json().data;
    expect(link).toMatchObject({
      description: null,
      amount: null,
      amount_min: '5',
      amount_max: '500',
      methods: ['USDT-BEP20'],
      expires_at: expiresAt,
      redirect_url: 'https://shop.example.com/thanks',
      max_uses: null,
    });
    // None ticked: every method with For Deposit on when the shopper pays.
    const all = (await create(auth, appId, { title: 'Tip', currency: 'USD', methods: [] })).json()
      .data;
    expect(all).toMatchObject({ methods: null, amount: null, amount_min: null, amount_max: null });
  });

  it("refuses the contract's faults by field, in the portal's words, and creates nothing", async () => {
    const { appId, auth } = await merchant();
    expectFieldErrors(await create(auth, appId, {}), {
      title: [PAYMENT_LINK_MESSAGES.titleRequired],
      currency: [PAYMENT_LINK_MESSAGES.currencyRequired],
    });
    const res = await create(auth, appId, {
      title: 'x'.repeat(121),
      description: 'd'.repeat(501),
      amount: '1,5',
      amount_min: '-1',
      amount_max: 'lots',
      currency: 'EUR',
      expires_at: 'tomorrow',
      max_uses: 0,
      redirect_url: 'ftp://shop.example.com',
    });
    expectFieldErrors(res, {
      title: [PAYMENT_LINK_MESSAGES.titleTooLong],
      description: [PAYMENT_LINK_MESSAGES.descriptionTooLong],
      amount: [PAYMENT_LINK_MESSAGES.amountInvalid],
      amount_min: [PAYMENT_LINK_MESSAGES.minInvalid],
      amount_max: [PAYMENT_LINK_MESSAGES.maxInvalid],
      expires_at: [PAYMENT_LINK_MESSAGES.expiryInvalid],
      max_uses: [PAYMENT_LINK_MESSAGES.maxUsesInvalid],
      redirect_url: [PAYMENT_LINK_MESSAGES.redirectInvalid],
    });
    expectFieldErrors(await create(auth, appId, { title: 'Tip', currency: 'USD', max_uses: 1.5 }), {
      max_uses: [PAYMENT_LINK_MESSAGES.maxUsesInvalid],
    });
    expect(await linkCount(appId)).toBe(0);
  });

  it("refuses the domain's faults all at once, each under its field, and creates nothing", async () => {
    const { appId, auth } = await merchant();
    const res = await create(auth, appId, {
      title: '   ',
      amount: '10',
      amount_min: '5',
      currency: 'XYZ',
      methods: ['pm_bnb', 'pm_nope'],
      expires_at: new Date(t.clock().getTime() - 1000).toISOString(),
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual([
      'amount',
      'currency',
      'expires_at',
      'methods',
      'title',
    ]);
    expect(errors.methods).toEqual([
      'Deposits of BNB-BSC are switched off for this app.',
      'The app has not enabled pm_nope.',
    ]);
    expect(res.json().codes.errors.methods).toEqual([
      { code: 'invoice.depositsOff', values: ['BNB-BSC'] },
      { code: 'withdrawal.notEnabled', values: ['pm_nope'] },
    ]);
    const range = await create(auth, appId, {
      title: 'Tip',
      amount_min: '50',
      amount_max: '5',
      currency: 'EUR',
    });
    const belowMin = 'amount_max must be at least amount_min (50), like "50" or more.';
    expect(range.json()).toEqual(
      coded({ status: false, msg: belowMin, errors: { amount_max: [belowMin] } }),
    );
    // The minimum is the one value, said twice.
    expect(range.json().codes.errors).toEqual({
      amount_max: [{ code: 'paymentLink.maxBelowMin', values: ['50'] }],
    });
    const decimals = await create(auth, appId, { title: 'Tip', amount: '1.999', currency: 'EUR' });
    expect(Object.keys(decimals.json().errors)).toEqual(['amount']);
    expect(await linkCount(appId)).toBe(0);
  });

  it("answers 404 for another account's app or link, and changes nothing", async () => {
    const owner = await merchant();
    const other = await merchant();
    const link = (await create(owner.auth, owner.appId, { title: 'Tip', currency: 'USD' })).json()
      .data;
    expect(
      (await create(other.auth, owner.appId, { title: 'x', currency: 'USD' })).statusCode,
    ).toBe(404);
    expect((await list(other.auth, owner.appId)).statusCode).toBe(404);
    expect((await details(other.auth, owner.appId, link.id)).statusCode).toBe(404);
    expect((await details(other.auth, other.appId, link.id)).statusCode).toBe(404);
    expect((await deactivate(other.auth, owner.appId, link.id)).statusCode).toBe(404);
    const through = await deactivate(other.auth, other.appId, link.id);
    expect(through.statusCode).toBe(404);
    expect(through.json()).toMatchObject({ status: false, errors: {} });
    expect((await details(owner.auth, owner.appId, link.id)).json().data.link.status).toBe(
      'active',
    );
    expect(await linkCount(other.appId)).toBe(0);
  });

  it('lists newest first, 10 a page, each with its totals', async () => {
    const { appId, auth } = await merchant();
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      t.clock.advance(60_000);
      ids.push((await create(auth, appId, { title: `Link ${i}`, currency: 'USD' })).json().data.id);
    }
    const first = (await list(auth, appId)).json().data;
    expect(first).toMatchObject({
      current_page: 1,
      last_page: 2,
      per_page: 10,
      from: 1,
      to: 10,
      total: 12,
      first_page_url: `/api/cryptosafelock/app-payment-links/${appId}?page=1`,
    });
    expect(first.data.map((l: { id: string }) => l.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(first.data[0].totals).toEqual({
      invoices: 0,
      paid_invoices: 0,
      amount_paid: '0.00',
      uses: 0,
    });
    const second = (await list(auth, appId, { page: 2 })).json().data;
    expect(second.data.map((l: { id: string }) => l.id)).toEqual([ids[1], ids[0]]);
    const bad = await list(auth, appId, { page: 0 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['page']);
  });

  it('sums its settled invoices exactly, counts its uses, lists its invoices and gets used up', async () => {
    const { appId, auth } = await merchant();
    const link = (
      await create(auth, appId, { title: 'Donation', currency: 'USD', max_uses: 2 })
    ).json().data;
    const a = await shopperPays(link.url, `${VISIT}a`, '0.1');
    t.clock.advance(1000);
    const b = await shopperPays(link.url, `${VISIT}b`, '0,2');
    t.clock.advance(1000);
    const c = await shopperPays(link.url, `${VISIT}c`, '7');
    // A second post of one visit makes no second invoice.
    expect((await shopperPays(link.url, `${VISIT}c`, '7')).id).toBe(c.id);
    for (const invoice of [a, b]) {
      const marked = await t.call('markAppInvoice', {
        headers: auth,
        params: { id: appId, invoiceId: invoice.id },
        body: { status: 'settled', reason: 'Paid by card' },
      });
      expect(marked.statusCode).toBe(200);
    }
    const { data } = (await details(auth, appId, link.id)).json();
    // 0.1 + 0.2 in floats is 0.30000000000000004.
    expect(data.link.totals).toEqual({
      invoices: 3,
      paid_invoices: 2,
      amount_paid: '0.30',
      uses: 2,
    });
    expect(data.link.status).toBe('used_up');
    expect(data.invoices.total).toBe(3);
    expect(data.invoices.data.map((i: { id: string }) => i.id)).toEqual([c.id, b.id, a.id]);
    expect(data.invoices.data[0]).toMatchObject({ payment_link_id: link.id, amount: '7' });
    const listed = (await list(auth, appId)).json().data.data[0];
    expect(listed).toMatchObject({ id: link.id, status: 'used_up', totals: data.link.totals });
    // The link's invoices are the Invoices tab's too.
    const invoices = (
      await t.call('listAppInvoices', { headers: auth, params: { id: appId } })
    ).json().data;
    expect(invoices.total).toBe(3);
  });

  it('deactivates a link, and answers the same when asked again', async () => {
    const { appId, auth } = await merchant();
    const link = (await create(auth, appId, { title: 'Tip', currency: 'USD' })).json().data;
    t.clock.advance(5000);
    const res = await deactivate(auth, appId, link.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: true,
      msg: 'Payment link deactivated',
      data: { id: link.id, status: 'deactivated', updated_at: t.clock().toISOString() },
    });
    t.clock.advance(5000);
    const again = await deactivate(auth, appId, link.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(res.json().data);
    const unknown = await deactivate(auth, appId, 'plink_unknown');
    expect(unknown.statusCode).toBe(404);
  });
});
