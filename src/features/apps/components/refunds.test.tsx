import { screen, waitFor, within } from '@testing-library/react';
import { makeInvoice, makeInvoiceDetails, PAYMENT_HASH } from '../../../../test/factories/invoices';
import {
  CLAIM_URL,
  fixtures,
  makeCompletedRefund,
  makeOverpaidInvoice,
  makeRefund,
  makeRefundPreview,
  REFUND_HASH,
  REFUND_ID,
  SHOPPER_ADDRESS,
} from '../../../../test/factories/refunds';
import { fail, ok, on, reply } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../../test/renderWithProviders';
import { REFUND_MESSAGES } from '../../../shared/refunds';
import { pageEnvelope } from '../../../shared/paging';
import AppDetailPage from '../AppDetailPage';

// The Invoices tab's refunds (an extension of the app detail), as the merchant sees them,
// against the contract's answers: the Refunds list with its claim states, explorer links and
// Cancel; an invoice's Refund with every rule of its form, the server's preview to confirm,
// the server's messages at their fields, and the claim link to send; the invoice's own refunds.

const INVOICE_ID = makeInvoice().id;
const OVERCAP =
  'At most 60 USDT can be refunded in USDT-BEP20, what was paid less what was refunded already; 61 USDT was asked.';

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

/** The invoice's details, answering `invoice`. */
function showInvoice(invoice = makeOverpaidInvoice()) {
  server.use(reply('getAppInvoice', { status: true, data: makeInvoiceDetails(invoice) }));
  return renderAt(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
}

async function openRefund(user: ReturnType<typeof renderAt>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Refund' }));
  return screen.findByRole('dialog', { name: 'Refund' });
}

/** A page of refunds as the list answers it. */
const refundPage = (...refunds: ReturnType<typeof makeRefund>[]) => ({
  status: true as const,
  data: pageEnvelope(
    refunds,
    refunds.length,
    1,
    10,
    '/api/cryptosafelock/app-refunds/app_1?page=1',
  ),
});

describe('Refunds: the list', () => {
  test('sits beside invoices and payment links with status, claim, amount and token, and tx hash', async () => {
    const { user, location } = renderAt('/app/my-app/app_1/invoices');
    const nav = await screen.findByRole('navigation', {
      name: 'Invoices, payment links and refunds',
    });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Invoices', 'Payment links', 'Refunds']);
    await user.click(within(nav).getByRole('link', { name: 'Refunds' }));
    expect(location.current).toBe('/app/my-app/app_1/invoices?view=refunds');
    expect(within(nav).getByRole('link', { name: 'Refunds' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Invoices' })).not.toHaveAttribute('aria-current');
    const table = await screen.findByRole('table', { name: 'Refunds' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    const [waiting, done] = rows.slice(1) as [HTMLElement, HTMLElement];
    expect(waiting).toHaveTextContent('6.1 USDT-BEP20');
    expect(within(waiting).getByText('Waiting for claim')).toBeInTheDocument();
    expect(waiting).toHaveTextContent('Waiting for the shopper');
    expect(waiting).toHaveTextContent(CLAIM_URL);
    expect(waiting).toHaveTextContent('----');
    expect(
      within(waiting).getByRole('button', { name: `Cancel refund ${REFUND_ID}` }),
    ).toBeVisible();
    expect(done).toHaveTextContent('10 USDT-BEP20');
    expect(within(done).getByText('Completed')).toBeInTheDocument();
    expect(done).toHaveTextContent('Claimed by the shopper');
    expect(done).toHaveTextContent(SHOPPER_ADDRESS);
    expect(within(done).getByRole('link', { name: /0x7d3c/ })).toHaveAttribute(
      'href',
      `https://bscscan.com/tx/${REFUND_HASH}`,
    );
    expect(within(done).queryByRole('button', { name: /Cancel refund/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Showing 1 to 2 of 2/)).toBeInTheDocument();

    await user.click(within(waiting).getByRole('button', { name: 'Copy claim link' }));
    expect(await screen.findByText('Claim link copied')).toBeInTheDocument();
    await user.click(within(waiting).getByRole('button', { name: `Invoice ${INVOICE_ID}` }));
    expect(location.current).toBe(`/app/my-app/app_1/invoices?invoice=${INVOICE_ID}`);
  });

  test('reads every status and where the money goes, and offers Cancel while nothing is signed', async () => {
    const row = (id: string, more: Parameters<typeof makeRefund>[0]) =>
      makeRefund({ id, claim_url: null, ...more });
    server.use(
      reply(
        'listAppRefunds',
        refundPage(
          row('rf_funds', {
            status: 'awaiting_funds',
            address: SHOPPER_ADDRESS,
            address_source: 'merchant',
            waiting_message: 'Send 6.1 USDT to 0x1111…',
          }),
          row('rf_queued', {
            status: 'queued',
            address: SHOPPER_ADDRESS,
            address_source: 'shopper',
          }),
          row('rf_processing', {
            status: 'processing',
            address: SHOPPER_ADDRESS,
            address_source: 'shopper',
          }),
          row('rf_failed', {
            status: 'failed',
            address: SHOPPER_ADDRESS,
            address_source: 'merchant',
            failure_reason: 'Reverted on chain',
          }),
          row('rf_expired', { status: 'expired' }),
          row('rf_cancelled', { status: 'cancelled' }),
        ),
      ),
    );
    renderAt('/app/my-app/app_1/invoices?view=refunds');
    const table = await screen.findByRole('table', { name: 'Refunds' });
    await within(table).findByText('Awaiting funds');
    const rowOf = (id: string) =>
      within(table)
        .getAllByRole('row')
        .find((r) => within(r).queryByRole('button', { name: `Cancel refund ${id}` }) !== null);
    const statuses = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent ?? '');
    expect(statuses[0]).toMatch(
      /Awaiting funds.*Send 6\.1 USDT to 0x1111….*Your address, no claim/,
    );
    expect(statuses[1]).toMatch(/Queued.*Claimed by the shopper/);
    expect(statuses[2]).toMatch(/Processing/);
    expect(statuses[3]).toMatch(/Failed.*Reverted on chain.*Your address, no claim/);
    expect(statuses[4]).toMatch(/Expired.*Link expired unclaimed/);
    expect(statuses[5]).toMatch(/Cancelled.*Link cancelled unclaimed/);
    expect(rowOf('rf_funds')).toBeDefined();
    expect(rowOf('rf_queued')).toBeDefined();
    for (const id of ['rf_processing', 'rf_failed', 'rf_expired', 'rf_cancelled']) {
      expect(rowOf(id)).toBeUndefined();
    }
  });

  test('cancels a refund and refreshes the list, or shows why it cannot', async () => {
    const calls = capture('cancelAppRefund', () =>
      ok('cancelAppRefund', fixtures.cancelAppRefund!),
    );
    const lists = capture('listAppRefunds', () => ok('listAppRefunds', fixtures.listAppRefunds!));
    const { user } = renderAt('/app/my-app/app_1/invoices?view=refunds');
    const table = await screen.findByRole('table', { name: 'Refunds' });
    await user.click(
      await within(table).findByRole('button', { name: `Cancel refund ${REFUND_ID}` }),
    );
    expect(await screen.findByText('Refund cancelled')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await waitFor(() => expect(lists.length).toBeGreaterThanOrEqual(2));

    const signed =
      'The refund’s transaction is signed and may be mined: it can no longer be cancelled.';
    server.use(on('cancelAppRefund', () => fail('cancelAppRefund', 409, signed)));
    await user.click(within(table).getByRole('button', { name: `Cancel refund ${REFUND_ID}` }));
    expect(await screen.findByText(signed)).toBeInTheDocument();
  });

  test('re-initiates a failed refund and refreshes the list, or shows why it cannot', async () => {
    const failed = makeRefund({
      id: 'rf_failed',
      status: 'failed',
      claim_url: null,
      address: SHOPPER_ADDRESS,
      address_source: 'shopper',
      failure_reason: 'signer_refused',
    });
    server.use(reply('listAppRefunds', refundPage(failed)));
    const calls = capture('reinitiateAppRefund', () =>
      ok('reinitiateAppRefund', fixtures.reinitiateAppRefund!),
    );
    const { user } = renderAt('/app/my-app/app_1/invoices?view=refunds');
    const table = await screen.findByRole('table', { name: 'Refunds' });
    expect(
      within(table).queryByRole('button', { name: 'Cancel refund rf_failed' }),
    ).not.toBeInTheDocument();
    await user.click(
      await within(table).findByRole('button', { name: 'Re-initiate refund rf_failed' }),
    );
    expect(await screen.findByText('Refund re-initiated')).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    const refused = 'The refund is completed: only a failed refund can be re-initiated.';
    server.use(on('reinitiateAppRefund', () => fail('reinitiateAppRefund', 409, refused)));
    await user.click(within(table).getByRole('button', { name: 'Re-initiate refund rf_failed' }));
    expect(await screen.findByText(refused)).toBeInTheDocument();
  });
});

describe('Refunds: an invoice', () => {
  test('offers Refund only on a settled, expired or invalid invoice with something confirmed paid', async () => {
    const cases: [ReturnType<typeof makeInvoice>, boolean][] = [
      [makeInvoice(), false],
      [makeOverpaidInvoice({ status: 'processing' }), false],
      [makeOverpaidInvoice(), true],
      [
        makeOverpaidInvoice({ status: 'expired', exceptions: ['paid_partial'], overpaid: null }),
        true,
      ],
      [makeOverpaidInvoice({ status: 'invalid', exceptions: ['marked'], overpaid: null }), true],
      [
        makeOverpaidInvoice({
          status: 'expired',
          payments: makeOverpaidInvoice().payments.map((p) => ({ ...p, status: 'pending' })),
        }),
        false,
      ],
    ];
    for (const [invoice, offered] of cases) {
      const view = showInvoice(invoice);
      expect(await screen.findByRole('button', { name: /Back to Invoices/ })).toBeInTheDocument();
      await screen.findByText(`${invoice.amount} ${invoice.currency}`);
      expect(Boolean(screen.queryByRole('button', { name: 'Refund' }))).toBe(offered);
      view.unmount();
    }
  });

  test("shows the invoice's refunds, asked of its invoice alone", async () => {
    const queries = capture('listAppRefunds', () =>
      ok('listAppRefunds', refundPage(makeRefund(), makeCompletedRefund())),
    );
    showInvoice();
    const table = await screen.findByRole('table', { name: 'Refunds of this invoice' });
    expect(await within(table).findByText('Completed')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByRole('button', { name: /^Invoice / })).not.toBeInTheDocument();
    expect(queries[0]).toEqual({ invoice: INVOICE_ID });
    expect(screen.getByRole('heading', { name: 'Refunds' })).toBeInTheDocument();
  });

  test('checks every rule at its field before any call', async () => {
    const previews = capture('previewAppRefund', () =>
      ok('previewAppRefund', fixtures.previewAppRefund!),
    );
    const { user } = showInvoice();
    const dialog = await openRefund(user);
    const group = within(dialog).getByRole('group', { name: 'Amount' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('id')),
    ).toEqual(['refund-kind-full', 'refund-kind-overpaid', 'refund-kind-custom']);
    // An overpaid invoice opens on its overpaid part, in the method that went over.
    expect(within(dialog).getByLabelText('The overpaid part (6.1 USDT-BEP20)')).toBeChecked();
    expect(within(dialog).queryByLabelText('Method')).not.toBeInTheDocument();
    const preview = () =>
      user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await preview();
    expect(within(dialog).getByText(REFUND_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason')).toHaveClass('is-invalid');
    await user.type(within(dialog).getByLabelText('Reason'), '   ');
    await preview();
    expect(within(dialog).getByText(REFUND_MESSAGES.reasonRequired)).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText('A custom amount'));
    expect(within(dialog).getByLabelText('In')).toHaveValue('invoice');
    expect(within(dialog).getByLabelText("Rate then (the invoice's)")).toBeChecked();
    await preview();
    expect(within(dialog).getByText(REFUND_MESSAGES.amountRequired)).toBeInTheDocument();
    const amount = within(dialog).getByLabelText('Refund amount');
    await user.type(amount, 'abc');
    expect(amount).toHaveValue('');
    await user.type(amount, '0');
    await preview();
    expect(within(dialog).getByText(REFUND_MESSAGES.amountInvalid)).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '1.999');
    await preview();
    expect(within(dialog).getByText('EUR takes at most 2 decimals')).toBeInTheDocument();
    // In the token itself the token's decimals are the server's to check; no rate to choose.
    await user.selectOptions(within(dialog).getByLabelText('In'), 'token');
    expect(within(dialog).queryByLabelText('Current rate')).not.toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Everything paid, less what was refunded'));
    expect(within(dialog).queryByLabelText('Refund amount')).not.toBeInTheDocument();
    expect(previews).toHaveLength(0);
  });

  test('previews a custom amount at the current rate, confirms it, and gives the claim link to copy', async () => {
    const body = {
      amount_kind: 'custom',
      method: 'USDT-BEP20',
      amount: '10.00',
      currency: 'EUR',
      rate: 'current',
      reason: 'One mug broke',
    };
    const previews = capture('previewAppRefund', () =>
      ok('previewAppRefund', {
        status: true,
        data: makeRefundPreview({ amount: '10.8', rate: '0.925925', rate_kind: 'current' }),
      }),
    );
    const creates = capture('createAppRefund', () =>
      ok('createAppRefund', {
        status: true,
        msg: 'Refund created',
        data: makeRefund({ amount: '10.8', amount_kind: 'custom' }),
      }),
    );
    const lists = capture('listAppRefunds', () => ok('listAppRefunds', refundPage()));
    const { user } = showInvoice(makeOverpaidInvoice({ buyer_email: 'shopper@example.com' }));
    const dialog = await openRefund(user);
    await user.click(within(dialog).getByLabelText('A custom amount'));
    await user.type(within(dialog).getByLabelText('Refund amount'), '10.00');
    await user.click(within(dialog).getByLabelText('Current rate'));
    await user.type(within(dialog).getByLabelText('Reason'), ' One mug broke ');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await waitFor(() => expect(previews).toEqual([body]));

    expect(await within(dialog).findByRole('button', { name: 'Confirm refund' })).toBeVisible();
    expect(dialog).toHaveTextContent('Refund 10.8 USDT (USDT-BEP20)?');
    expect(dialog).toHaveTextContent('10.00 EUR at 0.925925 EUR per USDT (current rate)');
    expect(dialog).toHaveTextContent('60 USDT left in USDT-BEP20');
    expect(dialog).toHaveTextContent('A claim link for the shopper');
    expect(creates).toHaveLength(0);
    // Back keeps what was typed.
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByLabelText('Refund amount')).toHaveValue('10.00');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    const asked = lists.length;
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm refund' }));
    await waitFor(() => expect(creates).toEqual([body]));

    const link = await within(dialog).findByLabelText('Claim link');
    expect(link).toHaveValue(CLAIM_URL);
    expect(link).toHaveAttribute('readonly');
    expect(dialog).toHaveTextContent('It was e-mailed to shopper@example.com.');
    expect(within(dialog).getByText('Waiting for claim')).toBeInTheDocument();
    expect(await screen.findByText('Refund created')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy claim link' }));
    expect(await screen.findByText('Claim link copied')).toBeInTheDocument();
    // The invoice's refunds are asked again: the new one shows without a reload.
    await waitFor(() => expect(lists.length).toBeGreaterThan(asked));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Refund' })).not.toBeInTheDocument(),
    );
  });

  test("refunds the token itself to the merchant's address and shows it waiting for funds", async () => {
    const body = {
      amount_kind: 'custom',
      method: 'USDT-BEP20',
      amount: '5',
      currency: 'USDT-BEP20',
      address: SHOPPER_ADDRESS,
      reason: 'Broken',
    };
    const previews = capture('previewAppRefund', () =>
      ok('previewAppRefund', { status: true, data: makeRefundPreview({ amount: '5' }) }),
    );
    const waiting =
      'The operational wallet lacks 5 USDT: send it to 0x1111111111111111111111111111111111111111.';
    const creates = capture('createAppRefund', () =>
      ok('createAppRefund', {
        status: true,
        msg: 'Refund created',
        data: makeRefund({
          status: 'awaiting_funds',
          amount: '5',
          address: SHOPPER_ADDRESS,
          address_source: 'merchant',
          claim_url: null,
          claim_expires_at: null,
          waiting_message: waiting,
        }),
      }),
    );
    const { user } = showInvoice();
    const dialog = await openRefund(user);
    await user.click(within(dialog).getByLabelText('A custom amount'));
    await user.type(within(dialog).getByLabelText('Refund amount'), '5');
    await user.selectOptions(within(dialog).getByLabelText('In'), 'token');
    await user.type(within(dialog).getByLabelText("Shopper's address (optional)"), SHOPPER_ADDRESS);
    await user.type(within(dialog).getByLabelText('Reason'), 'Broken');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await waitFor(() => expect(previews).toEqual([body]));
    expect(await within(dialog).findByText(SHOPPER_ADDRESS)).toBeInTheDocument();
    expect(within(dialog).queryByText('Rate')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm refund' }));
    await waitFor(() => expect(creates).toEqual([body]));
    expect(await within(dialog).findByText('Awaiting funds')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(`It is paid to ${SHOPPER_ADDRESS}.`);
    expect(dialog).toHaveTextContent(waiting);
    expect(within(dialog).queryByLabelText('Claim link')).not.toBeInTheDocument();
  });

  test("puts the server's refusals at their fields, from the preview and from the confirmation", async () => {
    const badAddress = 'Not a valid BNB Smart Chain address: check it.';
    server.use(
      on('previewAppRefund', () =>
        fail('previewAppRefund', 422, OVERCAP, { amount: [OVERCAP], address: [badAddress] }),
      ),
    );
    const { user } = showInvoice();
    const dialog = await openRefund(user);
    await user.click(within(dialog).getByLabelText('A custom amount'));
    await user.type(within(dialog).getByLabelText('Refund amount'), '61');
    await user.selectOptions(within(dialog).getByLabelText('In'), 'token');
    await user.type(within(dialog).getByLabelText("Shopper's address (optional)"), '0x123');
    await user.type(within(dialog).getByLabelText('Reason'), 'Broken');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    expect(await within(dialog).findByText(badAddress)).toBeInTheDocument();
    expect(within(dialog).getByText(OVERCAP)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Refund amount')).toHaveClass('is-invalid');
    expect(within(dialog).getByLabelText("Shopper's address (optional)")).toHaveClass('is-invalid');
    // Editing a field clears its message.
    await user.clear(within(dialog).getByLabelText("Shopper's address (optional)"));
    expect(within(dialog).queryByText(badAddress)).not.toBeInTheDocument();

    // Another refund took the cap between the preview and the confirmation.
    server.use(
      reply('previewAppRefund', fixtures.previewAppRefund!),
      on('createAppRefund', () => fail('createAppRefund', 422, OVERCAP, { amount: [OVERCAP] })),
    );
    await user.clear(within(dialog).getByLabelText('Refund amount'));
    await user.type(within(dialog).getByLabelText('Refund amount'), '6');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm refund' }));
    expect(await within(dialog).findByLabelText('Refund amount')).toHaveClass('is-invalid');
    expect(within(dialog).getAllByText(OVERCAP).length).toBeGreaterThanOrEqual(1);
    expect(within(dialog).getByLabelText('Refund amount')).toHaveValue('6');
  });

  test('asks which method on an invoice paid in two, the overpaid part in the one that went over', async () => {
    const base = makeOverpaidInvoice();
    const bnb = {
      ...base.payment_options[0]!,
      method: 'BNB-BSC',
      token_contract: null,
      address: '0x8Ba1f109551bD432803012645Ac136ddd64DBA73',
    };
    const invoice = makeOverpaidInvoice({
      overpaid: { value: '1.00', method: 'BNB-BSC', amount: '0.002' },
      payment_options: [...base.payment_options, bnb],
      payments: [
        ...base.payments,
        {
          ...base.payments[0]!,
          method: 'BNB-BSC',
          tx_hash: PAYMENT_HASH.replace('5c', '6d'),
          amount: '0.05',
        },
      ],
    });
    const previews = capture('previewAppRefund', () =>
      ok('previewAppRefund', fixtures.previewAppRefund!),
    );
    const { user } = showInvoice(invoice);
    const dialog = await openRefund(user);
    expect(dialog).toHaveTextContent('The overpaid part is refunded in BNB-BSC');
    expect(within(dialog).queryByLabelText('Method')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), 'Over');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await waitFor(() =>
      expect(previews).toEqual([{ amount_kind: 'overpaid', method: 'BNB-BSC', reason: 'Over' }]),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await user.click(within(dialog).getByLabelText('Everything paid, less what was refunded'));
    const method = within(dialog).getByLabelText('Method');
    expect(
      within(method)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['USDT-BEP20', 'BNB-BSC']);
    await user.selectOptions(method, 'USDT-BEP20');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await waitFor(() =>
      expect(previews[1]).toEqual({ amount_kind: 'full', method: 'USDT-BEP20', reason: 'Over' }),
    );
  });

  test('offers a payment on another network for refund in its own method, on an expired invoice', async () => {
    const base = makeInvoice();
    const invoice = makeInvoice({
      status: 'expired',
      payments: [
        {
          ...makeOverpaidInvoice().payments[0]!,
          id: 'ipay_stray0000000000000000000',
          method: 'USDT-ERC20',
          chain_id: 1,
          amount: '10.8',
          value: '0.00',
          flag: 'wrong_network',
        },
      ],
    });
    expect(base.payment_options.map((o) => o.method)).toEqual(['USDT-BEP20']);
    const previews = capture('previewAppRefund', () =>
      ok('previewAppRefund', fixtures.previewAppRefund!),
    );
    const { user } = showInvoice(invoice);
    const dialog = await openRefund(user);
    // The only method paid in: nothing to choose.
    expect(within(dialog).queryByLabelText('Method')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), 'Sent on Ethereum');
    await user.click(within(dialog).getByRole('button', { name: 'Preview refund' }));
    await waitFor(() =>
      expect(previews).toEqual([
        { amount_kind: 'full', method: 'USDT-ERC20', reason: 'Sent on Ethereum' },
      ]),
    );
  });
});
