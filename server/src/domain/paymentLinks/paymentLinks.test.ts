import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { resolveWalletXpub } from '../chain/walletKey';
import { InvalidError, NotFoundError } from '../errors';
import { RateBook } from '../rates/rates';
import {
  createPaymentLink,
  deactivatePaymentLink,
  getPaymentLink,
  listPaymentLinks,
  paymentLinkBySlug,
  payInvoice,
  PaymentLinkAmountError,
  PaymentLinkClosedError,
  type NewPaymentLink,
} from './paymentLinks';

// Payment links in the domain, on both engines: what a new link holds and every refusal at once,
// the list's pages, the invoices a shopper's "Pay" makes (one per visit, also when two posts of
// a visit race), the amount a shopper chooses, the link's closing (deactivated, expired, used up)
// and its totals summed exactly.

const ORIGIN = 'https://pay.shop.test';
const VISIT = 'v'.repeat(22);

describe('payment links', () => {
  const t = testAppPerBlock();
  let serial = 0;

  /** A merchant with a package, USDT (BEP20) for deposits and BNB with For Deposit off. */
  async function merchant() {
    serial += 1;
    const tag = `pl${serial}`;
    const userId = await addUser(t, `links_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await t.db.updateTable('apps').set({ app_name: 'Mug Shop' }).where('id', '=', appId).execute();
    await insertAppMethod(t, { id: `apm_${tag}_usdt`, app_id: appId });
    await insertAppMethod(t, {
      id: `apm_${tag}_bnb`,
      app_id: appId,
      payment_method_id: 'pm_bnb',
      deposit_status: 0,
    });
    return appId;
  }

  const context = () => ({ origin: ORIGIN, now: t.clock() });
  const create = (appId: string, fields: Partial<NewPaymentLink> = {}) =>
    createPaymentLink(t.db, {
      appId,
      title: 'Two mugs',
      amount: '25.00',
      currency: 'USD',
      ...context(),
      ...fields,
    });
  const rates = () => new RateBook({ db: t.db, config: t.config });
  /** The row behind a link's page, as a shopper reaches it. */
  async function publicLink(url: string) {
    const found = await paymentLinkBySlug(t.db, url.split('/').pop() ?? '', t.clock());
    if (!found) throw new Error(`no link at ${url}`);
    return found;
  }
  const pay = async (url: string, visit = VISIT, amount?: string) =>
    payInvoice(t.db, rates(), resolveWalletXpub(t.config), {
      link: (await publicLink(url)).link,
      amount,
      visit,
      checkoutOrigin: ORIGIN,
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => listed,
    });
  const setStatus = (id: string, status: 'processing' | 'settled') =>
    t.db.updateTable('invoices').set({ status }).where('id', '=', id).execute();
  const refusalOf = async (promise: Promise<unknown>) => {
    const err: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof InvalidError)) throw new Error(`not refused: ${String(err)}`);
    return err.errors;
  };

  it('makes a link with an unguessable URL of its own, active, nothing paid yet', async () => {
    const appId = await merchant();
    const link = await create(appId, {
      description: 'Blue, from the spring batch',
      methods: ['USDT-BEP20'],
      redirectUrl: 'https://shop.example.com/thanks',
      expiresAt: new Date(t.clock().getTime() + 86_400_000).toISOString(),
      maxUses: 3,
    });
    const now = t.clock().toISOString();
    expect(link).toEqual({
      id: expect.stringMatching(/^plink_[0-9a-z]{26}$/),
      url: expect.stringMatching(/^https:\/\/pay\.shop\.test\/l\/[a-z0-9]{16}$/),
      title: 'Two mugs',
      description: 'Blue, from the spring batch',
      amount: '25.00',
      amount_min: null,
      amount_max: null,
      currency: 'USD',
      methods: ['USDT-BEP20'],
      redirect_url: 'https://shop.example.com/thanks',
      expires_at: new Date(t.clock().getTime() + 86_400_000).toISOString(),
      max_uses: 3,
      status: 'active',
      created_at: now,
      updated_at: now,
      totals: { invoices: 0, paid_invoices: 0, amount_paid: '0.00', uses: 0 },
    });
    expect(await getPaymentLink(t.db, appId, link.id, context())).toEqual(link);
    // Each link its own slug.
    const other = await create(appId);
    expect(other.url).not.toBe(link.url);
    // Another app's id is not found.
    await expect(getPaymentLink(t.db, await merchant(), link.id, context())).rejects.toThrow(
      NotFoundError,
    );
  });

  it('names every fault by its field, all at once, and makes nothing', async () => {
    const appId = await merchant();
    const errors = await refusalOf(
      create(appId, {
        title: '   ',
        description: 'x'.repeat(501),
        amount: '25.001',
        amountMin: '1',
        currency: 'USD',
        methods: ['BNB-BSC', 'ETH-ETHEREUM'],
        redirectUrl: 'ftp://shop.example.com',
        expiresAt: new Date(t.clock().getTime() - 1000).toISOString(),
        maxUses: 0,
      }),
    );
    expect(errors).toEqual({
      title: ['title must not be empty, like "Donation".'],
      description: [
        'description must be at most 500 characters, like "Thank you for your support".',
      ],
      amount: [
        'USD has 2 decimals: amount has more (25.001).',
        'Give either amount (a fixed price) or amount_min and amount_max (the shopper chooses within them), not both.',
      ],
      methods: [
        'Deposits of BNB-BSC are switched off for this app.',
        'The app has not enabled ETH-ETHEREUM.',
      ],
      redirect_url: [
        'redirect_url must name a host a browser can reach, like "https://shop.example.com/thanks".',
      ],
      expires_at: [
        `expires_at must be in the future (it is ${t.clock().toISOString()} now), like "2026-12-31T23:59:59Z".`,
      ],
      max_uses: ['max_uses must be a whole number from 1 to 1000000, like 100.'],
    });
    expect(
      await refusalOf(
        create(appId, {
          title: 'x'.repeat(121),
          amount: undefined,
          amountMin: '50',
          amountMax: '10',
          currency: 'XYZ',
        }),
      ),
    ).toEqual({
      title: ['title must be at most 120 characters, like "Donation".'],
      currency: [expect.stringMatching(/^currency must be one of USD, EUR, .* XYZ is not one\.$/)],
      amount_max: ['amount_max must be at least amount_min (50), like "50" or more.'],
    });
    expect(await refusalOf(create(appId, { amount: '0' }))).toEqual({
      amount: ['amount must be above 0, like "25.00".'],
    });
    const page = await listPaymentLinks(t.db, appId, { cursor: undefined, limit: 10 }, context());
    expect(page.links).toEqual([]);
  });

  it('lists links newest first, a page at a time', async () => {
    const appId = await merchant();
    const made = [];
    for (let i = 0; i < 3; i += 1) {
      made.push(await create(appId, { title: `Link ${i}` }));
      t.clock.advance(1000);
    }
    const first = await listPaymentLinks(t.db, appId, { cursor: undefined, limit: 2 }, context());
    expect(first.links.map((l) => l.title)).toEqual(['Link 2', 'Link 1']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listPaymentLinks(
      t.db,
      appId,
      { cursor: first.nextCursor ?? '', limit: 2 },
      context(),
    );
    expect(second).toEqual({ links: [made[0]], nextCursor: null });
  });

  it('makes one invoice per visit, described by the link, in its currency and methods', async () => {
    const appId = await merchant();
    const link = await create(appId, {
      methods: ['USDT-BEP20'],
      redirectUrl: 'https://shop.example.com/thanks',
    });
    const invoice = await pay(link.url);
    expect(invoice).toMatchObject({
      status: 'new',
      amount: '25.00',
      currency: 'USD',
      description: 'Two mugs',
      redirect_url: 'https://shop.example.com/thanks',
      checkout_url: `${ORIGIN}/pay/${invoice.id}`,
      payment_link_id: link.id,
      payment_options: [expect.objectContaining({ method: 'USDT-BEP20', amount_due: '25' })],
    });
    // The same visit again (a reload, a second click): the same invoice.
    expect((await pay(link.url)).id).toBe(invoice.id);
    // Another visit: another invoice.
    const next = await pay(link.url, 'w'.repeat(22));
    expect(next.id).not.toBe(invoice.id);
    expect((await getPaymentLink(t.db, appId, link.id, context())).totals).toEqual({
      invoices: 2,
      paid_invoices: 0,
      amount_paid: '0.00',
      uses: 0,
    });
  });

  it('makes one invoice when two posts of one visit race', async () => {
    const appId = await merchant();
    const link = await create(appId);
    const visit = 'r'.repeat(22);
    const [a, b, c] = await Promise.all([
      pay(link.url, visit),
      pay(link.url, visit),
      pay(link.url, visit),
    ]);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    const rows = await t.db
      .selectFrom('invoices')
      .select('id')
      .where('payment_link_id', '=', link.id)
      .execute();
    expect(rows).toEqual([{ id: a.id }]);
  });

  it("takes the shopper's amount within the range, a comma for the point too, exactly as typed", async () => {
    const appId = await merchant();
    const link = await create(appId, { amount: undefined, amountMin: '5', amountMax: '500' });
    expect(link).toMatchObject({ amount: null, amount_min: '5', amount_max: '500' });
    expect((await pay(link.url, 'a'.repeat(22), ' 25,50 ')).amount).toBe('25.50');
    expect((await pay(link.url, 'b'.repeat(22), '7')).amount).toBe('7');
    const refused = async (typed: string) => {
      const err: unknown = await pay(link.url, 'c'.repeat(22), typed).catch((e: unknown) => e);
      if (!(err instanceof PaymentLinkAmountError)) throw new Error(`not refused: ${typed}`);
      return [err.reason, err.bound];
    };
    expect(await refused('4.99')).toEqual(['tooLow', '5']);
    expect(await refused('0')).toEqual(['tooLow', '5']);
    expect(await refused('500.01')).toEqual(['tooHigh', '500']);
    for (const typed of ['', 'ten', '1,000.00', '1.000,00', '-5', '1e3', '25.']) {
      expect(await refused(typed)).toEqual(['invalid', undefined]);
    }
    expect(await refused('25.001')).toEqual(['places', undefined]);
    // Without a range: above 0 and at most the largest invoice.
    const open = await create(appId, { amount: undefined, currency: 'JPY' });
    const err = (typed: string) =>
      pay(open.url, 'd'.repeat(22), typed).catch((e: unknown) => e as PaymentLinkAmountError);
    expect(await err('0')).toMatchObject({ reason: 'invalid' });
    expect(await err('1.5')).toMatchObject({ reason: 'places' });
    expect(await err('1000000001')).toMatchObject({ reason: 'tooHigh', bound: '1000000000' });
    // Nothing was made by the refusals.
    expect((await getPaymentLink(t.db, appId, link.id, context())).totals.invoices).toBe(2);
  });

  it('stops making invoices once deactivated, expired or used up; what it made stays payable', async () => {
    const appId = await merchant();
    const closedBy = async (url: string, visit: string) => {
      const err: unknown = await pay(url, visit).catch((e: unknown) => e);
      return err instanceof PaymentLinkClosedError ? err.status : err;
    };

    const off = await create(appId);
    const made = await pay(off.url);
    const deactivated = await deactivatePaymentLink(t.db, appId, off.id, context());
    expect(deactivated.status).toBe('deactivated');
    expect(await deactivatePaymentLink(t.db, appId, off.id, context())).toEqual(deactivated);
    expect(await closedBy(off.url, 'x'.repeat(22))).toBe('deactivated');
    // The visit that made an invoice still finds it.
    expect((await pay(off.url)).id).toBe(made.id);
    expect((await publicLink(off.url)).status).toBe('deactivated');

    const soon = await create(appId, {
      expiresAt: new Date(t.clock().getTime() + 60_000).toISOString(),
    });
    t.clock.advance(60_000);
    expect(await closedBy(soon.url, 'x'.repeat(22))).toBe('expired');
    expect((await getPaymentLink(t.db, appId, soon.id, context())).status).toBe('expired');

    const once = await create(appId, { maxUses: 1 });
    const first = await pay(once.url, 'a'.repeat(22));
    const second = await pay(once.url, 'b'.repeat(22));
    // Open invoices are no uses: neither blocks the link, and both stay payable.
    await setStatus(first.id, 'processing');
    expect(await closedBy(once.url, 'c'.repeat(22))).toBe('used_up');
    expect((await getPaymentLink(t.db, appId, once.id, context())).totals).toMatchObject({
      invoices: 2,
      uses: 1,
    });
    expect((await pay(once.url, 'b'.repeat(22))).id).toBe(second.id);

    await expect(deactivatePaymentLink(t.db, appId, 'plink_unknown', context())).rejects.toThrow(
      NotFoundError,
    );
  });

  it("sums its settled invoices' amounts exactly, in the link's currency", async () => {
    const appId = await merchant();
    const link = await create(appId, { amount: undefined });
    const paid = [];
    for (const [i, amount] of ['0.10', '0.20', '1000000000', '3.5'].entries()) {
      paid.push(await pay(link.url, String(i).repeat(22), amount));
    }
    await setStatus(paid[0]?.id ?? '', 'settled');
    await setStatus(paid[1]?.id ?? '', 'settled');
    await setStatus(paid[2]?.id ?? '', 'settled');
    await setStatus(paid[3]?.id ?? '', 'processing');
    expect((await getPaymentLink(t.db, appId, link.id, context())).totals).toEqual({
      invoices: 4,
      paid_invoices: 3,
      // 0.1 + 0.2 in floats is 0.30000000000000004.
      amount_paid: '1000000000.30',
      uses: 4,
    });
  });
});
