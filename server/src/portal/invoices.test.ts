import { parseUnits } from 'viem';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { coded, expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';
import { watchDeposits } from '../domain/payments/deposits';
import { setTableRate } from '../domain/rates/table';
import { INVOICE_MESSAGES } from '../../../src/shared/invoices';

// The Invoices tab's operations and the two invoice settings of Merchant Setting, through HTTP as
// the portal calls them: the gateway's invoice functions behind a session, owner-checked, with
// the gateway's refusals in the portal's envelope; and a settled invoice counted once on the
// dashboard and in Usage.

const HOST = 'portal.shop.test';

describe('portal invoices', () => {
  const t = testAppPerBlock();
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
  });

  /** A merchant with a package (or not), an app with USDT (BEP20), and their session. */
  async function merchant(options: { subscribed?: boolean; callbackUrl?: string } = {}) {
    serial += 1;
    const tag = `pinv${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    if (options.subscribed !== false) await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: t.clock().toISOString(),
      callback_url: options.callbackUrl ?? null,
    });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    return { userId, appId, auth: await t.authHeader(`merchant_${tag}`) };
  }

  type Auth = { authorization: string };
  const create = (auth: Auth, id: string, body: Record<string, unknown>) =>
    t.call('createAppInvoice', { headers: { ...auth, host: HOST }, params: { id }, body });
  const list = (auth: Auth, id: string, query: Record<string, string | number> = {}) =>
    t.call('listAppInvoices', { headers: auth, params: { id }, query });
  const details = (auth: Auth, id: string, invoiceId: string) =>
    t.call('getAppInvoice', { headers: auth, params: { id, invoiceId } });
  const mark = (auth: Auth, id: string, invoiceId: string, body: Record<string, unknown>) =>
    t.call('markAppInvoice', { headers: auth, params: { id, invoiceId }, body });
  const cancel = (auth: Auth, id: string, invoiceId: string) =>
    t.call('cancelAppInvoice', { headers: auth, params: { id, invoiceId } });
  const countOf = async (appId: string) =>
    Number(
      (
        await t.db
          .selectFrom('invoices')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('Merchant Setting: the invoice settings', () => {
    const update = (auth: Auth, appId: string, more: Record<string, unknown>) =>
      t.call('updateApp', {
        headers: auth,
        body: {
          app_id: appId,
          app_name: 'Shop',
          project_url: 'https://shop.example.com',
          status: 1,
          ...more,
        },
      });

    it('starts at 0 % and 60 minutes, saves both with Update and shows them in the details', async () => {
      const { appId, auth } = await merchant();
      const before = await t.call('getAppDetails', { headers: auth, params: { id: appId } });
      expect(before.json().data.app_data).toMatchObject({
        invoice_underpayment_tolerance: '0',
        invoice_late_window_minutes: 60,
      });
      const res = await update(auth, appId, {
        invoice_underpayment_tolerance: '1.50',
        invoice_late_window_minutes: 90,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        invoice_underpayment_tolerance: '1.5',
        invoice_late_window_minutes: 90,
      });
      const after = await t.call('getAppDetails', { headers: auth, params: { id: appId } });
      expect(after.json().data.app_data).toMatchObject({
        invoice_underpayment_tolerance: '1.5',
        invoice_late_window_minutes: 90,
      });
      // A new invoice takes them.
      const invoice = (await create(auth, appId, { amount: '10', currency: 'USD' })).json().data;
      expect(invoice).toMatchObject({ underpayment_tolerance: '1.5', late_window_minutes: 90 });
    });

    it('keeps them when an update leaves them out', async () => {
      const { appId, auth } = await merchant();
      await update(auth, appId, {
        invoice_underpayment_tolerance: '2',
        invoice_late_window_minutes: 0,
      });
      const res = await update(auth, appId, { info: 'Checkout' });
      expect(res.json().data).toMatchObject({
        info: 'Checkout',
        invoice_underpayment_tolerance: '2',
        invoice_late_window_minutes: 0,
      });
    });

    it.each([
      ['10.01', 1441],
      ['11', -1],
      ['1.555', 2000],
      ['-1', 100000],
      ['abc', 1441],
    ])(
      'refuses tolerance %s and late window %s, both named, and changes nothing',
      async (tol, late) => {
        const { appId, auth } = await merchant();
        const res = await update(auth, appId, {
          info: 'changed',
          invoice_underpayment_tolerance: tol,
          invoice_late_window_minutes: late,
        });
        expectFieldErrors(res, {
          invoice_underpayment_tolerance: [INVOICE_MESSAGES.toleranceInvalid],
          invoice_late_window_minutes: [INVOICE_MESSAGES.lateWindowInvalid],
        });
        const row = await t.db
          .selectFrom('apps')
          .select(['info', 'invoice_underpayment_tolerance', 'invoice_late_window_minutes'])
          .where('id', '=', appId)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({
          info: null,
          invoice_underpayment_tolerance: '0',
          invoice_late_window_minutes: 60,
        });
      },
    );

    it('takes the bounds: 0 and 10 %, 0 and 1440 minutes', async () => {
      const { appId, auth } = await merchant();
      for (const [tol, late] of [
        ['10.00', 1440],
        ['0', 0],
      ] as const) {
        const res = await update(auth, appId, {
          invoice_underpayment_tolerance: tol,
          invoice_late_window_minutes: late,
        });
        expect(res.statusCode).toBe(200);
      }
    });

    it('refuses a late window that is not a whole number with the same message', async () => {
      const { appId, auth } = await merchant();
      const res = await update(auth, appId, { invoice_late_window_minutes: 1.5 });
      expectFieldErrors(res, {
        invoice_late_window_minutes: [INVOICE_MESSAGES.lateWindowInvalid],
      });
    });
  });

  describe('create, list, details, mark and cancel', () => {
    it('creates an invoice with its checkout link on the portal origin, through the gateway code', async () => {
      const { appId, auth } = await merchant();
      const res = await create(auth, appId, {
        amount: '49.90',
        currency: 'EUR',
        description: 'Two mugs',
        order_id: 'order-1042',
        expires_in: 1800,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ status: true, msg: 'Invoice created' });
      const invoice = body.data;
      expect(invoice).toMatchObject({
        id: expect.stringMatching(/^inv_/),
        status: 'new',
        exceptions: [],
        amount: '49.90',
        currency: 'EUR',
        order_id: 'order-1042',
        description: 'Two mugs',
        checkout_url: `http://${HOST}/pay/${invoice.id}`,
        payment_options: [
          expect.objectContaining({
            method: 'USDT-BEP20',
            amount_due: '53.9',
            rate_source: 'peg:USDT/USD+table:EUR/USD',
          }),
        ],
      });
      expect(Date.parse(invoice.expires_at) - Date.parse(invoice.created_at)).toBe(1_800_000);
      const again = await details(auth, appId, invoice.id);
      expect(again.json().data.invoice).toEqual(invoice);
    });

    it('treats empty optional fields as none', async () => {
      const { appId, auth } = await merchant();
      const invoice = (
        await create(auth, appId, { amount: '5', currency: 'USD', description: '', order_id: '' })
      ).json().data;
      expect(invoice).toMatchObject({ description: null, order_id: null });
    });

    it('names the field of each bad input and creates nothing', async () => {
      const { appId, auth } = await merchant();
      const decimals = await create(auth, appId, { amount: '49.999', currency: 'EUR' });
      expect(decimals.statusCode).toBe(422);
      const tooPrecise = 'EUR has 2 decimals: amount has more (49.999).';
      expect(decimals.json()).toEqual(
        coded({ status: false, msg: tooPrecise, errors: { amount: [tooPrecise] } }),
      );
      // The portal shows it in its language from its code, the currency, field and amount values.
      const places = { code: 'currency.places', values: ['EUR', '2', 'amount', '49.999'] };
      expect(decimals.json().codes).toEqual({ msg: places, errors: { amount: [places] } });
      const zero = await create(auth, appId, { amount: '0', currency: 'EUR' });
      expect(Object.keys(zero.json().errors)).toEqual(['amount']);
      const unknown = await create(auth, appId, { amount: '1', currency: 'XYZ' });
      expect(unknown.statusCode).toBe(422);
      expect(Object.keys(unknown.json().errors)).toEqual(['currency']);
      const expiry = await create(auth, appId, { amount: '1', currency: 'EUR', expires_in: 60 });
      expectFieldErrors(expiry, { expires_in: [INVOICE_MESSAGES.expiryInvalid] });
      const missing = await create(auth, appId, {});
      expectFieldErrors(missing, {
        amount: [INVOICE_MESSAGES.amountRequired],
        currency: [INVOICE_MESSAGES.currencyRequired],
      });
      expect(await countOf(appId)).toBe(0);
    });

    it('answers 402 with the plan code when the merchant has no package', async () => {
      const { appId, auth } = await merchant({ subscribed: false });
      const res = await create(auth, appId, { amount: '1', currency: 'EUR' });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({
        status: false,
        msg: expect.stringContaining('subscribe to a package to create invoices'),
        errors: {},
        code: 'no_package',
        codes: { msg: { code: 'plan.noPackageInvoice' } },
      });
      expect(await countOf(appId)).toBe(0);
    });

    it('answers 503 rate_unavailable naming the pair when no rate is fresh', async () => {
      const { appId, auth } = await merchant();
      const res = await create(auth, appId, { amount: '1', currency: 'GBP' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: false,
        msg: expect.stringContaining('No fresh rate for GBP/USD'),
        code: 'rate_unavailable',
        pair: 'GBP/USD',
      });
      expect(await countOf(appId)).toBe(0);
    });

    it("answers 404 for another account's app or invoice, and changes nothing", async () => {
      const owner = await merchant();
      const other = await merchant();
      const invoice = (
        await create(owner.auth, owner.appId, { amount: '1', currency: 'EUR' })
      ).json().data;
      expect(
        (await create(other.auth, owner.appId, { amount: '1', currency: 'EUR' })).statusCode,
      ).toBe(404);
      expect((await list(other.auth, owner.appId)).statusCode).toBe(404);
      expect((await details(other.auth, owner.appId, invoice.id)).statusCode).toBe(404);
      // Through the other's own app: the invoice is not theirs either.
      expect((await details(other.auth, other.appId, invoice.id)).statusCode).toBe(404);
      const marked = await mark(other.auth, other.appId, invoice.id, {
        status: 'invalid',
        reason: 'not mine',
      });
      expect(marked.statusCode).toBe(404);
      expect((await cancel(other.auth, owner.appId, invoice.id)).statusCode).toBe(404);
      expect((await details(owner.auth, owner.appId, invoice.id)).json().data.invoice.status).toBe(
        'new',
      );
    });

    it('lists newest first, 10 a page, filtered by status, order id and created range', async () => {
      const { appId, auth } = await merchant();
      const start = t.clock().getTime();
      const ids: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        t.clock.advance(60_000);
        const order = i % 3 === 0 ? 'order-a' : `order-${i}`;
        ids.push(
          (await create(auth, appId, { amount: '1', currency: 'EUR', order_id: order })).json().data
            .id,
        );
      }
      await cancel(auth, appId, ids[11] ?? '');
      const first = (await list(auth, appId)).json().data;
      expect(first).toMatchObject({
        current_page: 1,
        last_page: 2,
        per_page: 10,
        from: 1,
        to: 10,
        total: 12,
        first_page_url: `/api/cryptosafelock/app-invoices/${appId}?page=1`,
      });
      expect(first.data.map((i: { id: string }) => i.id)).toEqual([...ids].reverse().slice(0, 10));
      const second = (await list(auth, appId, { page: 2 })).json().data;
      expect(second.data.map((i: { id: string }) => i.id)).toEqual([ids[1], ids[0]]);

      const invalid = (await list(auth, appId, { status: 'invalid' })).json().data;
      expect(invalid.data.map((i: { id: string }) => i.id)).toEqual([ids[11]]);
      expect(invalid.first_page_url).toBe(
        `/api/cryptosafelock/app-invoices/${appId}?status=invalid&page=1`,
      );
      const byOrder = (await list(auth, appId, { order_id: 'order-a' })).json().data;
      expect(byOrder.data.map((i: { id: string }) => i.id)).toEqual([
        ids[9],
        ids[6],
        ids[3],
        ids[0],
      ]);
      // Created from the 3rd minute (inclusive) to the 5th (exclusive): the 3rd and 4th.
      const range = (
        await list(auth, appId, {
          from: new Date(start + 3 * 60_000).toISOString(),
          to: new Date(start + 5 * 60_000).toISOString(),
        })
      ).json().data;
      expect(range.data.map((i: { id: string }) => i.id)).toEqual([ids[3], ids[2]]);
      expect(range.total).toBe(2);
      const badDate = await list(auth, appId, { from: 'yesterday' });
      expect(badDate.statusCode).toBe(422);
      expect(Object.keys(badDate.json().errors)).toEqual(['from']);
    });

    it('marks settled with a reason, then refuses a second mark with 409 and the status', async () => {
      const { appId, auth } = await merchant();
      const { id } = (await create(auth, appId, { amount: '1', currency: 'EUR' })).json().data;
      const res = await mark(auth, appId, id, { status: 'settled', reason: 'Paid by card' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        msg: 'Invoice marked settled',
        data: { status: 'settled', exceptions: ['marked'], mark_reason: 'Paid by card' },
      });
      const again = await mark(auth, appId, id, { status: 'invalid', reason: 'oops' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        status: false,
        code: 'invoice_state',
        invoice_status: 'settled',
        errors: {},
      });
      const noReason = await mark(auth, appId, id, { status: 'invalid', reason: '' });
      expectFieldErrors(noReason, { reason: [INVOICE_MESSAGES.reasonRequired] });
      const row = await details(auth, appId, id);
      expect(row.json().data.invoice).toMatchObject({
        status: 'settled',
        mark_reason: 'Paid by card',
      });
    });

    it('cancels a new invoice, and refuses to cancel it twice', async () => {
      const { appId, auth } = await merchant();
      const { id } = (await create(auth, appId, { amount: '1', currency: 'EUR' })).json().data;
      const res = await cancel(auth, appId, id);
      expect(res.json()).toMatchObject({
        msg: 'Invoice cancelled',
        data: { status: 'invalid', invalid_reason: 'cancelled' },
      });
      const again = await cancel(auth, appId, id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'invoice_state', invoice_status: 'invalid' });
    });

    it('gives a timeline of status changes, each with its webhook deliveries', async () => {
      const { appId, auth } = await merchant({ callbackUrl: 'https://shop.example.com/hooks' });
      const { id } = (await create(auth, appId, { amount: '1', currency: 'EUR' })).json().data;
      t.clock.advance(1000);
      await mark(auth, appId, id, { status: 'invalid', reason: 'Duplicate order' });
      const { timeline } = (await details(auth, appId, id)).json().data;
      expect(timeline).toEqual([
        {
          event_id: expect.stringMatching(/^evt_/),
          event: 'invoice.created',
          at: expect.any(String),
          status: 'new',
          exceptions: [],
          detail: null,
          deliveries: [
            expect.objectContaining({ event: 'invoice.created', status: 'pending', attempts: 0 }),
          ],
        },
        {
          event_id: expect.stringMatching(/^evt_/),
          event: 'invoice.invalid',
          at: expect.any(String),
          status: 'invalid',
          exceptions: ['marked'],
          detail: null,
          deliveries: [expect.objectContaining({ event: 'invoice.invalid', status: 'pending' })],
        },
      ]);
      expect(Date.parse(timeline[1].at)).toBeGreaterThan(Date.parse(timeline[0].at));
    });

    it('gives a timeline without deliveries when the app has no Webhook URl', async () => {
      const { appId, auth } = await merchant();
      const { id } = (await create(auth, appId, { amount: '1', currency: 'EUR' })).json().data;
      const { timeline } = (await details(auth, appId, id)).json().data;
      expect(timeline).toEqual([
        expect.objectContaining({ event: 'invoice.created', deliveries: [] }),
      ]);
    });
  });

  describe('Dashboard and Usage', () => {
    const USDT = specUsdt(56)?.contract ?? '';
    const chain = () => chainAdapterFor(t.config, t.db, 56);
    const pay = (to: string, usdt: string) =>
      recordLocalChainTransfer(t.db, {
        chainId: 56,
        token: chain().tokenContract(USDT),
        to,
        amount: parseUnits(usdt, 18),
        createdAt: t.clock().toISOString(),
      });

    it('count a settled invoice paid in two parts as one transaction', async () => {
      const { appId, auth } = await merchant();
      const figures = async () => {
        const dashboard = (await t.call('getDashboard', { headers: auth })).json().data;
        const app = (await t.call('getAppDetails', { headers: auth, params: { id: appId } })).json()
          .data;
        return {
          total: dashboard.total_transaction,
          daily: dashboard.daily_transaction,
          used: dashboard.subscription.transaction_used,
          incoming: app.total_transaction.incoming,
          received: app.all_payment_methods.find((m: { id: string }) => m.id === 'pm_usdt_bsc')
            .total_amount,
          dailyLogs: app.daily_logs.data.map((d: { deposit_count: number }) => d.deposit_count),
        };
      };
      const before = await figures();
      const invoice = (await create(auth, appId, { amount: '49.90', currency: 'EUR' })).json().data;
      const address = invoice.payment_options[0].address;
      await pay(address, '21.6');
      await watchDeposits(t.db, chain(), t.clock());
      await mineLocalBlocks(t.db, 1);
      await pay(address, '32.3');
      await watchDeposits(t.db, chain(), t.clock());
      expect((await details(auth, appId, invoice.id)).json().data.invoice.status).toBe(
        'processing',
      );
      // Nothing counts before it settles.
      expect(await figures()).toEqual(before);
      await mineLocalBlocks(t.db, 20);
      await watchDeposits(t.db, chain(), t.clock());
      const settled = (await details(auth, appId, invoice.id)).json().data;
      expect(settled.invoice.status).toBe('settled');
      expect(settled.timeline.map((e: { event: string }) => e.event)).toEqual([
        'invoice.created',
        'invoice.payment_received',
        'invoice.payment_received',
        'invoice.processing',
        'invoice.settled',
      ]);
      expect(await figures()).toEqual({
        total: before.total + 1,
        daily: before.daily + 1,
        used: before.used + 1,
        incoming: before.incoming + 1,
        received: before.received + 53.9,
        dailyLogs: [1],
      });
    });
  });
});
