import moment from 'moment';
import { screen, waitFor, within } from '@testing-library/react';
import {
  ACCOUNT,
  API_KEY,
  fixtures,
  GAS_ADDRESS,
  makeApp,
  makeAppDetails,
  makePage,
  makeReceive,
  makeSend,
  makeUsedMethod,
  PAYOUT_ADDRESS,
  TRX,
  USDT_BSC,
} from '../../../test/factories/apps';
import { fail, ok, on, reply } from '../../../test/msw/contract';
import { refuse, server } from '../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import type { AppDetails } from '../../api/apps';
import { changeLanguage, loadPortalCatalogue } from '../../i18n/language';
import { formatDateTime } from '../../lib/format';
import AppDetailPage from './AppDetailPage';
import { GAS_POLL_MS } from './components/PaymentSettingTab';

/** The page on its route (without the layout, which other slices test), and where it went. */
function renderAt(path: string) {
  return renderOnRoute('/app/my-app/:id/:tab?', <AppDetailPage />, {
    session: SIGNED_IN,
    route: path,
  });
}

function renderTab(tab: string, details: AppDetails = makeAppDetails(), query = '') {
  server.use(reply('getAppDetails', { status: true, data: details }));
  return renderAt(`/app/my-app/app_1/${tab}${query}`);
}

/** Records the bodies (or path params) an operation receives and answers its fixture. */
function capture<T>(operationId: Parameters<typeof on>[0], answer: () => Response) {
  const calls: T[] = [];
  server.use(
    on(operationId, async ({ request, params }) => {
      calls.push((request.method === 'GET' ? params : await request.json()) as T);
      return answer();
    }),
  );
  return calls;
}

const OTHER_PAYOUT = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

const message = (msg: string) => () => ok('updatePaymentMethod', { status: true, msg });

describe('App detail: test mode', () => {
  test('the switch opens the app’s test mode on the same tab, under the test mode banner', async () => {
    const live = makeAppDetails();
    const testApp = makeApp({ id: 'app_1t', livemode: false, live_app_id: 'app_1' });
    server.use(
      on('getAppDetails', ({ params }) =>
        ok('getAppDetails', {
          status: true,
          data: params.id === 'app_1t' ? { ...live, app_data: testApp } : live,
        }),
      ),
    );
    const opened: unknown[] = [];
    server.use(
      on('openTestMode', ({ params }) => {
        opened.push(params);
        return ok('openTestMode', { status: true, msg: 'Test mode', app: testApp });
      }),
    );
    const { user, location } = renderAt('/app/my-app/app_1/app-keys');
    const toggle = await screen.findByRole('switch', { name: 'Test mode' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByText('TEST MODE')).not.toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(location.current).toBe('/app/my-app/app_1t/app-keys'));
    expect(opened).toEqual([{ id: 'app_1' }]);
    expect(await screen.findByText('TEST MODE')).toBeInTheDocument();
    // The banner, beside the keys' own loading status while they load.
    expect(screen.getByText('TEST MODE').closest('[role="status"]')).toHaveTextContent(
      'TEST MODE: test keys, test networks and test data. No real money moves',
    );
    expect(screen.getByRole('switch', { name: 'Test mode' })).toBeChecked();
    // App Keys shows a test key in its example.
    expect(await screen.findByLabelText('Example request')).toHaveValue(
      `curl -H "Authorization: Bearer csl_test_…" ${window.location.origin}/gateway/v1/methods`,
    );
    // Off again: the live app, without the banner, and nothing more opened.
    await user.click(screen.getByRole('switch', { name: 'Test mode' }));
    await waitFor(() => expect(location.current).toBe('/app/my-app/app_1/app-keys'));
    await waitFor(() => expect(screen.queryByText('TEST MODE')).not.toBeInTheDocument());
    expect(opened).toHaveLength(1);
  });

  test('while the test app loads, nothing of the live app stays on screen to click', async () => {
    const live = makeAppDetails();
    const testApp = makeApp({ id: 'app_1t', livemode: false, live_app_id: 'app_1' });
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    server.use(
      on('getAppDetails', async ({ params }) => {
        if (params.id !== 'app_1t') return ok('getAppDetails', { status: true, data: live });
        await arrived;
        return ok('getAppDetails', { status: true, data: { ...live, app_data: testApp } });
      }),
      on('openTestMode', () =>
        ok('openTestMode', { status: true, msg: 'Test mode', app: testApp }),
      ),
    );
    const { user, location } = renderAt('/app/my-app/app_1/app-keys');
    await user.click(await screen.findByRole('switch', { name: 'Test mode' }));
    await waitFor(() => expect(location.current).toBe('/app/my-app/app_1t/app-keys'));
    expect(await screen.findByRole('status', { name: 'Loading this app' })).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Test mode' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Example request')).not.toBeInTheDocument();
    arrive();
    expect(await screen.findByText('TEST MODE')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Test mode' })).toBeChecked();
    expect(await screen.findByLabelText('Example request')).toHaveValue(
      `curl -H "Authorization: Bearer csl_test_…" ${window.location.origin}/gateway/v1/methods`,
    );
  });
});

