import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeAppDetails, makeUsedMethod } from '../../../../test/factories/apps';
import {
  fixtures,
  LINK_ID,
  LINK_URL,
  makePaymentLink,
  makePaymentLinkDetails,
} from '../../../../test/factories/paymentLinks';
import { fail, ok, on, reply } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../../test/renderWithProviders';
import { PAYMENT_LINK_MESSAGES } from '../../../shared/paymentLinks';
import AppDetailPage from '../AppDetailPage';

// The Invoices tab's payment links (an extension of the app detail), as the merchant sees them,
// against the contract's answers: the list, Create payment link with every rule and the
// server's messages at their fields, a link's details with its totals and invoices, Deactivate.

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
          : await request.text().then((text) => (text ? JSON.parse(text) : null)),
      );
      return answer();
    }),
  );
  return calls;
}

/** A datetime-local value `hours` from now, in the browser's time zone. */
function localInput(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function openCreate(user: ReturnType<typeof renderAt>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Create payment link' }));
  return screen.findByRole('dialog', { name: 'Create payment link' });
}

describe('Payment links: the list', () => {
  test('sits beside the invoices and lists title, amount, status, uses, paid, created and the link', async () => {
    const { user, location } = renderAt('/app/my-app/app_1/invoices');
    const nav = await screen.findByRole('navigation', {
      name: 'Invoices, payment links and refunds',
    });
    await screen.findByRole('table', { name: 'Invoices' });
    await user.click(within(nav).getByRole('link', { name: 'Payment links' }));
    expect(location.current).toBe('/app/my-app/app_1/invoices?view=links');
    expect(within(nav).getByRole('link', { name: 'Payment links' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const table = await screen.findByRole('table', { name: 'Payment links' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    const [first, second] = rows.slice(1) as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('button', { name: 'Donation' })).toBeVisible();
    expect(first).toHaveTextContent('from 5 to 500 USD');
    expect(within(first).getByText('Active')).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '1' })).toBeInTheDocument();
    expect(first).toHaveTextContent('25.00 USD');
    expect(first).toHaveTextContent(LINK_URL);
    expect(first.querySelectorAll('time')).toHaveLength(1);
    expect(second).toHaveTextContent('25.00 EUR');
    expect(within(second).getByText('Used up')).toBeInTheDocument();
    expect(second).toHaveTextContent('100 / 100');
    expect(second).toHaveTextContent('2450.00 EUR');
    expect(screen.getByText(/Showing 1 to 2 of 2/)).toBeInTheDocument();
    await user.click(within(first).getByRole('button', { name: 'Copy payment link' }));
    expect(await screen.findByText('Payment link copied')).toBeInTheDocument();
    await user.click(within(nav).getByRole('link', { name: 'Invoices' }));
    expect(await screen.findByRole('table', { name: 'Invoices' })).toBeInTheDocument();
  });

  test('reads every kind of amount', async () => {
    const chosen = { amount: null, amount_min: null, amount_max: null };
    server.use(
      reply('listAppPaymentLinks', {
        status: true,
        data: {
          ...fixtures.listAppPaymentLinks!.data,
          data: [
            makePaymentLink({ id: 'plink_a', title: 'Any', ...chosen }),
            makePaymentLink({ id: 'plink_b', title: 'From', ...chosen, amount_min: '5' }),
            makePaymentLink({ id: 'plink_c', title: 'Up to', ...chosen, amount_max: '9' }),
            makePaymentLink({ id: 'plink_d', title: 'Off', status: 'deactivated' }),
            makePaymentLink({ id: 'plink_e', title: 'Late', status: 'expired' }),
          ],
        },
      }),
    );
    renderAt('/app/my-app/app_1/invoices?view=links');
    const table = await screen.findByRole('table', { name: 'Payment links' });
    const row = (title: string) =>
      within(table).getByRole('button', { name: title }).closest('tr') as HTMLElement;
    await within(table).findByRole('button', { name: 'Any' });
    expect(row('Any')).toHaveTextContent('any amount (USD)');
    expect(row('From')).toHaveTextContent('from 5 USD');
    expect(row('Up to')).toHaveTextContent('up to 9 USD');
    expect(within(row('Off')).getByText('Deactivated')).toBeInTheDocument();
    expect(within(row('Late')).getByText('Expired')).toBeInTheDocument();
  });
});

describe('Payment links: Create payment link', () => {
  test('checks every rule at its field, sends the form, and gives the URL with copy', async () => {
    const calls = capture('createAppPaymentLink', () =>
      ok('createAppPaymentLink', fixtures.createAppPaymentLink!),
    );
    const { user, location } = renderAt('/app/my-app/app_1/invoices?view=links');
    const dialog = await openCreate(user);
    const create = () =>
      user.click(within(dialog).getByRole('button', { name: 'Create payment link' }));
    await create();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.titleRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.amountRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Title')).toHaveClass('is-invalid');

    await user.type(within(dialog).getByLabelText('Title'), '  ');
    await user.type(within(dialog).getByLabelText('Price'), '49.999');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'EUR');
    await create();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.titleRequired)).toBeInTheDocument();
    expect(within(dialog).getByText('EUR takes at most 2 decimals')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Price'));
    await user.type(within(dialog).getByLabelText('Price'), '0');
    await create();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.amountInvalid)).toBeInTheDocument();

    // The shopper chooses: both bounds optional, the maximum at least the minimum.
    await user.click(within(dialog).getByLabelText('Shopper chooses'));
    expect(within(dialog).queryByLabelText('Price')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Minimum amount'), '50');
    await user.type(within(dialog).getByLabelText('Maximum amount'), '5');
    const expires = within(dialog).getByLabelText('Expires at (optional)');
    fireEvent.change(expires, { target: { value: localInput(-1) } });
    await user.type(within(dialog).getByLabelText('Maximum uses (optional)'), '0');
    await user.type(within(dialog).getByLabelText('Redirect URL (optional)'), 'ftp://shop');
    await create();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.rangeInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.expiryInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.maxUsesInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.redirectInvalid)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Minimum amount'));
    await user.type(within(dialog).getByLabelText('Minimum amount'), 'x');
    await create();
    // Letters never get in: the minimum is empty, so only the range's other faults remain.
    expect(within(dialog).getByLabelText('Minimum amount')).toHaveValue('');
    expect(within(dialog).queryByText(PAYMENT_LINK_MESSAGES.rangeInvalid)).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Title'), 'Donation');
    await user.type(within(dialog).getByLabelText('Description'), 'Thank you');
    await user.type(within(dialog).getByLabelText('Minimum amount'), '5');
    await user.clear(within(dialog).getByLabelText('Maximum amount'));
    await user.type(within(dialog).getByLabelText('Maximum amount'), '500');
    await user.selectOptions(within(dialog).getByLabelText('Currency'), 'USD');
    const methods = within(dialog).getByRole('group', { name: 'Methods' });
    expect(within(methods).getAllByRole('checkbox')).toHaveLength(1);
    await user.click(within(methods).getByLabelText('USDT (BNB Smart Chain)'));
    const later = localInput(48);
    fireEvent.change(expires, { target: { value: later } });
    await user.clear(within(dialog).getByLabelText('Maximum uses (optional)'));
    await user.type(within(dialog).getByLabelText('Maximum uses (optional)'), '10');
    await user.clear(within(dialog).getByLabelText('Redirect URL (optional)'));
    await user.type(
      within(dialog).getByLabelText('Redirect URL (optional)'),
      'https://shop.example.com/thanks',
    );
    await create();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      title: 'Donation',
      description: 'Thank you',
      amount_min: '5',
      amount_max: '500',
      currency: 'USD',
      methods: ['pm_usdt_bsc'],
      expires_at: new Date(later).toISOString(),
      max_uses: 10,
      redirect_url: 'https://shop.example.com/thanks',
    });
    const url = await within(dialog).findByLabelText('Payment link');
    expect(url).toHaveValue(LINK_URL);
    expect(url).toHaveAttribute('readonly');
    await user.click(within(dialog).getByRole('button', { name: 'Copy payment link' }));
    expect(await screen.findByText('Payment link copied')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'View payment link' }));
    expect(location.current).toBe(`/app/my-app/app_1/invoices?view=links&link=${LINK_ID}`);
    expect(await screen.findByRole('heading', { name: 'Donation' })).toBeVisible();
  });

  test('sends a fixed price, no methods ticked for all, and leaves out what is empty', async () => {
    const calls = capture('createAppPaymentLink', () =>
      ok('createAppPaymentLink', fixtures.createAppPaymentLink!),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices?view=links');
    const dialog = await openCreate(user);
    expect(
      within(dialog).getByText('None ticked: every method with For Deposit on.'),
    ).toBeVisible();
    await user.type(within(dialog).getByLabelText('Title'), 'Blue mug');
    await user.type(within(dialog).getByLabelText('Price'), '25.00');
    await user.click(within(dialog).getByRole('button', { name: 'Create payment link' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      title: 'Blue mug',
      description: '',
      amount: '25.00',
      currency: 'USD',
    });
  });

  test("puts the server's messages at their fields, and a refusal without fields in a toast", async () => {
    const methodsOff = 'Deposits of USDT-BEP20 are switched off for this app.';
    const tooHigh = 'amount_max must be at most 1000000000, like "25.00".';
    server.use(
      on('createAppPaymentLink', () =>
        fail('createAppPaymentLink', 422, methodsOff, {
          methods: [methodsOff],
          amount_max: [tooHigh],
          title: [PAYMENT_LINK_MESSAGES.titleTooLong],
        }),
      ),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices?view=links');
    const dialog = await openCreate(user);
    await user.type(within(dialog).getByLabelText('Title'), 'Tip');
    await user.click(within(dialog).getByLabelText('Shopper chooses'));
    await user.type(within(dialog).getByLabelText('Maximum amount'), '900');
    await user.click(within(dialog).getByLabelText('USDT (BNB Smart Chain)'));
    await user.click(within(dialog).getByRole('button', { name: 'Create payment link' }));
    const methods = within(dialog).getByRole('group', { name: 'Methods' });
    expect(await within(methods).findByText(methodsOff)).toBeInTheDocument();
    expect(within(methods).getByLabelText('USDT (BNB Smart Chain)')).toHaveClass('is-invalid');
    expect(within(dialog).getByText(tooHigh)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Maximum amount')).toHaveClass('is-invalid');
    expect(within(dialog).getByLabelText('Title')).toHaveClass('is-invalid');
    expect(within(dialog).getByText(PAYMENT_LINK_MESSAGES.titleTooLong)).toBeInTheDocument();

    const gone = 'Record not found.';
    server.use(on('createAppPaymentLink', () => fail('createAppPaymentLink', 404, gone)));
    await user.click(within(dialog).getByRole('button', { name: 'Create payment link' }));
    expect(await screen.findByText(gone)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Payment link')).not.toBeInTheDocument();
  });

  test('says so when the app has no method with For Deposit on', async () => {
    server.use(
      reply('getAppDetails', {
        status: true,
        data: makeAppDetails({ user_payment_methods: [makeUsedMethod({ deposit_status: 0 })] }),
      }),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices?view=links');
    const dialog = await openCreate(user);
    expect(within(dialog).queryAllByRole('checkbox')).toHaveLength(0);
    expect(
      within(dialog).getByText('The app has no method with For Deposit on yet (Payment Setting).'),
    ).toBeVisible();
  });
});

describe('Payment links: the details', () => {
  test('show the URL with copy and Open, the settings, the totals and its invoices', async () => {
    const { user, location } = renderAt('/app/my-app/app_1/invoices?view=links');
    await user.click(await screen.findByRole('button', { name: 'Donation' }));
    expect(location.current).toBe(`/app/my-app/app_1/invoices?view=links&link=${LINK_ID}`);
    expect(await screen.findByRole('heading', { name: 'Donation' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open' })).toHaveAttribute('href', LINK_URL);
    expect(screen.getByRole('link', { name: 'Open' })).toHaveAttribute('target', '_blank');
    expect(screen.getByText('from 5 to 500 USD')).toBeInTheDocument();
    expect(screen.getByText('Every method with For Deposit on')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByText('No limit')).toBeInTheDocument();
    const figures = screen.getByLabelText('Totals');
    expect(figures).toHaveTextContent('Invoices2');
    expect(figures).toHaveTextContent('Paid invoices1');
    expect(figures).toHaveTextContent('Amount paid25.00 USD');
    expect(figures).toHaveTextContent('Uses1');
    await user.click(screen.getByRole('button', { name: 'Copy payment link' }));
    expect(await screen.findByText('Payment link copied')).toBeInTheDocument();

    const invoices = screen.getByRole('table', { name: 'Payment link invoices' });
    const rows = within(invoices).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2] as HTMLElement).getByText('Settled')).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('25 USD');
    await user.click(
      within(invoices).getByRole('button', { name: 'Invoice inv_link1settled0000000000' }),
    );
    expect(location.current).toBe('/app/my-app/app_1/invoices?invoice=inv_link1settled0000000000');
  });

  test('show the settings a link was made with, and go back to the list', async () => {
    server.use(
      reply('getAppPaymentLink', {
        status: true,
        data: makePaymentLinkDetails(
          makePaymentLink({
            methods: ['USDT-BEP20'],
            max_uses: 10,
            expires_at: '2026-12-31T23:59:00.000Z',
            redirect_url: 'https://shop.example.com/thanks',
            status: 'deactivated',
          }),
        ),
      }),
    );
    const { user, location } = renderAt(`/app/my-app/app_1/invoices?view=links&link=${LINK_ID}`);
    expect(await screen.findByText('Deactivated')).toBeInTheDocument();
    expect(screen.getByText('USDT-BEP20')).toBeInTheDocument();
    expect(screen.getByText('https://shop.example.com/thanks')).toBeInTheDocument();
    expect(screen.getByLabelText('Totals')).toHaveTextContent('Uses1 / 10');
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Back to Payment links/ }));
    expect(location.current).toBe('/app/my-app/app_1/invoices?view=links');
  });

  test('deactivate after a confirmation, and not without it', async () => {
    const calls = capture('deactivateAppPaymentLink', () =>
      ok('deactivateAppPaymentLink', fixtures.deactivateAppPaymentLink!),
    );
    const { user } = renderAt(`/app/my-app/app_1/invoices?view=links&link=${LINK_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate payment link' });
    expect(dialog).toHaveTextContent('Invoices it already made stay payable.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    dialog = await screen.findByRole('dialog', { name: 'Deactivate payment link' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await screen.findByText('Payment link deactivated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
