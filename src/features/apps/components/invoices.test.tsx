import { act, screen, waitFor, within } from '@testing-library/react';
import { makeApp, makeAppDetails } from '../../../../test/factories/apps';
import { fixtures as appFixtures } from '../../../../test/factories/apps';
import {
  fixtures,
  makeInvoice,
  makeInvoiceDetails,
  makePartInvoice,
  PAYMENT_HASH,
} from '../../../../test/factories/invoices';
import { fail, ok, on, reply } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderOnRoute, renderRoute, SIGNED_IN } from '../../../../test/renderWithProviders';
import { INVOICE_MESSAGES } from '../../../shared/invoices';
import AppDetailPage from '../AppDetailPage';
import { LIVE } from './usePagedList';

// The Invoices tab (the Invoices extension of the app detail) and Merchant Setting's invoice
// settings, as the merchant sees them, against the contract's answers.

const INVOICE_ID = makeInvoice().id;

function renderAt(path: string) {
  return renderOnRoute('/app/my-app/:id/:tab?', <AppDetailPage />, {
    session: SIGNED_IN,
    route: path,
  });
}

/** The query strings (or JSON bodies) an operation receives, answering `answer`. */
function capture(operationId: Parameters<typeof on>[0], answer: () => Response) {
  const calls: unknown[] = [];
  server.use(
    on(operationId, async ({ request }) => {
      calls.push(
        request.method === 'GET'
          ? Object.fromEntries(new URL(request.url).searchParams)
          : await request.json(),
      );
      return answer();
    }),
  );
  return calls;
}