describe('App detail: test mode funding', () => {
  test('a test app’s Operational Wallet adds test funds in one click, then shows the new balances', async () => {
    const testApp = makeApp({ id: 'app_1t', livemode: false, live_app_id: 'app_1' });
    const details = makeAppDetails({
      app_data: testApp,
      user_payment_methods: [makeUsedMethod()],
    });
    server.use(reply('getAppDetails', { status: true, data: details }));
    let funded = false;
    const reads = capture('fetchBalance', () =>
      ok(
        'fetchBalance',
        funded ? { status: true, nativeAmount: 10, tokenAmount: 10000 } : fixtures.fetchBalance,
      ),
    );
    const bodies = capture('fundTestWallet', () => {
      funded = true;
      return ok('fundTestWallet', {
        status: true,
        msg: 'Test funds sent',
        data: { native_amount: '9.987654', token_amount: '9996.5', block_number: 7 },
      });
    });
    const { user } = renderAt('/app/my-app/app_1t/payment-setting');
    await user.click(await screen.findByRole('button', { name: 'Operational Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Operational Wallet' });
    expect(await within(dialog).findByText('3.500000')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add test funds' }));
    await waitFor(() => expect(bodies).toEqual([{ payment_method_id: 'pm_usdt_bsc' }]));
    expect(await within(dialog).findByText('10000.000000')).toBeInTheDocument();
    expect(within(dialog).getByText('10.000000')).toBeInTheDocument();
    expect(reads).toHaveLength(2);
  });
});

describe('App detail: Delete test data', () => {
  const testApp = makeApp({ id: 'app_1t', livemode: false, live_app_id: 'app_1' });

  test('a test app deletes its test data after a confirmation that says what goes and what stays', async () => {
    server.use(
      reply('getAppDetails', { status: true, data: makeAppDetails({ app_data: testApp }) }),
    );
    const calls: unknown[] = [];
    server.use(
      on('deleteTestData', ({ params }) => {
        calls.push(params);
        return ok('deleteTestData', {
          status: true,
          msg: 'Test data deleted',
          data: {
            accounts: 1,
            invoices: 2,
            deposits: 2,
            withdrawals: 0,
            refunds: 0,
            payment_links: 0,
            webhook_events: 6,
            api_logs: 9,
          },
        });
      }),
    );
    const { user } = renderAt('/app/my-app/app_1t/merchant-setting');
    await user.click(await screen.findByRole('button', { name: 'Delete test data' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete test data' });
    expect(dialog).toHaveTextContent(
      'Delete every test object of Shop Checkout: its accounts, invoices, payments, withdrawals, refunds, payment links, webhook events and API logs? This cannot be undone.',
    );
    expect(dialog).toHaveTextContent(
      'Its test keys, webhook settings, payment methods and operational wallets stay.',
    );
    // Cancel deletes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete test data' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete test data' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete test data' }));
    expect(await screen.findByText('Test data deleted')).toBeInTheDocument();
    expect(calls).toEqual([{ id: 'app_1t' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('a refusal (a test withdrawal on its way) is shown', async () => {
    server.use(
      reply('getAppDetails', { status: true, data: makeAppDetails({ app_data: testApp }) }),
      on('deleteTestData', () =>
        fail(
          'deleteTestData',
          409,
          'A test withdrawal or refund is on its way: delete test data once it has completed, failed or been cancelled.',
        ),
      ),
    );
    const { user } = renderAt('/app/my-app/app_1t/merchant-setting');
    await user.click(await screen.findByRole('button', { name: 'Delete test data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete test data' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, delete test data' }));
    expect(
      await screen.findByText(
        'A test withdrawal or refund is on its way: delete test data once it has completed, failed or been cancelled.',
      ),
    ).toBeInTheDocument();
  });

  test('a live app has no Delete test data', async () => {
    renderTab('merchant-setting');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Shop Checkout' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete test data' })).not.toBeInTheDocument();
  });
});

describe('App detail: header, menu and tabs', () => {
  test('shows the name, description, back link and the left menu; the tab is in the URL', async () => {
    const { user, location } = renderTab('');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Shop Checkout' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Checkout payments for the web shop')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to All Apps/ })).toHaveAttribute(
      'href',
      '/app/all-app',
    );
    const menu = screen.getByRole('navigation', { name: 'App menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual([
      'Payment Setting',
      'App Keys',
      'Merchant Setting',
      'Usage',
      'Transaction',
      'API Logs',
      'IPN Logs',
      'Daily Logs',
      'Invoices',
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Payment Setting' })).toBeInTheDocument();
    await user.click(within(menu).getByRole('link', { name: 'Usage' }));
    expect(location.current).toBe('/app/my-app/app_1/usage');
    expect(await screen.findByRole('heading', { level: 2, name: 'Usage' })).toBeInTheDocument();
  });

  test('on a phone the sections are a labelled select that changes the tab in the URL', async () => {
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({
        matches: query === '(max-width: 575.98px)',
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }),
    });
    try {
      const { user, location } = renderTab('app-keys');
      const select = await screen.findByRole('combobox', { name: 'App section' });
      expect(screen.queryByRole('navigation', { name: 'App menu' })).not.toBeInTheDocument();
      expect(select).toHaveValue('app-keys');
      expect(within(select).getAllByRole('option')).toHaveLength(9);
      await user.selectOptions(select, 'Merchant Setting');
      expect(location.current).toBe('/app/my-app/app_1/merchant-setting');
      expect(
        await screen.findByRole('heading', { level: 2, name: 'Merchant Setting' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'App section' })).toHaveValue('merchant-setting');
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  test('opens the tab named in the URL and replaces an unknown one', async () => {
    const { location } = renderTab('nope');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Payment Setting' }),
    ).toBeInTheDocument();
    expect(location.current).toBe('/app/my-app/app_1');
  });
});

describe('Payment Setting', () => {
  test('shows a card per method; switches of a method in use save at once', async () => {
    const calls = capture('updatePaymentMethod', message('Payment method updated successfully'));
    const { user } = renderTab('payment-setting');
    const deposit = await screen.findByRole('switch', { name: 'For Deposit' });
    expect(deposit).toBeChecked();
    expect(screen.getByRole('switch', { name: 'For Withdraw' })).not.toBeChecked();
    expect(screen.getByText('Tron')).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: 'USDT logo' })[0]).toHaveAttribute(
      'src',
      'http://localhost/api/images/logo_usdt.png',
    );
    await user.click(screen.getByRole('switch', { name: 'For Withdraw' }));
    await waitFor(() =>
      expect(calls).toEqual([
        { id: 'upm_1', user_app_id: 'app_1', type: 'withdraw_status', status: 1 },
      ]),
    );
    await user.click(deposit);
    await waitFor(() => expect(calls[1]).toMatchObject({ type: 'deposit_status', status: 0 }));
  });

  test("enabling an unused method asks for a payout address with the spec's messages", async () => {
    const calls = capture('usePaymentMethod', () =>
      ok('usePaymentMethod', { status: true, msg: 'Payment method added successfully' }),
    );
    const { user } = renderTab('payment-setting');
    await user.click(await screen.findByRole('switch', { name: 'Use TRX (Tron)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter Payout Address' });
    const field = within(dialog).getByLabelText('Payout Address');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByText('Payout addrress is required')).toBeInTheDocument();
    await user.type(field, PAYOUT_ADDRESS); // an EVM address on a Tron network
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByText('Please Enter valid Address')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.clear(field);
    await user.type(field, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([
      {
        payment_method_id: 'pm_trx',
        collect_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        user_app_id: 'app_1',
      },
    ]);
    expect(await screen.findByText('Payment method added successfully')).toBeInTheDocument();
  });

  test("shows the server's refusal of a payout address on the field", async () => {
    refuse('usePaymentMethod', 422, 'Please Enter valid Address', {
      collect_address: ['Please Enter valid Address'],
    });
    const { user } = renderTab('payment-setting');
    await user.click(await screen.findByRole('switch', { name: 'Use TRX (Tron)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter Payout Address' });
    await user.type(
      within(dialog).getByLabelText('Payout Address'),
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Please Enter valid Address')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Payout Address')).toHaveValue(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u',
    );
  });

  test('the Deposit Wallet shows the payout address shortened and edits it', async () => {
    const calls = capture('updatePaymentMethod', message('Payment method updated successfully'));
    const { user } = renderTab('payment-setting');
    await user.click(await screen.findByRole('button', { name: 'Deposit Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deposit Wallet' });
    expect(within(dialog).getByText('0x4B20993B...A9e22C02db')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit payout address' }));
    const field = within(dialog).getByLabelText('Payout Address');
    await user.clear(field);
    await user.type(field, '0x12');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Please Enter valid Address')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls).toEqual([
        {
          id: 'upm_1',
          user_app_id: 'app_1',
          type: 'address',
          collect_address: '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        },
      ]),
    );
  });

  test('after a payout address change, the card and the Deposit Wallet show when the hold ends', async () => {
    const until = '2026-11-27T16:00:00.000Z';
    // The server answers the details without a hold, then (after the change) with one.
    let details = makeAppDetails();
    server.use(on('getAppDetails', () => ok('getAppDetails', { status: true, data: details })));
    server.use(
      on('updatePaymentMethod', () => {
        details = makeAppDetails({
          user_payment_methods: [
            makeUsedMethod({ collect_address: OTHER_PAYOUT, payout_hold_until: until }),
          ],
        });
        return message('Payment method updated successfully')();
      }),
    );
    const { user } = renderAt('/app/my-app/app_1/payment-setting');
    await user.click(await screen.findByRole('button', { name: 'Deposit Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deposit Wallet' });
    expect(within(dialog).queryByText(/held until/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Edit payout address' }));
    const field = within(dialog).getByLabelText('Payout Address');
    await user.clear(field);
    await user.type(field, OTHER_PAYOUT);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const notice = await within(dialog).findByText(/This payout address was changed/);
    expect(notice).toHaveTextContent(
      `This payout address was changed: sweeps to it and this app's withdrawals are held until ${formatDateTime(until)}.`,
    );
    // The moment is the shared DateTime: LLL, machine-readable too.
    expect(within(notice).getByText(formatDateTime(until))).toHaveAttribute('datetime', until);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const card = screen.getByText(/Payout address changed: held until/);
    expect(card).toHaveTextContent(`Payout address changed: held until ${formatDateTime(until)}.`);
  });

  test('the Operational Wallet is not ready without a gas address', async () => {
    const { user } = renderTab(
      'payment-setting',
      makeAppDetails({ user_payment_methods: [makeUsedMethod({ gas_address: null })] }),
    );
    await user.click(await screen.findByRole('button', { name: 'Operational Wallet' }));
    expect(
      await screen.findByText('Oprational Wallet is not Ready Yet,Please try After sometime'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('a pending gas address is read again until it arrives, then the Operational Wallet opens', async () => {
    let reads = 0;
    server.use(
      on('getAppDetails', () => {
        reads += 1;
        const gas_address = reads < 2 ? null : GAS_ADDRESS;
        return ok('getAppDetails', {
          status: true,
          data: makeAppDetails({ user_payment_methods: [makeUsedMethod({ gas_address })] }),
        });
      }),
      on('fetchBalance', () => ok('fetchBalance', fixtures.fetchBalance)),
    );
    const { user } = renderAt('/app/my-app/app_1/payment-setting');
    await user.click(await screen.findByRole('button', { name: 'Operational Wallet' }));
    expect(
      await screen.findByText('Oprational Wallet is not Ready Yet,Please try After sometime'),
    ).toBeInTheDocument();
    // No reload: the next poll brings the address. Its answer reaches the page a moment after the
    // handler counted it (longer on a loaded machine), so the user clicks until the wallet opens.
    await waitFor(() => expect(reads).toBe(2), { timeout: GAS_POLL_MS + 2000 });
    const dialog = await waitFor(async () => {
      const open = screen.queryByRole('dialog', { name: 'Operational Wallet' });
      if (open) return open;
      await user.click(screen.getByRole('button', { name: 'Operational Wallet' }));
      return screen.getByRole('dialog', { name: 'Operational Wallet' });
    });
    expect(within(dialog).getByTitle(`QR code of ${GAS_ADDRESS}`)).toBeInTheDocument();
    // Ready: the polling stops.
    await new Promise((resolve) => setTimeout(resolve, GAS_POLL_MS + 500));
    expect(reads).toBe(2);
  }, 15000);

  test('the Operational Wallet shows QR, balances (6 decimals), explorer link, copy and refresh', async () => {
    const calls = capture('fetchBalance', () => ok('fetchBalance', fixtures.fetchBalance));
    const { user } = renderTab('payment-setting');
    await user.click(await screen.findByRole('button', { name: 'Operational Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Operational Wallet' });
    expect(within(dialog).getByTitle(`QR code of ${GAS_ADDRESS}`)).toBeInTheDocument();
    expect(await within(dialog).findByText('0.012346')).toBeInTheDocument();
    expect(within(dialog).getByText('3.500000')).toBeInTheDocument();
    expect(within(dialog).getByText('BNB Balance')).toBeInTheDocument();
    expect(within(dialog).getByText('USDT Balance')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'View on Explorer' })).toHaveAttribute(
      'href',
      `https://bscscan.com/address/${GAS_ADDRESS}?ps=100&tt=2`,
    );
    expect(calls).toEqual([
      { paymentMethodId: 'pm_usdt_bsc', gasAddress: GAS_ADDRESS, appDataId: 'app_1' },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    await user.click(within(dialog).getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Address Copied Successfully')).toBeInTheDocument();
    // Real money is never minted: a live app's wallet has no test funds.
    expect(
      within(dialog).queryByRole('button', { name: 'Add test funds' }),
    ).not.toBeInTheDocument();
  });

  test('a native coin method shows no token balance', async () => {
    const trxGas = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    server.use(reply('fetchBalance', { status: true, nativeAmount: 12, tokenAmount: null }));
    const { user } = renderTab(
      'payment-setting',
      makeAppDetails({
        user_payment_methods: [
          makeUsedMethod({ payment_method_id: 'pm_trx', gas_address: trxGas }),
        ],
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Operational Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Operational Wallet' });
    expect(await within(dialog).findByText('12.000000')).toBeInTheDocument();
    expect(within(dialog).getByText('TRX Balance')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('token-balance')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'View on Explorer' })).toHaveAttribute(
      'href',
      `https://tronscan.org/#/address/${trxGas}?ps=100&tt=2`,
    );
  });
});

describe('App Keys', () => {
  test("checks the form with the spec's messages, then shows the new key once", async () => {
    const calls = capture('generateApiKey', () => ok('generateApiKey', fixtures.generateApiKey));
    const { user } = renderTab('app-keys');
    const submit = await screen.findByRole('button', { name: 'Submit' });
    await screen.findByLabelText('Read balances');
    await user.click(submit);
    expect(screen.getByText('Key Name is required')).toBeInTheDocument();
    expect(screen.getByText('Min One Permission is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Key Name'), 'New key');
    await user.click(screen.getByLabelText('Read balances'));
    await user.click(screen.getByLabelText('Create deposit accounts'));
    expect(screen.queryByText('Min One Permission is required')).not.toBeInTheDocument();
    await user.click(submit);

    const key = await screen.findByLabelText('Your API Key');
    expect(key).toHaveValue(fixtures.generateApiKey.token);
    expect(key).toHaveAttribute('readonly');
    expect(calls).toEqual([
      { token_name: 'New key', app_id: 'app_1', abilities: ['accounts:write', 'balances:read'] },
    ]);
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('Key Copied Succefully')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(screen.queryByLabelText('Your API Key')).not.toBeInTheDocument();
    expect(screen.queryByText(fixtures.generateApiKey.token)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Key Name')).toHaveValue('');
  });

  test('shows the gateway base URL, a curl example with the key just generated, and the reference', async () => {
    server.use(reply('generateApiKey', fixtures.generateApiKey));
    const { user } = renderTab('app-keys');
    const baseUrl = `${window.location.origin}/gateway/v1`;
    expect(await screen.findByLabelText('Base URL')).toHaveValue(baseUrl);
    const example = screen.getByLabelText('Example request');
    expect(example).toHaveValue(`curl -H "Authorization: Bearer csl_live_…" ${baseUrl}/methods`);
    const reference = screen.getByRole('link', { name: 'API reference' });
    expect(reference).toHaveAttribute('href', '/gateway/v1/docs');
    expect(reference).toHaveAttribute('target', '_blank');
    expect(reference).toHaveAttribute('rel', 'noopener');

    await user.type(screen.getByLabelText('Key Name'), 'New key');
    await user.click(await screen.findByLabelText('Read payment methods'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByLabelText('Your API Key');
    const withKey = `curl -H "Authorization: Bearer ${fixtures.generateApiKey.token}" ${baseUrl}/methods`;
    expect(example).toHaveValue(withKey);
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy example' }));
    expect(await screen.findByText('Copied Successfully')).toBeInTheDocument();
    expect(write).toHaveBeenCalledWith(withKey);

    // The key is shown once: back on the form, the example has the placeholder again.
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    expect(example).toHaveValue(`curl -H "Authorization: Bearer csl_live_…" ${baseUrl}/methods`);
  });

  test('lists keys; Edit Permissions saves the new set; Revoke asks first', async () => {
    const updates = capture('updatePermissions', () =>
      ok('updatePermissions', { status: true, msg: 'Permissions updated successfully' }),
    );
    const revokes = capture('revokeToken', () =>
      ok('revokeToken', { status: true, msg: 'API key revoked successfully' }),
    );
    const { user } = renderTab('app-keys');
    const row = (await screen.findByRole('cell', { name: 'Checkout server' })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(row).getByText('Create deposit accounts, Read deposits')).toBeInTheDocument();
    for (const column of ['Key Name', 'Created Time', 'Action']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.dataset.label),
    ).toEqual(['Key Name', 'Created Time', 'Permissions', 'Action']);

    await user.click(
      within(row).getByRole('button', { name: 'Edit Permissions of Checkout server' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Permissions' });
    expect(within(dialog).getByLabelText('Read deposits')).toBeChecked();
    await user.click(within(dialog).getByLabelText('Create deposit accounts'));
    await user.click(within(dialog).getByLabelText('Read deposits'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText('Min One Permission is required')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Read withdrawals'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(updates).toEqual([{ abilities: ['withdrawals:read'], app_id: 'app_1' }]);

    await user.click(within(row).getByRole('button', { name: 'Revoke Checkout server' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke Key' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(revokes).toEqual([]);
    await user.click(within(row).getByRole('button', { name: 'Revoke Checkout server' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke Key' })).getByRole('button', {
        name: 'Yes, Revoke',
      }),
    );
    await waitFor(() => expect(revokes).toEqual([{ tokenId: API_KEY.id, appid: 'app_1' }]));
    expect(await screen.findByText('API key revoked successfully')).toBeInTheDocument();
  });

  describe('in French', () => {
    beforeEach(async () => {
      await loadPortalCatalogue();
      await changeLanguage('fr');
    });
    afterEach(async () => {
      await changeLanguage('en');
    });

    test("shows the permissions' titles in French by their id, and the server's for an id it does not know", async () => {
      server.use(
        reply('listTokenPermissions', {
          status: true,
          data: [
            { title: 'Read deposits', value: 'deposits:read' },
            { title: 'Read payouts', value: 'payouts:read' },
          ],
        }),
      );
      const { user } = renderTab('app-keys');
      const row = (await screen.findByRole('cell', { name: 'Checkout server' })).closest(
        'tr',
      ) as HTMLElement;
      expect(
        within(row).getByText('Créer des comptes de dépôt, Consulter les dépôts'),
      ).toBeInTheDocument();
      expect(screen.getByLabelText('Consulter les dépôts')).not.toBeChecked();
      expect(screen.getByLabelText('Read payouts')).toBeInTheDocument();
      await user.click(
        within(row).getByRole('button', { name: 'Modifier les autorisations de Checkout server' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Modifier les autorisations' });
      expect(within(dialog).getByLabelText('Consulter les dépôts')).toBeChecked();
    });
  });

  test("an app without keys says 'No record Found'", async () => {
    server.use(reply('listTokens', { status: true, data: [] }));
    renderTab('app-keys');
    expect(await screen.findByText('No record Found')).toBeInTheDocument();
  });
});

describe('Merchant Setting and Usage', () => {
  test('edits the app and sends the Ready switch as status', async () => {
    const calls = capture('updateApp', () =>
      ok('updateApp', {
        status: true,
        msg: 'App updated successfully',
        data: makeAppDetails().app_data,
      }),
    );
    server.use(reply('getApps', fixtures.getApps));
    const { user } = renderTab('merchant-setting');
    const name = await screen.findByLabelText('App Name');
    expect(name).toHaveValue('Shop Checkout');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByText('App Name is required')).toBeInTheDocument();
    await user.type(name, 'Shop 2');
    await user.click(screen.getByRole('switch', { name: /App is Ready/ }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      app_name: 'Shop 2',
      project_url: 'https://shop.example.com',
      info: 'Checkout payments for the web shop',
      whitelist_ip: '',
      callback_url: '',
      invoice_underpayment_tolerance: '0',
      invoice_late_window_minutes: 60,
      app_id: 'app_1',
      status: 0,
    });
    expect(await screen.findByText('App updated successfully')).toBeInTheDocument();
  });

  test('shows, under the IP whitelist, until when a change holds withdrawals', async () => {
    const until = '2026-11-27T16:00:00.000Z';
    const held = makeAppDetails({
      app_data: makeApp({ status: 1, whitelist_ip: '203.0.113.7', whitelist_hold_until: until }),
    });
    // Not held: no note. Saved with a changed whitelist, the refetched app carries the hold.
    let details = makeAppDetails({ app_data: makeApp({ status: 1, whitelist_ip: '203.0.113.7' }) });
    server.use(on('getAppDetails', () => ok('getAppDetails', { status: true, data: details })));
    server.use(reply('getApps', fixtures.getApps));
    server.use(
      on('updateApp', () => {
        details = held;
        return ok('updateApp', {
          status: true,
          msg: 'App updated successfully',
          data: held.app_data,
        });
      }),
    );
    const { user } = renderAt('/app/my-app/app_1/merchant-setting');
    const whitelist = await screen.findByLabelText('IP Whitelist');
    expect(screen.queryByText(/withdrawals are held/)).not.toBeInTheDocument();
    await user.type(whitelist, '{enter}198.51.100.1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const note = await screen.findByText(/The IP whitelist was changed/);
    expect(note).toHaveTextContent(
      `The IP whitelist was changed: withdrawals are held until ${formatDateTime(until)}.`,
    );
    expect(within(note).getByText(formatDateTime(until))).toHaveAttribute('datetime', until);
    // Read with the field by assistive technology.
    expect(whitelist).toHaveAccessibleDescription(expect.stringContaining('withdrawals are held'));
  });

  test('shows counts and per-method totals with 6 decimals', async () => {
    renderTab('usage');
    expect(await screen.findByText('Generated Accounts')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(screen.getByText('27')).toBeInTheDocument();
    expect(screen.getByText('18')).toBeInTheDocument();
    expect(screen.getByText('1250.500000')).toBeInTheDocument();
    expect(screen.getByText('300.123456')).toBeInTheDocument();
  });

  test('downloads the figures per method as CSV', async () => {
    const asked: unknown[] = [];
    server.use(
      on('createExportLink', async ({ request, params }) => {
        asked.push({ kind: params.kind, ...((await request.json()) as object) });
        return ok('createExportLink', {
          status: true,
          data: { url: '/file.csv', expires_at: '2026-11-01T09:01:00.000Z' },
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderTab('usage');
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(asked).toEqual([{ kind: 'usage', app_id: 'app_1' }]);
    click.mockRestore();
  });

  test("splits each method's received total into the gateway fee and the payout", async () => {
    renderTab('usage');
    const card = (await screen.findByRole('heading', { level: 3, name: 'USDT (BNB Smart Chain)' }))
      .parentElement as HTMLElement;
    const figure = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(figure('Total Received')).toHaveTextContent('1250.500000');
    expect(figure('Gateway Fee')).toHaveTextContent('12.505000');
    expect(figure('To Payout Address')).toHaveTextContent('1237.995000');
    expect(screen.getByText(/the gateway fee \(your package's percent/)).toBeInTheDocument();
  });

  test('marks the refunds among the sent transactions and totals', async () => {
    renderTab('usage');
    const sent = (await screen.findByText('Sent Transactions')).parentElement as HTMLElement;
    expect(sent).toHaveTextContent('Sent Transactions182 of them refunds');
    const card = screen.getByRole('heading', { level: 3, name: 'USDT (BNB Smart Chain)' })
      .parentElement as HTMLElement;
    expect(within(card).getByText('Sent as Refunds').nextElementSibling).toHaveTextContent(
      '20.500000',
    );
  });

  test('reads the figures again when Usage is opened: what moved meanwhile shows', async () => {
    const { user } = renderTab(
      'api-logs',
      makeAppDetails({ total_transaction: { incoming: 27, outgoing: 17, refunds: 0 } }),
    );
    await screen.findByRole('heading', { level: 2, name: 'API Logs' });
    // A refund completes while the merchant is on another tab.
    server.use(reply('getAppDetails', { status: true, data: makeAppDetails() }));
    await user.click(
      within(screen.getByRole('navigation', { name: 'App menu' })).getByRole('link', {
        name: 'Usage',
      }),
    );
    expect(await screen.findByText('2 of them refunds')).toBeInTheDocument();
    expect(screen.getByText('18')).toBeInTheDocument();
  });

  test('says nothing of refunds on the sent count when there are none', async () => {
    renderTab(
      'usage',
      makeAppDetails({ total_transaction: { incoming: 27, outgoing: 18, refunds: 0 } }),
    );
    const sent = (await screen.findByText('Sent Transactions')).parentElement as HTMLElement;
    expect(sent).toHaveTextContent(/^Sent Transactions18$/);
  });

  test('shows the methods in use first and the unused ones behind a toggle', async () => {
    const SOL = { ...TRX, id: 'pm_sol', name: 'SOL', network_name: 'Solana' };
    const STOPPED = {
      ...TRX,
      id: 'pm_eth',
      name: 'ETH',
      network_name: 'Ethereum',
      total_amount: 2,
    };
    const { user } = renderTab(
      'usage',
      makeAppDetails({ all_payment_methods: [TRX, USDT_BSC, SOL, STOPPED] }),
    );
    await screen.findByText('Generated Accounts');
    // Enabled (USDT) or with money moved (ETH, since turned off) come first, in the server's order.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'USDT (BNB Smart Chain)',
      'ETH (Ethereum)',
    ]);
    const toggle = screen.getByRole('button', { name: 'Show 2 other methods' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'USDT (BNB Smart Chain)',
      'ETH (Ethereum)',
      'TRX (Tron)',
      'SOL (Solana)',
    ]);
    await user.click(screen.getByRole('button', { name: 'Hide other methods' }));
    expect(screen.queryByRole('heading', { level: 3, name: 'TRX (Tron)' })).not.toBeInTheDocument();
  });

  test('an app using no method says so and offers every method behind the toggle', async () => {
    const { user } = renderTab(
      'usage',
      makeAppDetails({ user_payment_methods: [], all_payment_methods: [TRX] }),
    );
    expect(await screen.findByText('This app uses no payment method yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show 1 other method' }));
    expect(screen.getByRole('heading', { level: 3, name: 'TRX (Tron)' })).toBeInTheDocument();
  });
});

describe('Transaction', () => {
  test('Account lists client ids and addresses', async () => {
    renderTab('transaction');
    expect(await screen.findByRole('cell', { name: 'CUST-101' })).toBeInTheDocument();
    expect(screen.getByText('0x9f2Ad2E0e9d4E2C1d0aB4d5a4bB1C2d3e4f5a6B7')).toBeInTheDocument();
    expect(screen.getByText('01-11-2026')).toBeInTheDocument();
  });

  test('Account offers a test deposit on the local chain, checked before it is sent', async () => {
    const calls = capture('sendTestDeposit', () =>
      ok('sendTestDeposit', {
        status: true,
        msg: 'Test deposit sent',
        data: { thash: `0x${'ab'.repeat(32)}`, block_number: 7 },
      }),
    );
    const { user } = renderTab('transaction');
    await user.click(await screen.findByRole('button', { name: 'Send test deposit to CUST-101' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send test deposit' });
    const amount = within(dialog).getByLabelText('Amount (USDT-BEP20)');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Amount is required')).toBeInTheDocument();
    await user.type(amount, '1.1234567');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Enter an amount with at most 6 decimals')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(
      within(dialog).getByText('Enter an amount more than 0 and at most 1000000.'),
    ).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '25.5');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Test deposit sent')).toBeInTheDocument();
    expect(calls).toEqual([{ account_id: 'acc_1', method: 'USDT-BEP20', amount: '25.5' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('downloads the reconciliation of the payments received, whichever list is shown', async () => {
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(this.getAttribute('href') ?? '');
    });
    const asked: unknown[] = [];
    server.use(
      on('createExportLink', async ({ request, params }) => {
        asked.push({ kind: params.kind, body: await request.json() });
        return ok('createExportLink', {
          status: true,
          data: {
            url: '/api/cryptosafelock/exports/download?token=exp_r.s',
            expires_at: '2026-11-01T09:01:00.000Z',
          },
        });
      }),
    );
    const { user } = renderTab('transaction', makeAppDetails(), '?view=send');
    await user.click(await screen.findByRole('button', { name: 'Download reconciliation CSV' }));
    await waitFor(() =>
      expect(followed).toEqual(['/api/cryptosafelock/exports/download?token=exp_r.s']),
    );
    expect(asked).toEqual([{ kind: 'reconciliation', body: { app_id: 'app_1' } }]);
    click.mockRestore();
  });

  test('Account has no test deposit column when no method runs on the local chain', async () => {
    renderTab(
      'transaction',
      makeAppDetails({
        accounts: makePage('accounts', [{ ...ACCOUNT, test_methods: [] }]),
      }),
    );
    expect(await screen.findByRole('cell', { name: 'CUST-101' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Test' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send test deposit/ })).not.toBeInTheDocument();
  });

  test('Receive names every status, opens details, and re-initiates only Failed', async () => {
    const rows = [0, 1, 2, 3, 4, 5].map((s) => makeReceive(s, { deposit_status: s as 0 }));
    const calls = capture('requeueDeposit', () =>
      ok('requeueDeposit', { status: true, msg: 'Deposit re-initiated successfully' }),
    );
    const { user } = renderTab(
      'transaction',
      makeAppDetails({ receive: makePage('receive', rows) }),
      '?view=receive',
    );
    for (const name of [
      'Pending',
      'Completed',
      'Queued for Verification',
      'Hash Verified (Awaiting Gas)',
      'Gas Transferred (Awaiting Collect)',
      'Failed',
    ]) {
      expect(await screen.findByText(name)).toBeInTheDocument();
    }
    expect(screen.getByText('25.0000 USDT')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Re-initiate' })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Re-initiate' }));
    await waitFor(() => expect(calls).toEqual([{ id: 'dep_5' }]));

    await user.click(screen.getByRole('button', { name: /^Details of CUST-101/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Transaction Details' });
    expect(within(dialog).getByText('26.0000 USDT')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: '0x5c50...b22061' })).toHaveAttribute(
      'href',
      'https://bscscan.com/tx/0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22061',
    );
  });

  test('Receive says under the status why a deposit waits, and what to send where', async () => {
    const reason =
      'The operational wallet 0x8ce73711B04D2ff13E3f2C774969e1404Dff58bb holds 0 BNB; the gas top-up of this deposit needs 0.000221 BNB (the network fees of its sweep and of the top-up itself). Send at least 0.000221 BNB to 0x8ce73711B04D2ff13E3f2C774969e1404Dff58bb.';
    renderTab(
      'transaction',
      makeAppDetails({
        receive: makePage('receive', [
          makeReceive(1, { deposit_status: 3, waiting_reason: reason }),
          makeReceive(2, { deposit_status: 3 }),
        ]),
      }),
      '?view=receive',
    );
    const waiting = await screen.findByRole('cell', {
      name: `Hash Verified (Awaiting Gas) ${reason}`,
    });
    expect(within(waiting).getByText(reason)).toBeInTheDocument();
    // The other deposit at 3 waits for nothing: its status stands alone.
    expect(screen.getAllByText(/^The operational wallet/)).toHaveLength(1);
    expect(screen.getByRole('cell', { name: 'Hash Verified (Awaiting Gas)' })).toBeInTheDocument();
  });

  test("Receive says under the status when a deposit came in another method than its account's", async () => {
    renderTab(
      'transaction',
      makeAppDetails({
        receive: makePage('receive', [
          makeReceive(1, {
            network_name: 'Ethereum',
            chain_id: 1,
            flag: 'wrong_network',
          }),
          makeReceive(2, { name: 'BNB', flag: 'wrong_asset' }),
          makeReceive(3),
        ]),
      }),
      '?view=receive',
    );
    expect(
      await screen.findByRole('cell', { name: 'Completed Wrong network: USDT on Ethereum' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('cell', { name: 'Completed Wrong token: BNB on BNB Smart Chain' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'Completed' })).toHaveLength(1);
  });

  test('Send says under the status why a withdrawal is held, and who decides', async () => {
    const reason =
      "Held for the operator's approval: it would take 1,250.00 USDT out of USDT (BNB Smart Chain) in 24 hours, past the daily cap of 1,000.00 USDT (400.00 USDT went out).";
    renderTab(
      'transaction',
      makeAppDetails({
        send: makePage('send', [
          makeSend(1, { status: 3, waiting_reason: reason }),
          makeSend(2, { status: 3 }),
        ]),
      }),
      '?view=send',
    );
    const held = await screen.findByRole('cell', { name: `Processing Transfer ${reason}` });
    expect(within(held).getByText(reason)).toBeInTheDocument();
    // The other withdrawal at 3 is held by nothing: its status stands alone.
    expect(screen.getAllByText(/^Held for the operator/)).toHaveLength(1);
    expect(screen.getByRole('cell', { name: 'Processing Transfer' })).toBeInTheDocument();
  });

  test('Send marks a refund of an invoice as a refund, and a withdrawal not', async () => {
    renderTab(
      'transaction',
      makeAppDetails({
        send: makePage('send', [
          makeSend(1, { status: 1, refund_id: 'rf_2m4p6r8t0v2x4z6b8d0f2h4j6k' }),
          makeSend(2, { status: 1 }),
        ]),
      }),
      '?view=send',
    );
    expect(await screen.findByRole('cell', { name: 'Completed Refund' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Completed' })).toBeInTheDocument();
    expect(screen.getByText('Refund')).toHaveAttribute('title', 'rf_2m4p6r8t0v2x4z6b8d0f2h4j6k');
  });

  test('Send shortens hashes with explorer links, names every status, acts only on 3 and 6', async () => {
    const rows = [0, 1, 2, 3, 4, 5, 6, 7].map((s) =>
      makeSend(s, { status: s as 0, thash: s === 0 ? null : undefined }),
    );
    const fixed = rows.map((row, i) => (i === 0 ? row : { ...row, thash: makeSend(i).thash }));
    const cancels = capture('cancelWithdraw', () =>
      ok('cancelWithdraw', { status: true, msg: 'Withdrawal cancelled successfully' }),
    );
    const requeues = capture('requeueWithdraw', () =>
      ok('requeueWithdraw', { status: true, msg: 'Withdrawal re-initiated successfully' }),
    );
    const { user } = renderTab(
      'transaction',
      makeAppDetails({ send: makePage('send', fixed) }),
      '?view=send',
    );
    for (const name of [
      'Pending',
      'Completed',
      'Queued for Verification',
      'Processing Transfer',
      'Energy Transferred',
      'Awaiting Blockchain Confirmation',
      'Unsuccessful',
      'Cancelled',
    ]) {
      expect(await screen.findByText(name)).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: '0xa1b2...7e8f91' })).toHaveAttribute(
      'href',
      'https://bscscan.com/tx/0xa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f91',
    );
    // A labelled, right-aligned figure: phones show 'Amount' beside it in the row's card.
    const amount = screen.getByText('13.0000 USDT');
    expect(amount).toHaveAttribute('data-label', 'Amount');
    expect(amount).toHaveClass('data-table__num');
    expect(
      within(amount.closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.dataset.label),
    ).toEqual(['Tx Hash', 'Network', 'Amount', 'Receiver Address', 'Status', 'Time', 'Action']);
    expect(screen.getAllByText('0x4B20...02db').length).toBe(8);
    expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: 'Reinitiate' })).toHaveLength(2);
    await user.click(screen.getAllByRole('button', { name: 'Cancel' })[0] as HTMLElement);
    await user.click(screen.getAllByRole('button', { name: 'Reinitiate' })[1] as HTMLElement);
    await waitFor(() => expect(cancels).toEqual([{ id: 'wd_3' }]));
    await waitFor(() => expect(requeues).toEqual([{ id: 'wd_6' }]));
  });

  test('pages through receives with the page number in first_page_url; a failed page keeps the rows', async () => {
    const page1 = makeAppDetails({ receive: makePage('receive', [makeReceive(1)], 1, 23) });
    const page2 = makeAppDetails({
      receive: makePage('receive', [makeReceive(11, { unique_id: 'CUST-PAGE-2' })], 2, 23),
    });
    const asked: string[] = [];
    server.use(
      on('getAppDetails', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        if (url.searchParams.get('receive') === '3')
          return fail('getAppDetails', 422, 'Page unavailable');
        return ok('getAppDetails', {
          status: true,
          data: url.searchParams.get('receive') === '2' ? page2 : page1,
        });
      }),
    );
    const { user } = renderAt('/app/my-app/app_1/transaction?view=receive');
    expect(await screen.findByText('Showing 1 to 1 of 23 results')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByRole('cell', { name: 'CUST-PAGE-2' })).toBeInTheDocument();
    expect(screen.getByText('Showing 11 to 11 of 23 results')).toBeInTheDocument();
    expect(asked).toContain('?receive=2');

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Request failed please try again')).toBeInTheDocument();
    expect(screen.queryByText('Page unavailable')).not.toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'CUST-PAGE-2' })).toBeInTheDocument();
  });
});

describe('Logs', () => {
  test('API Logs show method, route, ip and time (LLL, as every moment in the portal)', async () => {
    renderTab('api-logs');
    expect(await screen.findByText('/gateway/v1/addresses')).toBeInTheDocument();
    expect(screen.getByText('POST')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.10')).toBeInTheDocument();
    const time = screen.getByText(moment('2026-11-01T09:00:00Z').format('LLL'));
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', '2026-11-01T09:00:00Z');
  });

  test('IPN Logs open the log data in a JSON viewer', async () => {
    const { user } = renderTab('ipn-logs');
    await user.click(await screen.findByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: /deposit\.confirmed/ });
    const json = within(dialog).getByLabelText('Log data');
    expect(json).toHaveTextContent('"type": "deposit.confirmed"');
    expect(json).toHaveTextContent('"ok": true');
    expect(json).toHaveTextContent('"code": null');
  });

  test('Daily Logs show amounts with 4 decimals and the coin', async () => {
    renderTab('daily-logs');
    expect(await screen.findByText('120.5679 USDT')).toBeInTheDocument();
    expect(screen.getByText('10.0000 USDT')).toBeInTheDocument();
    expect(screen.getByText('01-11-2026')).toBeInTheDocument();
  });

  test("Daily Logs split each day's deposits into the gateway fee and the payout", async () => {
    renderTab('daily-logs');
    // Each cell carries its header as data-label: the stacked cards of a phone show it too.
    const fee = await screen.findByRole('cell', { name: '1.2057 USDT' });
    expect(fee).toHaveAttribute('data-label', 'Gateway Fee');
    expect(screen.getByRole('cell', { name: '119.3622 USDT' })).toHaveAttribute(
      'data-label',
      'To Payout Address',
    );
    expect(screen.getByRole('columnheader', { name: 'Gateway Fee' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'To Payout Address' })).toBeInTheDocument();
  });

  test('Daily Logs mark the refunds among the sends', async () => {
    renderTab('daily-logs');
    expect(
      await screen.findByRole('cell', { name: '10.0000 USDT including 1 refund (4.5000 USDT)' }),
    ).toHaveAttribute('data-label', 'Send Amount');
  });

  test("empty lists say 'No record Found' and show no pagination", async () => {
    renderTab('api-logs', makeAppDetails({ api_logs: makePage('api_logs', []) }));
    expect(await screen.findByText('No record Found')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument();
  });
});
