import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeSubscriptionPage, makeSubscriptionRow } from '../../../test/factories/subscriptions';
import { fail, ok, on, reply } from '../../../test/msw/contract';
import { server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import { historyPageArg } from './HistoryPage';

async function renderHistory() {
  const user = userEvent.setup();
  renderRoute('/app/history', { session: SIGNED_IN });
  await screen.findByRole('heading', { name: 'Purchase History' }, { timeout: 5000 });
  const table = await screen.findByRole('table');
  return { user, table };
}

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('Purchase History', () => {
  test('lists each purchase: package, price, invoice id, status, date, name, username', async () => {
    server.use(
      reply('listSubscriptions', {
        status: true,
        data: {
          ...makeSubscriptionPage(0),
          data: [
            makeSubscriptionRow({ status: 1 }),
            makeSubscriptionRow({
              id: 'sub_0',
              package: 'Starter',
              price: 19,
              paid: 19,
              invoice_id: 'INV-2026-000000',
              status: 2,
            }),
            makeSubscriptionRow({ id: 'sub_x', invoice_id: 'INV-2025-000009', status: 0 }),
          ],
          from: 1,
          to: 3,
          total: 3,
        },
      }),
    );
    const { table } = await renderHistory();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'Package',
      'Price',
      'Invoice Id',
      'Status',
      'Date',
      'Name',
      'Username',
      'Action',
    ]);
    const [first, second, third] = rowsOf(table);
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual([
      'Business',
      '$49.00',
      'INV-2026-000001',
      'Active',
      '15-11-2026',
      'Demo Merchant',
      'demo',
      'Invoice',
    ]);
    expect(second).toHaveTextContent('Canceled');
    expect(third).toHaveTextContent('Expired');
  });

  test('says how a replaced plan ended, what it credited, and what its successor paid', async () => {
    server.use(
      reply('listSubscriptions', {
        status: true,
        data: {
          ...makeSubscriptionPage(0),
          data: [
            makeSubscriptionRow({ package: 'Enterprise', price: 149, paid: 116.34 }),
            makeSubscriptionRow({
              id: 'sub_0',
              invoice_id: 'INV-2026-000000',
              status: 0,
              replaced_by: 'upgrade',
              credit: 32.66,
            }),
          ],
          from: 1,
          to: 2,
          total: 2,
        },
      }),
    );
    const { user, table } = await renderHistory();
    const [upgraded, replaced] = rowsOf(table);
    expect(upgraded).toHaveTextContent('$149.00paid $116.34');
    expect(replaced).toHaveTextContent('ExpiredReplaced by an upgrade, $32.66 credited');
    await user.click(screen.getByRole('button', { name: 'Invoice INV-2026-000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice' });
    expect(dialog).toHaveTextContent(
      'Credit for the unused days of the plan it replaced−32.66 USD',
    );
    expect(dialog).toHaveTextContent('Total116.34 USD');
  });

  test('says No record Found without purchases', async () => {
    server.use(reply('listSubscriptions', { status: true, data: makeSubscriptionPage(0) }));
    await renderHistory();
    expect(screen.getByText('No record Found')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument();
  });

  test('shows a printable invoice in USD', async () => {
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    const { user } = await renderHistory();
    await user.click(screen.getByRole('button', { name: 'Invoice INV-2026-000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice' });
    for (const text of [
      'INV-2026-000001',
      '15-11-2026',
      'Demo Merchant',
      '@demo',
      'Business',
      '30 days',
      '49.00 USD',
      'Active',
    ]) {
      expect(dialog).toHaveTextContent(text);
    }
    expect(document.body).toHaveClass('invoice-printing');
    await user.click(within(dialog).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    await user.click(within(dialog).getByText('Close', { selector: 'button' }));
    await waitFor(() => expect(document.body).not.toHaveClass('invoice-printing'));
  });

  test('pages through first_page_url with the page number replaced', async () => {
    const pages: (string | null)[] = [];
    server.use(
      on('listSubscriptions', ({ request }) => {
        const page = new URL(request.url).searchParams.get('page');
        pages.push(page);
        return ok('listSubscriptions', {
          status: true,
          data: makeSubscriptionPage(95, Number(page ?? 1)),
        });
      }),
    );
    const { user, table } = await renderHistory();
    expect(screen.getByText('Showing 1 to 10 of 95 results')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(await screen.findByText('Showing 31 to 40 of 95 results')).toBeInTheDocument();
    expect(rowsOf(table)[0]).toHaveTextContent('INV-2026-000065');
    const links = screen.getAllByRole('button', { name: /^Page \d+$/ }).map((b) => b.textContent);
    // Up to 3 page links either side of the current one (the current page is not a link).
    expect(links).toEqual(['1', '2', '3', '5', '6', '7']);
    expect(screen.getByText('4').closest('.active')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Showing 91 to 95 of 95 results')).toBeInTheDocument();
    expect(pages).toEqual(['1', '4', '10']);
  });

  test('a failed page change keeps the rows and says Request failed please try again', async () => {
    server.use(
      on('listSubscriptions', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        if (page === 2) return fail('listSubscriptions', 422, 'The page must be at least 1.');
        return ok('listSubscriptions', { status: true, data: makeSubscriptionPage(15, page) });
      }),
    );
    const { user } = await renderHistory();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Request failed please try again')).toBeInTheDocument();
    // One message: the server's own is not toasted on top of it.
    expect(screen.queryByText('The page must be at least 1.')).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 10 of 15 results')).toBeInTheDocument();
  });

  test('the page argument comes from first_page_url', () => {
    expect(historyPageArg('/api/cryptosafelock/subscription-list?page=1', 7)).toEqual({ page: 7 });
  });
});