describe('Invoices tab: the list', () => {
  test('is in the menu and lists id, order id, amount, status with flags, created and expires', async () => {
    const { user, location } = renderAt('/app/my-app/app_1/payment-setting');
    const menu = await screen.findByRole('navigation', { name: 'App menu' });
    await user.click(within(menu).getByRole('link', { name: 'Invoices' }));
    expect(location.current).toBe('/app/my-app/app_1/invoices');
    expect(await screen.findByRole('heading', { level: 2, name: 'Invoices' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Invoice' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Invoices' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    const [first, second] = rows.slice(1) as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('button', { name: `Invoice ${INVOICE_ID}` })).toBeVisible();
    expect(first).toHaveTextContent('order-1042');
    expect(first).toHaveTextContent('49.90 EUR');
    expect(within(first).getByText('New')).toBeInTheDocument();
    expect(second).toHaveTextContent('10.00 USD');
    expect(second).toHaveTextContent('----');
    expect(within(second).getByText('Settled')).toBeInTheDocument();
    expect(within(second).getByText('Paid over')).toBeInTheDocument();
    expect(within(second).getByText('Marked')).toBeInTheDocument();
    expect(first.querySelectorAll('time')).toHaveLength(2);
    expect(screen.getByText(/Showing 1 to 2 of 2/)).toBeInTheDocument();
  });

  test('keeps a short order id on one line (not split at its hyphen) and lets a long one wrap', async () => {
    const long = `ORD-${'7'.repeat(40)}`;
    server.use(
      reply('listAppInvoices', {
        status: true,
        data: {
          ...fixtures.listAppInvoices!.data,
          data: [
            makeInvoice({ order_id: 'ORD-5010' }),
            makeInvoice({ id: 'inv_2settled00000000000000000', order_id: long }),
          ],
        },
      }),
    );
    renderAt('/app/my-app/app_1/invoices');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(await within(table).findByText('ORD-5010')).toHaveClass('one-line-id');
    expect(within(table).getByText(long)).not.toHaveClass('one-line-id');
  });

  test('filters by status, order id and created dates, and resets', async () => {
    const calls = capture('listAppInvoices', () =>
      ok('listAppInvoices', fixtures.listAppInvoices!),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices');
    await screen.findByRole('table', { name: 'Invoices' });
    expect(calls).toEqual([{}]);
    const filters = screen.getByRole('form', { name: 'Filter invoices' });
    await user.selectOptions(within(filters).getByLabelText('Status'), 'Settled');
    await user.type(within(filters).getByLabelText('Order Id'), 'order-1042');
    await user.type(within(filters).getByLabelText('Created from'), '2026-11-01');
    await user.type(within(filters).getByLabelText('Created to'), '2026-11-02');
    await user.click(within(filters).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({
      status: 'settled',
      order_id: 'order-1042',
      from: new Date('2026-11-01T00:00:00').toISOString(),
      // The last day is included: up to the next day's start.
      to: new Date('2026-11-03T00:00:00').toISOString(),
    });
    await user.click(within(filters).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(calls.at(-1)).toEqual({}));
    expect(within(filters).getByLabelText('Order Id')).toHaveValue('');
  });

  test("downloads the invoices and their payments as CSV, each for the filters' dates", async () => {
    const links: unknown[] = [];
    server.use(
      on('createExportLink', async ({ request, params }) => {
        links.push({ kind: params.kind, ...((await request.json()) as object) });
        return ok('createExportLink', {
          status: true,
          data: { url: '/file.csv', expires_at: '2026-11-01T09:01:00.000Z' },
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderAt('/app/my-app/app_1/invoices');
    await screen.findByRole('table', { name: 'Invoices' });
    const filters = screen.getByRole('form', { name: 'Filter invoices' });
    await user.selectOptions(within(filters).getByLabelText('Status'), 'Settled');
    await user.type(within(filters).getByLabelText('Created from'), '2026-11-01');
    await user.click(within(filters).getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(links).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Download payments CSV' }));
    await waitFor(() => expect(links).toHaveLength(2));
    const from = new Date('2026-11-01T00:00:00').toISOString();
    expect(links).toEqual([
      { kind: 'invoices', app_id: 'app_1', status: 'settled', from },
      // Payments have no invoice status: the dates only.
      { kind: 'payments', app_id: 'app_1', from },
    ]);
    expect(click).toHaveBeenCalledTimes(2);
    click.mockRestore();
  });

  test('updates statuses without a reload, as the Receive list does', async () => {
    let reads = 0;
    server.use(
      on('listAppInvoices', () => {
        reads += 1;
        const page = fixtures.listAppInvoices!;
        const paid = { ...page.data, data: [makePartInvoice(), ...page.data.data.slice(1)] };
        return ok('listAppInvoices', reads === 1 ? page : { status: true, data: paid });
      }),
    );
    renderAt('/app/my-app/app_1/invoices');
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(table).queryByText('Paid partial')).not.toBeInTheDocument();
    expect(
      await within(table).findByText('Paid partial', {}, { timeout: LIVE.pollingInterval + 3000 }),
    ).toBeInTheDocument();
  }, 15000);
});

describe('Invoices tab: Create Invoice', () => {
  test('checks the form, sends it, and gives the checkout link with a copy button', async () => {
    const calls = capture('createAppInvoice', () =>
      ok('createAppInvoice', fixtures.createAppInvoice!),
    );
    const { user, location } = renderAt('/app/my-app/app_1/invoices');
    await user.click(await screen.findByRole('button', { name: 'Create Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
    const expiry = within(dialog).getByLabelText('Expires in (minutes)');
    expect(expiry).toHaveValue('15');
    await user.clear(expiry);
    await user.type(expiry, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(within(dialog).getByText(INVOICE_MESSAGES.amountRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(INVOICE_MESSAGES.expiryInvalid)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Amount'), '49.999');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'EUR');
    await user.clear(expiry);
    await user.type(expiry, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(within(dialog).getByText('EUR takes at most 2 decimals')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Amount'), '{backspace}');
    await user.type(within(dialog).getByLabelText('Description'), 'Two mugs');
    await user.type(within(dialog).getByLabelText('Order Id'), 'order-1042');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      amount: '49.99',
      currency: 'EUR',
      description: 'Two mugs',
      order_id: 'order-1042',
      expires_in: 1800,
    });
    const link = await within(dialog).findByLabelText('Checkout link');
    expect(link).toHaveValue(makeInvoice().checkout_url);
    expect(link).toHaveAttribute('readonly');
    await user.click(within(dialog).getByRole('button', { name: 'Copy checkout link' }));
    expect(await screen.findByText('Checkout link copied')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'View invoice' }));
    expect(location.current).toBe(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByRole('heading', { name: `Invoice ${INVOICE_ID}` })).toBeVisible();
  });

  test('shows the server refusals: a field under its field, a missing rate as a toast', async () => {
    server.use(
      on('createAppInvoice', () =>
        fail('createAppInvoice', 422, 'expiry refused', {
          expires_in: [INVOICE_MESSAGES.expiryInvalid],
        }),
      ),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices');
    await user.click(await screen.findByRole('button', { name: 'Create Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
    await user.type(within(dialog).getByLabelText('Amount'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(await within(dialog).findByText(INVOICE_MESSAGES.expiryInvalid)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Expires in (minutes)')).toHaveClass('is-invalid');

    const noRate = 'No fresh rate for GBP/USD: an invoice is never priced with a stale rate.';
    server.use(
      on('createAppInvoice', () =>
        fail('createAppInvoice', 503, noRate, {}, { code: 'rate_unavailable', pair: 'GBP/USD' }),
      ),
    );
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'GBP');
    await user.click(within(dialog).getByRole('button', { name: 'Create Invoice' }));
    expect(await screen.findByText(noRate)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Checkout link')).not.toBeInTheDocument();
  });
});

describe('Invoices tab: the details', () => {
  test('another invoice named in the URL shows its loading state, not the one before', async () => {
    const other = makeInvoice({ id: 'inv_other' });
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    server.use(
      on('getAppInvoice', async ({ params }) => {
        if (params.invoiceId !== other.id)
          return ok('getAppInvoice', { status: true, data: makeInvoiceDetails() });
        await arrived;
        return ok('getAppInvoice', { status: true, data: makeInvoiceDetails(other) });
      }),
    );
    const { navigation } = renderRoute(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`, {
      session: SIGNED_IN,
    });
    const heading = (id: string) => ({ name: `Invoice ${id}`, level: 3 });
    expect(await screen.findByRole('heading', heading(INVOICE_ID))).toBeInTheDocument();
    act(() => navigation.navigate(`/app/my-app/app_1/invoices?invoice=${other.id}`));
    expect(await screen.findByRole('status', { name: 'Loading this invoice' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', heading(INVOICE_ID))).not.toBeInTheDocument();
    arrive();
    expect(await screen.findByRole('heading', heading(other.id))).toBeInTheDocument();
  });

  test('shows the payment options, the payments with explorer links and the timeline', async () => {
    server.use(
      reply('getAppInvoice', { status: true, data: makeInvoiceDetails(makePartInvoice()) }),
    );
    const { user, location } = renderAt('/app/my-app/app_1/invoices');
    await user.click(await screen.findByRole('button', { name: `Invoice ${INVOICE_ID}` }));
    expect(location.current).toBe(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByText('Paid partial')).toBeInTheDocument();
    expect(screen.getByText('20.00 EUR (due 29.90 EUR)')).toBeInTheDocument();
    const options = screen.getByRole('table', { name: 'Payment options' });
    const option = within(options).getAllByRole('row')[1] as HTMLElement;
    expect(option).toHaveTextContent('USDT-BEP20');
    expect(option).toHaveTextContent(makeInvoice().payment_options[0]!.address);
    expect(option).toHaveTextContent('53.9');
    expect(option).toHaveTextContent('32.3');
    expect(option).toHaveTextContent('peg:USDT/USD+table:EUR/USD');
    const payments = screen.getByRole('table', { name: 'Payments' });
    expect(within(payments).getByRole('link', { name: /0x5c50/ })).toHaveAttribute(
      'href',
      `https://bscscan.com/tx/${PAYMENT_HASH}`,
    );
    expect(within(payments).getAllByRole('row')[1]).toHaveTextContent('20.00 EUR');
    const timeline = screen.getByRole('list', { name: 'Invoice timeline' });
    expect(within(timeline).getByText('Created')).toBeInTheDocument();
    expect(timeline).toHaveTextContent('Webhook delivered (HTTP 200), 1 attempt');
    await user.click(screen.getByRole('button', { name: /Back to Invoices/ }));
    expect(location.current).toBe('/app/my-app/app_1/invoices');
  });

  const strayHash = `0x${'ab'.repeat(32)}`;
  /** The invoice with USDT sent on Ethereum to its address: flagged, not counted (or accepted). */
  const withStray = (accepted = false) => {
    const invoice = makeInvoice();
    const stray = {
      ...makePartInvoice().payments[0]!,
      id: 'ipay_stray0000000000000000000',
      method: 'USDT-ERC20',
      chain_id: 1,
      tx_hash: strayHash,
      amount: '53.9',
      value: accepted ? '49.90' : '0.00',
      flag: 'wrong_network' as const,
      accepted,
    };
    return accepted
      ? { ...invoice, status: 'processing' as const, paid: '49.90', due: '0.00', payments: [stray] }
      : { ...invoice, payments: [stray] };
  };

  test('shows a payment on another network or in another token as flagged and not counted', async () => {
    server.use(reply('getAppInvoice', { status: true, data: makeInvoiceDetails(withStray()) }));
    renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    const payments = await screen.findByRole('table', { name: 'Payments' });
    const row = within(payments).getAllByRole('row')[1] as HTMLElement;
    expect(row).toHaveTextContent('USDT-ERC20');
    expect(row).toHaveTextContent('pendingWrong network, not counted');
    expect(within(row).getByRole('link', { name: /0xabab/ })).toHaveAttribute(
      'href',
      `https://etherscan.io/tx/${strayHash}`,
    );
  });

  test('accepts a flagged payment after a confirm dialog, which then counts', async () => {
    let accepted = false;
    const paths: string[] = [];
    server.use(
      on('getAppInvoice', () =>
        ok('getAppInvoice', { status: true, data: makeInvoiceDetails(withStray(accepted)) }),
      ),
      on('acceptAppInvoicePayment', ({ request }) => {
        paths.push(new URL(request.url).pathname);
        accepted = true;
        return ok('acceptAppInvoicePayment', {
          status: true,
          msg: 'Payment accepted',
          data: withStray(true),
        });
      }),
    );
    const { user } = renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    const payments = await screen.findByRole('table', { name: 'Payments' });
    await user.click(within(payments).getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept payment' });
    expect(dialog).toHaveTextContent(
      '53.9 USDT-ERC20 was sent on a network the invoice did not offer.',
    );
    expect(dialog).toHaveTextContent(
      "Accepted, it counts toward the invoice at the invoice's rate for the same token, and once it has its confirmations it is swept to the app's USDT-ERC20 payout address.",
    );
    // Close (the footer's, beside the title's ×) asks nothing.
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(paths).toEqual([]);
    await user.click(within(payments).getByRole('button', { name: 'Accept' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Accept payment' })).getByRole('button', {
        name: 'Accept',
      }),
    );
    expect(await screen.findByText('Payment accepted')).toBeInTheDocument();
    expect(paths).toEqual([
      `/api/cryptosafelock/app-invoices/app_1/${INVOICE_ID}/payments/ipay_stray0000000000000000000/accept`,
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = await waitFor(() => {
      const now = within(screen.getByRole('table', { name: 'Payments' })).getAllByRole('row')[1];
      expect(now).toHaveTextContent('Wrong network, accepted');
      return now as HTMLElement;
    });
    expect(row).toHaveTextContent('49.90 EUR');
    expect(within(row).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  test('a refused accept says why and keeps the dialog', async () => {
    const message =
      "Add USDT-ERC20 to the app's payment methods first: its payout address receives this payment.";
    server.use(
      reply('getAppInvoice', { status: true, data: makeInvoiceDetails(withStray()) }),
      on('acceptAppInvoicePayment', () => fail('acceptAppInvoicePayment', 422, message)),
    );
    const { user } = renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    const payments = await screen.findByRole('table', { name: 'Payments' });
    await user.click(within(payments).getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Accept payment' })).toBeInTheDocument();
  });

  test('offers no Accept on a settled invoice: its stray payment is for a refund', async () => {
    server.use(
      reply('getAppInvoice', {
        status: true,
        data: makeInvoiceDetails({ ...withStray(), status: 'settled' }),
      }),
    );
    renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    const payments = await screen.findByRole('table', { name: 'Payments' });
    expect(within(payments).getAllByRole('row')[1]).toHaveTextContent('Wrong network, not counted');
    expect(within(payments).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  test('marks settled with a reason after a confirm dialog', async () => {
    const calls = capture('markAppInvoice', () => ok('markAppInvoice', fixtures.markAppInvoice!));
    const { user } = renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Mark Settled' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark Settled' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByText(INVOICE_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), 'Paid by card');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls).toEqual([{ status: 'settled', reason: 'Paid by card' }]));
    expect(await screen.findByText('Invoice marked settled')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Mark Settled' })).not.toBeInTheDocument(),
    );
  });

  test('offers only the marks the status allows, and shows a refused mark', async () => {
    const settled = makeInvoice({ status: 'settled', exceptions: ['marked'] });
    server.use(reply('getAppInvoice', { status: true, data: makeInvoiceDetails(settled) }));
    const first = renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByText('Settled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark Settled' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark Invalid' })).not.toBeInTheDocument();
    first.unmount();

    const refused = 'The invoice is settled: it cannot be marked any more.';
    server.use(
      reply('getAppInvoice', fixtures.getAppInvoice!),
      on('markAppInvoice', () =>
        fail(
          'markAppInvoice',
          409,
          refused,
          {},
          { code: 'invoice_state', invoice_status: 'settled' },
        ),
      ),
    );
    const { user } = renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Mark Invalid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark Invalid' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(refused)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason')).toHaveValue('Duplicate');
  });
});

describe('Invoices tab: a test invoice', () => {
  const TEST_APP = makeApp({ id: 'app_1t', livemode: false, live_app_id: 'app_1' });
  const HASH = `0x${'cd'.repeat(32)}`;

  /** The test app's details, its invoice in `status`. */
  function testApp(status: 'new' | 'processing' | 'settled') {
    server.use(
      reply('getAppDetails', { status: true, data: makeAppDetails({ app_data: TEST_APP }) }),
      reply('getAppInvoice', {
        status: true,
        data: makeInvoiceDetails({ ...makeInvoice(), status }),
      }),
    );
  }

  test('simulates full, partial and over and confirms now, each answer a toast', async () => {
    testApp('new');
    const calls: { path: string; body: unknown }[] = [];
    server.use(
      on('simulateAppInvoicePayment', async ({ request }) => {
        const body = (await request.json()) as { scenario: 'full' | 'partial' | 'over' };
        calls.push({ path: new URL(request.url).pathname, body });
        return ok('simulateAppInvoicePayment', {
          status: true,
          msg: 'Simulated payment sent',
          data: {
            scenario: body.scenario,
            method: 'USDT-BEP20',
            chain_id: 97,
            amount: '26.95',
            tx_hash: HASH,
            confirmations: 15,
          },
        });
      }),
      on('confirmAppInvoicePayments', ({ request }) => {
        calls.push({ path: new URL(request.url).pathname, body: null });
        return ok('confirmAppInvoicePayments', {
          status: true,
          msg: 'Payments confirmed',
          data: { payments: 1, mined: 15 },
        });
      }),
    );
    const { user } = renderAt(`/app/my-app/app_1t/invoices?invoice=${INVOICE_ID}`);
    const section = (
      await screen.findByRole('heading', { name: 'Test mode: simulate a payment' })
    ).closest('.card') as HTMLElement;
    expect(within(section).getByText(/no real money/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Simulate partial payment' }));
    expect(await screen.findByText('Simulated payment sent')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Simulate full payment' }));
    await user.click(within(section).getByRole('button', { name: 'Simulate overpayment' }));
    await user.click(within(section).getByRole('button', { name: 'Confirm now' }));
    expect(await screen.findByText('Payments confirmed')).toBeInTheDocument();
    const base = `/api/cryptosafelock/app-invoices/app_1t/${INVOICE_ID}`;
    expect(calls).toEqual([
      { path: `${base}/simulate`, body: { scenario: 'partial' } },
      { path: `${base}/simulate`, body: { scenario: 'full' } },
      { path: `${base}/simulate`, body: { scenario: 'over' } },
      { path: `${base}/confirm`, body: null },
    ]);
  });

  test('says a refusal in a toast', async () => {
    testApp('new');
    const busy =
      'At most 30 simulated payments or confirmations a minute per invoice: try again in 42 seconds.';
    server.use(on('simulateAppInvoicePayment', () => fail('simulateAppInvoicePayment', 429, busy)));
    const { user } = renderAt(`/app/my-app/app_1t/invoices?invoice=${INVOICE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Simulate full payment' }));
    expect(await screen.findByText(busy)).toBeInTheDocument();
  });

  test('offers only more once paid in full, nothing once settled, and nothing on a live invoice', async () => {
    testApp('processing');
    const { unmount } = renderAt(`/app/my-app/app_1t/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByRole('button', { name: 'Simulate overpayment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Simulate full payment' })).not.toBeInTheDocument();
    unmount();

    testApp('settled');
    const settled = renderAt(`/app/my-app/app_1t/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByText('Settled')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Simulate|Confirm now/ })).not.toBeInTheDocument();
    settled.unmount();

    server.use(reply('getAppDetails', { status: true, data: makeAppDetails() }));
    renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
    expect(await screen.findByRole('table', { name: 'Payment options' })).toBeInTheDocument();
    expect(screen.queryByText('Test mode: simulate a payment')).not.toBeInTheDocument();
  });
});

describe('Merchant Setting: the invoice settings', () => {
  test('shows them, checks them, and sends them with Update', async () => {
    const calls = capture('updateApp', () =>
      ok('updateApp', { status: true, msg: 'App updated successfully', data: makeApp() }),
    );
    server.use(
      reply('getApps', appFixtures.getApps!),
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({
          app_data: makeApp({
            invoice_underpayment_tolerance: '0.5',
            invoice_late_window_minutes: 30,
          }),
        }),
      }),
    );
    const { user } = renderAt('/app/my-app/app_1/merchant-setting');
    const tolerance = await screen.findByLabelText('Underpayment tolerance (%)');
    const late = screen.getByLabelText('Late window (minutes)');
    expect(tolerance).toHaveValue('0.5');
    expect(late).toHaveValue('30');
    await user.clear(tolerance);
    await user.type(tolerance, '10.5');
    await user.clear(late);
    await user.type(late, '1441');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByText(INVOICE_MESSAGES.toleranceInvalid)).toBeInTheDocument();
    expect(screen.getByText(INVOICE_MESSAGES.lateWindowInvalid)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.clear(tolerance);
    await user.type(tolerance, '1.25');
    await user.clear(late);
    await user.type(late, '90');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      app_id: 'app_1',
      invoice_underpayment_tolerance: '1.25',
      invoice_late_window_minutes: 90,
    });
  });

  test("puts the server's message under the field it names", async () => {
    server.use(
      reply('getApps', appFixtures.getApps!),
      on('updateApp', () =>
        fail('updateApp', 422, INVOICE_MESSAGES.toleranceInvalid, {
          invoice_underpayment_tolerance: [INVOICE_MESSAGES.toleranceInvalid],
        }),
      ),
    );
    const { user } = renderAt('/app/my-app/app_1/merchant-setting');
    await screen.findByLabelText('Underpayment tolerance (%)');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Underpayment tolerance (%)')).toHaveClass('is-invalid'),
    );
    expect(screen.getByLabelText('Underpayment tolerance (%)')).toHaveAccessibleDescription(
      expect.stringContaining('A payment short of an invoice'),
    );
    expect(screen.getByLabelText('Underpayment tolerance (%)').parentElement).toHaveTextContent(
      INVOICE_MESSAGES.toleranceInvalid,
    );
    expect(screen.getByLabelText('Late window (minutes)')).not.toHaveClass('is-invalid');
  });
});
