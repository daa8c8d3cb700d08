import { screen, waitFor } from '@testing-library/react';
import { fixtures, makeApp } from '../../../test/factories/apps';
import { makeCurrent, PACKAGES, STARTER } from '../../../test/factories/subscriptions';
import { reply } from '../../../test/msw/contract';
import { server } from '../../../test/msw/server';
import { recordRequest, refuse } from '../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import CreateAppPage from './CreateAppPage';

/** The page on its route (without the layout, which other slices test), and where it went. */
function renderPage(apps = [makeApp()]) {
  return renderOnRoute('/app/create-app', <CreateAppPage />, {
    session: { ...SIGNED_IN, apps },
    route: '/app/create-app',
  });
}

describe('Create App', () => {
  test('shows the fields and requires App Name and Project URL', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Create App' }));
    expect(screen.getByText('App Name is required')).toBeInTheDocument();
    expect(screen.getByText('Project Url is required')).toBeInTheDocument();
    for (const label of ['Discription', 'IP Whitelist', 'Webhook URl']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    await user.type(screen.getByLabelText('App Name'), 'D');
    expect(screen.queryByText('App Name is required')).not.toBeInTheDocument();
  });

  test('warns about a URL while typing, submits anyway, stores the new list and opens the app', async () => {
    const sent = recordRequest('createApp', fixtures.createApp);
    const { user, store, location } = renderPage();
    await user.type(await screen.findByLabelText('App Name'), 'Donations');
    await user.type(screen.getByLabelText('Project URL'), 'donate');
    expect(screen.getByText('Please Enter Valid URl')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Project URL'), '.example.org');
    expect(screen.queryByText('Please Enter Valid URl')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Webhook URl'), 'not a url');
    expect(screen.getByText('Please Enter Valid URl')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create App' }));

    await waitFor(() => expect(location.current).toBe('/app/my-app/app_2'));
    expect(sent.body).toEqual({
      app_name: 'Donations',
      project_url: 'donate.example.org',
      info: '',
      whitelist_ip: '',
      callback_url: 'not a url',
    });
    expect(store.getState().session.apps.map((a) => a.app_name)).toEqual([
      'Shop Checkout',
      'Donations',
    ]);
    expect(await screen.findByText('App created successfully')).toBeInTheDocument();
  });

  test('says before filling the form that without a plan there is one app and no deposits', async () => {
    server.use(reply('listPackages', { status: true, data: PACKAGES, current_subscription: null }));
    renderPage([]);
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(
      'You have no active plan. Without one you can create 1 app, and the gateway opens no deposit accounts for it. Choose a plan in Packages.',
    );
    expect(screen.getByRole('link', { name: 'Packages' })).toHaveAttribute(
      'href',
      '/app/subscriptions',
    );
  });

  test('says when the plan in force has no app left', async () => {
    server.use(
      reply('listPackages', {
        status: true,
        data: PACKAGES,
        current_subscription: makeCurrent({ package_id: STARTER.id, price: STARTER.price }),
      }),
    );
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your Starter plan allows 1 app and you have 1. Upgrade in Packages to create more.',
    );
  });

  test('no notice while the plan has room', async () => {
    const { store } = renderPage();
    // Once the plans are read (Business: 5 apps, 1 owned), nothing is said.
    await waitFor(() =>
      expect(
        Object.values(store.getState().api?.queries ?? {}).some(
          (q) => q?.endpointName === 'listPackages' && q.status === 'fulfilled',
        ),
      ).toBe(true),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test("puts the server's field messages on the fields and keeps the values", async () => {
    refuse('createApp', 422, 'Please Enter Valid URl', {
      project_url: ['Please Enter Valid URl'],
      whitelist_ip: ["'1.2.3' is not a valid IP address or CIDR range."],
    });
    const { user, location } = renderPage();
    await user.type(await screen.findByLabelText('App Name'), 'Shop');
    await user.type(screen.getByLabelText('Project URL'), 'ftp://shop.example.com');
    await user.type(screen.getByLabelText('IP Whitelist'), '1.2.3');
    await user.click(screen.getByRole('button', { name: 'Create App' }));
    expect(
      await screen.findByText("'1.2.3' is not a valid IP address or CIDR range."),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Project URL')).toHaveClass('is-invalid');
    expect(screen.getByLabelText('IP Whitelist')).toHaveValue('1.2.3');
    expect(location.current).toBe('/app/create-app');
  });
});
