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
import { REFUND_MSG } from '../domain/refunds/refunds';
import { REFUND_MESSAGES } from '../../../src/shared/refunds';

// The Invoices tab's refunds, through HTTP as the portal calls them: the gateway's refund
// functions behind a session, owner-checked, the preview pricing exactly what the request then
// pays and writing nothing, the refusals in the portal's words at their fields, the list's
// numbered pages with its invoice filter, and Cancel.

const HOST = 'portal.shop.test';
const WALLET = '0x1111111111111111111111111111111111111111';
const SHOPPER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('portal refunds', () => {
  const t = testAppPerBlock();
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
  });

  /** A merchant with a package and an app with USDT (BEP20), its operational wallet made. */
  async function merchant() {
    serial += 1;
    const tag = `prf${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: WALLET, gas_index: serial })
      .where('id', '=', `apm_${tag}`)
      .execute();
    return { userId, appId, auth: await t.authHeader(`merchant_${tag}`) };
  }

  type Auth = { authorization: string };
  type Body = Record<string, unknown>;
  const headers = (auth: Auth) => ({ ...auth, host: HOST });
  const createInvoice = async (auth: Auth, id: string) =>
    (
      await t.call('createAppInvoice', {
        headers: headers(auth),
        params: { id },
        body: { amount: '49.90', currency: 'EUR' },
      })
    ).json().data;
  const preview = (auth: Auth, id: string, invoiceId: string, body: Body) =>
    t.call('previewAppRefund', { headers: headers(auth), params: { id, invoiceId }, body });
  const create = (auth: Auth, id: string, invoiceId: string, body: Body) =>
    t.call('createAppRefund', { headers: headers(auth), params: { id, invoiceId }, body });
  const list = (auth: Auth, id: string, query: Record<string, string | number> = {}) =>
    t.call('listAppRefunds', { headers: headers(auth), params: { id }, query });
  const cancel = (auth: Auth, id: string, refundId: string) =>
    t.call('cancelAppRefund', { headers: headers(auth), params: { id, refundId } });

  /** What refunds and their events the app has: a refusal leaves both as they were. */
  const written = async (appId: string) => ({
    refunds: Number(
      (
        await t.db
          .selectFrom('refunds')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    events: Number(
      (
        await t.db
          .selectFrom('webhook_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('app_id', '=', appId)
          .where('type', 'like', 'refund.%')
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  const USDT = specUsdt(56)?.contract ?? '';
  const chain = () => chainAdapterFor(t.config, t.db, 56);

  /** An invoice of 49.90 EUR paid `usdt` USDT (BEP20) and settled once confirmed. */
  async function paidInvoice(auth: Auth, appId: string, usdt = '60') {
    const invoice = await createInvoice(auth, appId);
    await recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: chain().tokenContract(USDT),
      to: invoice.payment_options[0].address,
      amount: parseUnits(usdt, 18),
      createdAt: t.clock().toISOString(),
    });
    await watchDeposits(t.db, chain(), t.clock());
    await mineLocalBlocks(t.db, 20);
    await watchDeposits(t.db, chain(), t.clock());
    const settled = (
      await t.call('getAppInvoice', { headers: auth, params: { id: appId, invoiceId: invoice.id } })
    ).json().data.invoice;
    expect(settled).toMatchObject({ status: 'settled', exceptions: ['paid_over'] });
    return settled as {
      id: string;
      overpaid: { amount: string };
      payment_options: [{ rate: string }];
    };
  }

  it('previews each kind of amount exactly and writes nothing', async () => {
    const { appId, auth } = await merchant();
    const invoice = await paidInvoice(auth, appId);
    const reason = 'Order cancelled';
    const full = await preview(auth, appId, invoice.id, { amount_kind: 'full', reason });
    expect(full.statusCode).toBe(200);
    expect(full.json()).toEqual({
      status: true,
      data: {
        method: 'USDT-BEP20',
        chain_id: 56,
        asset: 'USDT',
        amount: '60',
        rate: null,
        rate_kind: 'original',
        refundable: '60',
      },
    });
    const overpaid = (
      await preview(auth, appId, invoice.id, { amount_kind: 'overpaid', reason })
    ).json().data;
    expect(overpaid).toMatchObject({ amount: invoice.overpaid.amount, refundable: '60' });
    const token = (
      await preview(auth, appId, invoice.id, {
        amount_kind: 'custom',
        amount: '12.5',
        currency: 'USDT',
        reason,
      })
    ).json().data;
    expect(token).toMatchObject({ amount: '12.5', rate: null });
    const eur = (
      await preview(auth, appId, invoice.id, {
        amount_kind: 'custom',
        amount: '10.00',
        currency: 'EUR',
        rate: 'original',
        reason,
      })
    ).json().data;
    expect(eur.rate).toBe(invoice.payment_options[0].rate);
    const rate = Number(invoice.payment_options[0].rate);
    expect(Number(eur.amount)).toBeCloseTo(10 / rate, 5);
    expect(Number(eur.amount)).toBeLessThanOrEqual(10 / rate);
    const now = (
      await preview(auth, appId, invoice.id, {
        amount_kind: 'custom',
        amount: '10.00',
        currency: 'EUR',
        rate: 'current',
        reason,
      })
    ).json().data;
    expect(now).toMatchObject({ rate_kind: 'current', rate: expect.any(String) });
    expect(await written(appId)).toEqual({ refunds: 0, events: 0 });
  });

  it('asks what the preview showed, through a claim link on the portal origin, and lists it', async () => {
    const { appId, auth } = await merchant();
    const invoice = await paidInvoice(auth, appId);
    const other = await paidInvoice(auth, appId, '55');
    const body = { amount_kind: 'overpaid', method: 'USDT-BEP20', reason: 'Paid too much' };
    const shown = (await preview(auth, appId, invoice.id, body)).json().data;
    const res = await create(auth, appId, invoice.id, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, msg: 'Refund created' });
    const refund = res.json().data;
    expect(refund).toMatchObject({
      id: expect.stringMatching(/^rf_/),
      invoice_id: invoice.id,
      status: 'pending_claim',
      method: 'USDT-BEP20',
      chain_id: 56,
      amount: shown.amount,
      amount_kind: 'overpaid',
      reason: 'Paid too much',
      from_address: WALLET,
      address: null,
      claim_url: expect.stringMatching(new RegExp(`^http://${HOST}/refund/[A-Za-z0-9_-]{32}$`)),
    });
    expect(await written(appId)).toEqual({ refunds: 1, events: 1 });
    // What is left: the overpaid part is held by the refund.
    const left = (
      await preview(auth, appId, invoice.id, { amount_kind: 'full', reason: 'x' })
    ).json().data;
    expect(Number(left.refundable)).toBeCloseTo(60 - Number(shown.amount), 10);
    expect((await preview(auth, appId, invoice.id, body)).json().errors).toEqual({
      amount_kind: [REFUND_MSG.overpaidDone],
    });

    t.clock.advance(1000);
    const second = (
      await create(auth, appId, other.id, {
        amount_kind: 'custom',
        amount: '5',
        address: SHOPPER,
        reason: 'Broken mug',
      })
    ).json().data;
    expect(second).toMatchObject({
      status: 'awaiting_funds',
      address: SHOPPER,
      address_source: 'merchant',
      claim_url: null,
      waiting_message: expect.any(String),
    });

    const all = (await list(auth, appId)).json();
    expect(all.data).toMatchObject({
      total: 2,
      current_page: 1,
      last_page: 1,
      first_page_url: `/api/cryptosafelock/app-refunds/${appId}?page=1`,
    });
    expect(all.data.data.map((r: { id: string }) => r.id)).toEqual([second.id, refund.id]);
    expect(all.data.data[1].claim_url).toBe(refund.claim_url);
    const one = (await list(auth, appId, { invoice: invoice.id })).json().data;
    expect(one).toMatchObject({
      total: 1,
      first_page_url: `/api/cryptosafelock/app-refunds/${appId}?invoice=${invoice.id}&page=1`,
    });
    expect(one.data[0].id).toBe(refund.id);
    expect((await list(auth, appId, { invoice: 'not an id' })).statusCode).toBe(422);
    expect((await list(auth, appId, { page: 2 })).json().data).toMatchObject({
      data: [],
      total: 2,
      from: null,
    });
  });

  it("refuses the contract's and the domain's faults at their fields, in the portal's words, writing nothing", async () => {
    const { appId, auth } = await merchant();
    const invoice = await paidInvoice(auth, appId);
    for (const call of [preview, create]) {
      expectFieldErrors(await call(auth, appId, invoice.id, { amount_kind: 'custom' }), {
        reason: [REFUND_MESSAGES.reasonRequired],
      });
      expectFieldErrors(
        await call(auth, appId, invoice.id, {
          amount_kind: 'some',
          amount: '1,5',
          rate: 'then',
          method: 'usdt',
          reason: '',
        }),
        {
          amount_kind: [REFUND_MESSAGES.amountKindInvalid],
          amount: [REFUND_MESSAGES.amountInvalid],
          rate: [REFUND_MESSAGES.rateInvalid],
          method: [REFUND_MESSAGES.methodInvalid],
          reason: [REFUND_MESSAGES.reasonRequired],
        },
      );
      const reason = 'Order cancelled';
      expectFieldErrors(await call(auth, appId, invoice.id, { amount_kind: 'custom', reason }), {
        amount: [REFUND_MESSAGES.amountRequired],
      });
      expectFieldErrors(
        await call(auth, appId, invoice.id, { amount_kind: 'custom', amount: '0', reason }),
        { amount: [REFUND_MESSAGES.amountInvalid] },
      );
      expectFieldErrors(
        await call(auth, appId, invoice.id, { amount_kind: 'custom', amount: '61', reason }),
        { amount: [REFUND_MSG.overCap('60', 'USDT', 'USDT-BEP20', '61')] },
      );
      expectFieldErrors(
        await call(auth, appId, invoice.id, {
          amount_kind: 'custom',
          amount: '1',
          currency: 'GBP',
          reason,
        }),
        { currency: ["Choose the invoice's currency (EUR) or the token (USDT)."] },
      );
      expectFieldErrors(
        await call(auth, appId, invoice.id, {
          amount_kind: 'custom',
          amount: '1.999',
          currency: 'EUR',
          reason,
        }),
        { amount: [REFUND_MSG.decimals('EUR', 2)] },
      );
      expectFieldErrors(
        await call(auth, appId, invoice.id, { amount_kind: 'full', method: 'BNB-BSC', reason }),
        { method: [REFUND_MSG.notPaidIn('BNB-BSC', 'USDT-BEP20')] },
      );
      const bad = await call(auth, appId, invoice.id, {
        amount_kind: 'full',
        address: '0x123',
        reason,
      });
      expect(Object.keys(bad.json().errors)).toEqual(['address']);
      expectFieldErrors(
        await call(auth, appId, invoice.id, {
          amount_kind: 'full',
          address: '0x0000000000000000000000000000000000000000',
          reason,
        }),
        { address: ['The address is the zero address: coins and tokens sent there are lost.'] },
      );
    }
    expect(await written(appId)).toEqual({ refunds: 0, events: 0 });
  });

  it('refuses an invoice still being paid, with its status, writing nothing', async () => {
    const { appId, auth } = await merchant();
    const invoice = await createInvoice(auth, appId);
    for (const call of [preview, create]) {
      const res = await call(auth, appId, invoice.id, { amount_kind: 'full', reason: 'x' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(
        coded({
          status: false,
          msg: REFUND_MSG.invoiceState('new'),
          errors: {},
          code: 'invoice_state',
          invoice_status: 'new',
        }),
      );
    }
    expect(await written(appId)).toEqual({ refunds: 0, events: 0 });
  });

  it('cancels a refund waiting for its claim once, and its amount is refundable again', async () => {
    const { appId, auth } = await merchant();
    const invoice = await paidInvoice(auth, appId);
    const refund = (
      await create(auth, appId, invoice.id, { amount_kind: 'full', reason: 'Order cancelled' })
    ).json().data;
    expect(
      (await preview(auth, appId, invoice.id, { amount_kind: 'full', reason: 'x' })).json().errors,
    ).toEqual({ amount_kind: [REFUND_MSG.allRefunded('USDT-BEP20')] });
    const res = await cancel(auth, appId, refund.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: true,
      msg: 'Refund cancelled',
      data: { id: refund.id, status: 'cancelled', claim_url: null },
    });
    // Only a failed refund can be re-initiated.
    const reinitiated = await t.call('reinitiateAppRefund', {
      headers: headers(auth),
      params: { id: appId, refundId: refund.id },
    });
    expect(reinitiated.statusCode).toBe(409);
    expect(reinitiated.json()).toEqual(
      coded({
        status: false,
        msg: REFUND_MSG.notFailed('cancelled'),
        errors: {},
      }),
    );
    const again = await cancel(auth, appId, refund.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(
      coded({
        status: false,
        msg: REFUND_MSG.notCancellable('cancelled'),
        errors: {},
      }),
    );
    expect(
      (await preview(auth, appId, invoice.id, { amount_kind: 'full', reason: 'x' })).json().data
        .refundable,
    ).toBe('60');
    // The invoice's timeline tells the refund's story after its own, with the amount.
    const details = (
      await t.call('getAppInvoice', {
        headers: headers(auth),
        params: { id: appId, invoiceId: invoice.id },
      })
    ).json().data;
    const told = details.timeline.map((e: { event: string; detail: string | null }) => [
      e.event,
      e.detail,
    ]);
    expect(told.slice(-2)).toEqual([
      ['refund.created', '60 USDT-BEP20'],
      ['refund.cancelled', '60 USDT-BEP20'],
    ]);
    expect(told[0]).toEqual(['invoice.created', null]);
  });

  it("answers 404 for another account's app, invoice or refund, and changes nothing", async () => {
    const owner = await merchant();
    const other = await merchant();
    const invoice = await paidInvoice(owner.auth, owner.appId);
    const refund = (
      await create(owner.auth, owner.appId, invoice.id, { amount_kind: 'full', reason: 'x' })
    ).json().data;
    const body = { amount_kind: 'full', reason: 'x' };
    for (const [appId, auth] of [
      [owner.appId, other.auth],
      [other.appId, other.auth],
    ] as const) {
      expect((await preview(auth, appId, invoice.id, body)).statusCode).toBe(404);
      expect((await create(auth, appId, invoice.id, body)).statusCode).toBe(404);
      expect((await cancel(auth, appId, refund.id)).statusCode).toBe(404);
    }
    expect((await list(other.auth, owner.appId)).statusCode).toBe(404);
    expect((await list(other.auth, other.appId, { invoice: invoice.id })).json().data.total).toBe(
      0,
    );
    expect(await written(other.appId)).toEqual({ refunds: 0, events: 0 });
    expect((await list(owner.auth, owner.appId)).json().data.data[0].status).toBe('pending_claim');
  });
});
