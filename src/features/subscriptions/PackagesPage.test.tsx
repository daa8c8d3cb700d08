import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BUSINESS,
  ENTERPRISE,
  fixtures,
  makeCurrent,
  makeQuote,
  PACKAGES,
  STARTER,
} from '../../../test/factories/subscriptions';
import { fail, ok, on, reply } from '../../../test/msw/contract';
import { recordRequest, refuse, server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import type { CurrentSubscription } from '../../api/subscriptions';

function withCurrent(current: CurrentSubscription | null) {
  server.use(
    reply('listPackages', { status: true, data: PACKAGES, current_subscription: current }),
  );
}

async function renderPackages() {
  const user = userEvent.setup();
  renderRoute('/app/subscriptions', { session: SIGNED_IN });
  await screen.findByRole('heading', { name: 'My Subscriptions' }, { timeout: 5000 });
  const plan = async (name: string) => screen.findByRole('article', { name: `${name} plan` });
  return { user, plan };
}

describe('Packages', () => {
  test('shows each plan: price, days, fee, limits, apps', async () => {
    const { plan } = await renderPackages();
    const business = await plan('Business');
    expect(within(business).getByText('$49.00')).toBeInTheDocument();
    expect(business).toHaveTextContent('/ 30 days');
    expect(business).toHaveTextContent('0.75% fee per transaction');
    expect(business).toHaveTextContent('Up to 10,000 transactions');
    expect(business).toHaveTextContent('1,000 transactions a day');
    expect(business).toHaveTextContent('5 apps');
    expect(await plan('Starter')).toHaveTextContent('1 app');
  });

  test('an active plan: Current Plan, and the button rule by price', async () => {
    const { plan } = await renderPackages();
    const business = await plan('Business');
    expect(within(business).getByText('Current Plan')).toBeInTheDocument();
    expect(
      within(business).getByRole('button', { name: 'Cancel Subscription' }),
    ).toBeInTheDocument();
    expect(
      within(await plan('Starter')).getByRole('button', { name: 'Downgrade Plan' }),
    ).toBeInTheDocument();
    expect(
      within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Current Plan')).toHaveLength(1);
    expect(screen.getByText('Your Business plan is active until 15-12-2026.')).toBeInTheDocument();
  });

  test('a canceled plan: Choose Plan everywhere, no Current Plan, access date shown', async () => {
    withCurrent(makeCurrent({ status: 2 }));
    const { plan } = await renderPackages();
    await plan('Business');
    expect(screen.getAllByRole('button', { name: 'Choose Plan' })).toHaveLength(3);
    expect(screen.queryByText('Current Plan')).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Your Business subscription is canceled: access continues until 15-12-2026.',
      ),
    ).toBeInTheDocument();
  });

  test('choosing a plan asks to confirm, pays it and refreshes the plans', async () => {
    withCurrent(null);
    let listed = 0;
    server.use(
      on('listPackages', () => {
        listed += 1;
        return ok('listPackages', {
          status: true,
          data: PACKAGES,
          current_subscription: listed > 1 ? makeCurrent() : null,
        });
      }),
    );
    const sent = recordRequest('purchasePackage', fixtures.purchasePackage);
    const { user, plan } = await renderPackages();
    await user.click(within(await plan('Business')).getByRole('button', { name: 'Choose Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose Plan' });
    expect(dialog).toHaveTextContent(
      'Pay $49.00 from your wallet balance for the Business plan (30 days)?',
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $49.00' }));
    expect(await screen.findByText('Package purchased successfully')).toBeInTheDocument();
    expect(sent.body).toEqual({ package_id: 'pkg_business', amount_due: 49 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Current Plan')).toBeInTheDocument();
  });

  test('Close leaves without paying', async () => {
    let paid = false;
    server.use(
      reply('getPurchaseQuote', {
        status: true,
        data: makeQuote(ENTERPRISE, { kind: 'upgrade', replaced_package: 'Business' }),
      }),
      on('purchasePackage', () => {
        paid = true;
        return ok('purchasePackage', fixtures.purchasePackage);
      }),
    );
    const { user, plan } = await renderPackages();
    await user.click(
      within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Plan' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'Your Business plan ends now and the Enterprise plan starts today.',
      ),
    );
    await user.click(within(dialog).getByText('Close', { selector: 'button' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(paid).toBe(false);
  });

  test('an upgrade shows the credit for the unused days and pays exactly the amount due', async () => {
    server.use(
      reply('getPurchaseQuote', {
        status: true,
        data: makeQuote(ENTERPRISE, {
          kind: 'upgrade',
          credit: 32.66,
          unused_days: 20,
          replaced_package: 'Business',
          amount_due: 116.34,
        }),
      }),
    );
    const sent = recordRequest('purchasePackage', fixtures.purchasePackage);
    const { user, plan } = await renderPackages();
    await user.click(
      within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Plan' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'Pay $116.34 from your wallet balance for the Enterprise plan (30 days)?',
      ),
    );
    expect(dialog).toHaveTextContent('Plan price$149.00');
    expect(dialog).toHaveTextContent('Credit for 20 unused days of Business−$32.66');
    expect(dialog).toHaveTextContent('Due now$116.34');
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $116.34' }));
    await waitFor(() =>
      expect(sent.body).toEqual({ package_id: 'pkg_enterprise', amount_due: 116.34 }),
    );
  });

  test('a downgrade says what goes back to the wallet', async () => {
    server.use(
      reply('getPurchaseQuote', {
        status: true,
        data: makeQuote(STARTER, {
          kind: 'downgrade',
          credit: 40.83,
          unused_days: 25,
          replaced_package: 'Business',
          amount_due: 0,
          refund: 21.83,
        }),
      }),
    );
    const { user, plan } = await renderPackages();
    await user.click(within(await plan('Starter')).getByRole('button', { name: 'Downgrade Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade Plan' });
    expect(await within(dialog).findByText('Returned to your wallet')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Returned to your wallet$21.83');
    expect(within(dialog).getByRole('button', { name: 'Pay $0.00' })).toBeEnabled();
  });

  test('a short balance disables Pay and says why, with the way to deposit', async () => {
    let paid = false;
    server.use(
      reply('getPurchaseQuote', {
        status: true,
        data: makeQuote(ENTERPRISE, { balance: 20, payable: false }),
      }),
      on('purchasePackage', () => {
        paid = true;
        return ok('purchasePackage', fixtures.purchasePackage);
      }),
    );
    const { user, plan } = await renderPackages();
    await user.click(
      within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Plan' });
    expect(
      await within(dialog).findByText('Your balance of $20.00 does not cover $149.00.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Deposit fund' })).toHaveAttribute(
      'href',
      '/app/wallet',
    );
    const pay = within(dialog).getByRole('button', { name: 'Pay $149.00' });
    expect(pay).toBeDisabled();
    await user.click(pay);
    expect(paid).toBe(false);
  });

  test('a downgrade needs a reason, then sends it', async () => {
    const bodies: unknown[] = [];
    server.use(
      on('purchasePackage', async ({ request }) => {
        bodies.push(await request.json());
        return ok('purchasePackage', { status: true, msg: 'Plan downgraded successfully' });
      }),
    );
    const { user, plan } = await renderPackages();
    await user.click(within(await plan('Starter')).getByRole('button', { name: 'Downgrade Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade Plan' });
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $19.00' }));
    expect(within(dialog).getByText('Please Enter Reason for Downgrade')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason for Downgrade'), 'Fewer sales');
    expect(within(dialog).queryByText('Please Enter Reason for Downgrade')).not.toBeInTheDocument();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $19.00' }));
    expect(await screen.findByText('Plan downgraded successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ package_id: 'pkg_starter', amount_due: 19, remarks: 'Fewer sales' }]);
  });

  test('a refused payment keeps the dialog and shows why', async () => {
    const message =
      'Insufficient balance: the Enterprise plan costs 149.00 USDT and your wallet holds 20.00 USDT. Please deposit USDT first.';
    server.use(on('purchasePackage', () => fail('purchasePackage', 422, message)));
    const { user, plan } = await renderPackages();
    await user.click(
      within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Plan' });
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $149.00' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Upgrade Plan' })).toBeInTheDocument();
  });

  test('a retry in the same dialog sends the same Idempotency-Key, a new dialog a new one', async () => {
    const keys: (string | null)[] = [];
    server.use(
      on('purchasePackage', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return fail('purchasePackage', 422, 'Insufficient balance');
      }),
    );
    const { user, plan } = await renderPackages();
    const upgrade = async () => {
      await user.click(
        within(await plan('Enterprise')).getByRole('button', { name: 'Upgrade Plan' }),
      );
      return screen.findByRole('dialog', { name: 'Upgrade Plan' });
    };
    let dialog = await upgrade();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $149.00' }));
    await waitFor(() => expect(keys).toHaveLength(1));
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $149.00' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    await user.click(within(dialog).getByText('Close', { selector: 'button' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await upgrade();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $149.00' }));
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  test("the server's downgrade message lands on the reason field", async () => {
    refuse('purchasePackage', 422, 'Please Enter Reason for Downgrade', {
      remarks: ['Please Enter Reason for Downgrade'],
    });
    const { user, plan } = await renderPackages();
    await user.click(within(await plan('Starter')).getByRole('button', { name: 'Downgrade Plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Downgrade Plan' });
    await user.type(await within(dialog).findByLabelText('Reason for Downgrade'), 'x');
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $19.00' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Reason for Downgrade')).toHaveClass('is-invalid'),
    );
  });

  test('cancelling asks first, then cancels the current subscription', async () => {
    let cancelled: string | undefined;
    server.use(
      on('cancelSubscription', ({ params }) => {
        cancelled = String(params.id);
        return ok('cancelSubscription', fixtures.cancelSubscription);
      }),
    );
    const { user, plan } = await renderPackages();
    await user.click(
      within(await plan(BUSINESS.name)).getByRole('button', { name: 'Cancel Subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Subscription' });
    expect(dialog).toHaveTextContent(
      'Cancel your Business subscription? Nothing is refunded: your plan stays active until 15-12-2026.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Subscription' }));
    expect(await screen.findByText('Subscription canceled successfully')).toBeInTheDocument();
    expect(cancelled).toBe('sub_current');
  });
});
