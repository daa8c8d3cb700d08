import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import moment from 'moment';
import { makeApp } from '../../../test/factories/apps';
import { makeProfile } from '../../../test/factories/auth';
import { makeDashboard, makeTransaction } from '../../../test/factories/dashboard';
import { fail, ok, on, reply } from '../../../test/msw/contract';
import { delay } from 'msw';
import { server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

// Rendering the lazy routes is slow on a shared machine.
jest.setTimeout(15_000);

async function renderDashboard() {
  const user = userEvent.setup();
  const view = renderRoute('/app/dashboard', {
    session: { ...SIGNED_IN, profile: makeProfile() },
  });
  await screen.findByRole('heading', { name: 'Hello, Demo Merchant' }, { timeout: 10_000 });
  return { user, ...view };
}

const answer = (data: Parameters<typeof makeDashboard>[0]) =>
  server.use(
    on('getDashboard', () => ok('getDashboard', { status: true, data: makeDashboard(data) })),
  );

test('greets with the name, the last login (LLL, address, device) and the email with a copy action', async () => {
  const { user } = await renderDashboard();
  const lll = moment('2026-11-14T18:02:11Z').format('LLL');
  expect(
    await screen.findByText(`Last login: ${lll} from 203.0.113.9 (Chrome on Windows 10)`),
  ).toBeInTheDocument();
  expect(screen.getByText('demo@example.com')).toBeInTheDocument();
  const write = jest.spyOn(navigator.clipboard, 'writeText');
  await user.click(screen.getByRole('button', { name: 'Copy email' }));
  expect(write).toHaveBeenCalledWith('demo@example.com');
  expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
});

test('the last login: without a previous sign-in ----, without its address the device alone', async () => {
  answer({ last_login_at: null, last_login_ip: null, last_login_device: null });
  const first = await renderDashboard();
  expect(await screen.findByText('Last login: ----')).toBeInTheDocument();
  first.unmount();
  answer({ last_login_ip: null, last_login_device: 'Safari on macOS' });
  await renderDashboard();
  const lll = moment('2026-11-14T18:02:11Z').format('LLL');
  expect(await screen.findByText(`Last login: ${lll} from Safari on macOS`)).toBeInTheDocument();
});

test('the KYC badge shows the status read from the server and links to /app/kyc', async () => {
  server.use(reply('getProfile', { status: true, profile: makeProfile({ status_kyc: 1 }) }));
  await renderDashboard();
  const badge = await screen.findByRole('link', { name: 'KYC Approved' });
  expect(badge).toHaveAttribute('href', '/app/kyc');
});

test('quick actions go to the wallet and the subscriptions', async () => {
  await renderDashboard();
  expect(screen.getByRole('link', { name: 'Deposit fund' })).toHaveAttribute('href', '/app/wallet');
  expect(screen.getByRole('link', { name: 'Subscription' })).toHaveAttribute(
    'href',
    '/app/subscriptions',
  );
});

test('the license card shows the expiry and the usage as used/limit; counts per period', async () => {
  await renderDashboard();
  expect(await screen.findByText('120/1000')).toBeInTheDocument();
  expect(screen.getByText('14-12-2026')).toBeInTheDocument();
  expect(screen.getByLabelText('Today transactions')).toHaveTextContent('4');
  expect(screen.getByLabelText('This Month transactions')).toHaveTextContent('57');
  expect(screen.getByLabelText('Total transactions')).toHaveTextContent('120');
});

test('while the dashboard loads, the license card keeps its lines with … (nothing moves when they fill)', async () => {
  server.use(
    on('getDashboard', async () => {
      await delay(300);
      return ok('getDashboard', { status: true, data: makeDashboard({}) });
    }),
  );
  await renderDashboard();
  const card = screen.getByRole('heading', { name: 'License' }).closest('.license-card');
  expect(card).toHaveAttribute('aria-busy', 'true');
  expect(within(card as HTMLElement).getByText('Expiry')).toBeInTheDocument();
  expect(within(card as HTMLElement).getAllByText('…')).toHaveLength(2);
  expect(await within(card as HTMLElement).findByText('120/1000')).toBeInTheDocument();
  expect(card).toHaveAttribute('aria-busy', 'false');
});

test('without a subscription the license card says so', async () => {
  answer({ subscription: null });
  await renderDashboard();
  expect(await screen.findByText('No active subscription.')).toBeInTheDocument();
});

test('Recent Activity masks the transaction id 5 + **** + 5 and shows amount, type, source, note, time', async () => {
  await renderDashboard();
  const table = await screen.findByRole('table', { name: 'Recent Activity' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(2);
  const first = within(rows[0] as HTMLElement);
  expect(first.getByText('0x3f5****2f4a6')).toBeInTheDocument();
  expect(first.getByText('+$100.00')).toBeInTheDocument();
  expect(first.getByText('Credit')).toBeInTheDocument();
  expect(first.getByText('deposit')).toBeInTheDocument();
  expect(first.getByText('USDT (BEP20) deposit')).toBeInTheDocument();
  expect(first.getByText(moment('2026-11-15T09:12:45Z').format('LLL'))).toBeInTheDocument();
  const second = within(rows[1] as HTMLElement);
  expect(second.getByText('7a1c9****c1e3b')).toBeInTheDocument();
  expect(second.getByText('-$49.99')).toBeInTheDocument();
  expect(second.getByText('Debit')).toBeInTheDocument();
  expect(table).not.toHaveTextContent('0x3f5a9d2c7b1e');
  // On phones each cell shows its column's name (the stacked cards read data-label).
  expect(
    within(rows[0] as HTMLElement)
      .getAllByRole('cell')
      .map((c) => c.dataset.label),
  ).toEqual(['Transaction ID', 'Amount', 'Type', 'Source', 'Note', 'Time']);
  expect(first.getByText('+$100.00').closest('td')).toHaveClass('data-table__num');
});

test('an empty activity list reads No record Found', async () => {
  answer({ latest_transacctions: [] });
  await renderDashboard();
  const table = await screen.findByRole('table', { name: 'Recent Activity' });
  expect(within(table).getByText('No record Found')).toBeInTheDocument();
});

test('a short note-less entry shows ---- for the note', async () => {
  answer({ latest_transacctions: [makeTransaction({ note: null })] });
  await renderDashboard();
  const table = await screen.findByRole('table', { name: 'Recent Activity' });
  expect(within(table).getByText('----')).toBeInTheDocument();
});

test('My Apps shows the first 2 apps with View Details, View All and Create New App', async () => {
  server.use(
    reply('getApps', {
      status: true,
      data: [
        makeApp({ id: 'a1', app_name: 'Alpha', status: 1 }),
        makeApp({ id: 'a2', app_name: 'Beta' }),
        makeApp({ id: 'a3', app_name: 'Gamma' }),
      ],
    }),
  );
  await renderDashboard();
  const section = await screen.findByRole('region', { name: 'My Apps' });
  expect(within(section).getByRole('link', { name: 'View All' })).toHaveAttribute(
    'href',
    '/app/all-app',
  );
  expect(within(section).getByRole('link', { name: 'Create New App' })).toHaveAttribute(
    'href',
    '/app/create-app',
  );
  const cards = within(section).getAllByRole('article');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Alpha', 'Beta']);
  expect(within(cards[0] as HTMLElement).getByText('Ready')).toBeInTheDocument();
  expect(within(cards[1] as HTMLElement).getByText('Not Ready')).toBeInTheDocument();
  expect(
    within(cards[0] as HTMLElement).getByRole('link', { name: 'View Details of Alpha' }),
  ).toHaveAttribute('href', '/app/my-app/a1');
});

test('without apps there is no My Apps section', async () => {
  server.use(on('getApps', () => ok('getApps', { status: true, data: [] })));
  await renderDashboard();
  await screen.findByRole('table', { name: 'Recent Activity' });
  expect(screen.queryByRole('region', { name: 'My Apps' })).toBeNull();
});

test('on a slow API the dashboard shows it is loading, then the figures', async () => {
  server.use(
    on('getDashboard', async () => {
      await delay(1500);
      return ok('getDashboard', { status: true, data: makeDashboard({}) });
    }),
  );
  await renderDashboard();
  expect(screen.getByRole('status', { name: 'Loading the dashboard' })).toBeInTheDocument();
  expect(await screen.findByText('Recent Activity', {}, { timeout: 5000 })).toBeInTheDocument();
  expect(screen.queryByRole('status', { name: 'Loading the dashboard' })).not.toBeInTheDocument();
});

test('the figures, My Apps and Recent Activity appear together, whichever read comes last', async () => {
  server.use(
    on('getApps', async () => {
      await delay(400);
      return ok('getApps', { status: true, data: [makeApp({ id: 'a1', app_name: 'Alpha' })] });
    }),
  );
  await renderDashboard();
  // The dashboard's answer is in (its last login shows) while the apps are still on their way.
  await screen.findByText(/^Last login: (?!…)/);
  expect(screen.getByRole('status', { name: 'Loading the dashboard' })).toBeInTheDocument();
  expect(screen.queryByText('Recent Activity')).toBeNull();
  const section = await screen.findByRole('region', { name: 'My Apps' });
  expect(within(section).getByRole('article', { name: 'Alpha' })).toBeInTheDocument();
  expect(screen.getByRole('table', { name: 'Recent Activity' })).toBeInTheDocument();
});

test('apps that cannot be read leave My Apps out, and the rest shows', async () => {
  server.use(on('getApps', () => fail('getApps', 400, 'Request failed please try again')));
  await renderDashboard();
  await screen.findByRole('table', { name: 'Recent Activity' });
  expect(screen.queryByRole('region', { name: 'My Apps' })).toBeNull();
});

test('a dashboard that cannot be read says so, and Try again reads it again', async () => {
  let calls = 0;
  server.use(
    on('getDashboard', () => {
      calls += 1;
      return calls === 1
        ? fail('getDashboard', 400, 'Request failed please try again')
        : ok('getDashboard', { status: true, data: makeDashboard({}) });
    }),
  );
  const { user } = await renderDashboard();
  expect(await screen.findByText('The dashboard could not be loaded.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('Recent Activity')).toBeInTheDocument();
});
