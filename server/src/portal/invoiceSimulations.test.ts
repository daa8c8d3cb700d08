import { addUser } from '../../test/accounts';
import { insertSubscription } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import { watchDeposits } from '../domain/payments/deposits';
import { setTableRate } from '../domain/rates/table';
import { INVOICE_SIMULATION_LIMIT, SIMULATION_MSG } from '../domain/testMode/simulations';
import { coded } from '../../test/expectations';

// A test invoice's details in the portal pay and confirm it: simulateAppInvoicePayment makes the
// gateway helpers' transfer on the test network's local chain, confirmAppInvoicePayments mines
// the blocks it needs, and the watcher and the state machine do the rest. Live invoices,
// another account's, and invoices past taking payments are refused.

const HOST = 'portal.shop.test';
const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_PAYOUT = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

describe('simulated payments from the portal', () => {
  const t = testAppPerBlock();
  let serial = 0;

  /**
   * A merchant with a live app taking USDT (BEP20), and TRX when `tron`, and its test mode
   * opened, and their session.
   */
  async function merchant({ tron = false } = {}) {
    serial += 1;
    const username = `simulator${serial}`;
    const userId = await addUser(t, username);
    await insertSubscription(t, userId);
    const auth = { ...(await t.authHeader(username)), host: HOST };
    const created = await t.call('createApp', {
      headers: auth,
      body: { app_name: `Shop ${serial}`, project_url: 'https://shop.example.com' },
    });
    const liveId = created.json().app.id as string;
    await t.call('usePaymentMethod', {
      headers: auth,
      body: { payment_method_id: 'pm_usdt_bsc', collect_address: PAYOUT, user_app_id: liveId },
    });
    if (tron) {
      await t.call('usePaymentMethod', {
        headers: auth,
        body: { payment_method_id: 'pm_trx', collect_address: TRON_PAYOUT, user_app_id: liveId },
      });
    }
    const opened = await t.call('openTestMode', { headers: auth, params: { id: liveId } });
    return { auth, liveId, testId: opened.json().app.id as string };
  }

  type Auth = Awaited<ReturnType<typeof merchant>>['auth'];
  const invoice = async (auth: Auth, id: string) => {
    const res = await t.call('createAppInvoice', {
      headers: auth,
      params: { id },
      body: { amount: '10', currency: 'USD' },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.id as string;
  };
  const simulate = (auth: Auth, id: string, invoiceId: string, scenario: string) =>
    t.call('simulateAppInvoicePayment', {
      headers: auth,
      params: { id, invoiceId },
      body: { scenario },
    });
  const confirm = (auth: Auth, id: string, invoiceId: string) =>
    t.call('confirmAppInvoicePayments', { headers: auth, params: { id, invoiceId } });
  const status = async (auth: Auth, id: string, invoiceId: string) =>
    (await t.call('getAppInvoice', { headers: auth, params: { id, invoiceId } })).json().data
      .invoice.status as string;
  const watch = () => watchDeposits(t.db, chainAdapterFor(t.config, t.db, 97), t.clock());

  it('pays a test invoice in part, then in full, and confirms it now: it settles', async () => {
    const { auth, testId } = await merchant();
    const id = await invoice(auth, testId);
    const partial = await simulate(auth, testId, id, 'partial');
    expect(partial.statusCode).toBe(200);
    expect(partial.json()).toEqual(
      coded({
        status: true,
        msg: 'Simulated payment sent',
        data: {
          scenario: 'partial',
          method: 'USDT-BEP20',
          chain_id: 97,
          amount: '5',
          tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          confirmations: expect.any(Number),
        },
      }),
    );
    await watch();
    expect(await status(auth, testId, id)).toBe('new');
    const full = await simulate(auth, testId, id, 'full');
    expect(full.json().data.amount).toBe('5');
    await watch();
    expect(await status(auth, testId, id)).toBe('processing');

    const confirmed = await confirm(auth, testId, id);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual(
      coded({
        status: true,
        msg: 'Payments confirmed',
        data: { payments: 2, mined: expect.any(Number) },
      }),
    );
    expect(confirmed.json().data.mined).toBeGreaterThan(0);
    await watch();
    expect(await status(auth, testId, id)).toBe('settled');
    // Settled: no more payments, and confirming again mines nothing.
    const late = await simulate(auth, testId, id, 'over');
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toBe(SIMULATION_MSG.invoiceState('settled'));
    expect((await confirm(auth, testId, id)).json().data.mined).toBe(0);
  });

  it('makes a test invoice payable on Tron Nile (chain id -1) and pays it', async () => {
    await setTableRate(t.db, { pair: 'TRX/USD', rate: '0.25', maxAgeHours: 24, now: t.clock() });
    const { auth, testId } = await merchant({ tron: true });
    const id = await invoice(auth, testId);
    const details = await t.call('getAppInvoice', {
      headers: auth,
      params: { id: testId, invoiceId: id },
    });
    expect(details.statusCode).toBe(200);
    expect(
      details.json().data.invoice.payment_options.map((o: { chain_id: number }) => o.chain_id),
    ).toEqual([97, -1]);
    expect((await simulate(auth, testId, id, 'full')).json().data.chain_id).toBe(97);
  });

  it('refuses a live invoice, another account’s, a bad scenario, and confirming nothing', async () => {
    const { auth, liveId, testId } = await merchant();
    const live = await invoice(auth, liveId);
    const refused = await simulate(auth, liveId, live, 'full');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: false, msg: SIMULATION_MSG.liveInvoice });
    expect((await confirm(auth, liveId, live)).statusCode).toBe(403);
    // The live invoice through the test app's id is another app's invoice.
    expect((await simulate(auth, testId, live, 'full')).statusCode).toBe(404);

    const id = await invoice(auth, testId);
    const other = await merchant();
    expect((await simulate(other.auth, testId, id, 'full')).statusCode).toBe(404);
    expect((await simulate(auth, testId, id, 'late')).statusCode).toBe(422);
    const nothing = await confirm(auth, testId, id);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().msg).toBe(SIMULATION_MSG.nothingToConfirm);
  });

  it(`allows ${INVOICE_SIMULATION_LIMIT} simulations and confirmations a minute per invoice`, async () => {
    const { auth, testId } = await merchant();
    const id = await invoice(auth, testId);
    for (let i = 0; i < INVOICE_SIMULATION_LIMIT - 1; i += 1) {
      expect((await simulate(auth, testId, id, 'over')).statusCode).toBe(200);
    }
    expect((await confirm(auth, testId, id)).statusCode).toBe(200);
    const limited = await simulate(auth, testId, id, 'over');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().msg).toMatch(/^At most 30 simulated payments/);
    // Another invoice has its own.
    expect((await simulate(auth, testId, await invoice(auth, testId), 'full')).statusCode).toBe(
      200,
    );
  });
});
