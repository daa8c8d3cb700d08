import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeApp, makeAppDetails } from '../../../../test/factories/apps';
import { fail, ok, on, reply } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../../test/renderWithProviders';
import type { App } from '../../../api/apps';
import AppDetailPage from '../AppDetailPage';

// Merchant Setting's Logo (an extension): upload on pick with a preview, the picker's and the
// server's refusals, Remove; the tab's own fields stay as they were.

// Rendering the lazy routes is slow on a shared machine.
jest.setTimeout(15_000);

const LOGO = '4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a.png';
const png = (name = 'logo.png') => new File([new Uint8Array(64)], name, { type: 'image/png' });

/** The tab with the app as `app`; the detail answers the app as the server holds it now. */
function renderTab(app: App = makeApp()) {
  let current = app;
  server.use(
    on('getAppDetails', () =>
      ok('getAppDetails', { status: true, data: makeAppDetails({ app_data: current }) }),
    ),
  );
  const view = renderOnRoute('/app/my-app/:id/:tab?', <AppDetailPage />, {
    session: SIGNED_IN,
    route: '/app/my-app/app_1/merchant-setting',
  });
  return {
    ...view,
    setServerApp: (next: App) => {
      current = next;
    },
  };
}

const logoInput = () => screen.findByLabelText('Logo');

test('sits below the tab’s fields, which keep their labels', async () => {
  renderTab();
  const input = await logoInput();
  const update = screen.getByRole('button', { name: 'Update' });
  // The Update button (the end of the app's fields) comes before the Logo field.
  expect(update.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(screen.getByLabelText('Underpayment tolerance (%)')).toBeInTheDocument();
  expect(screen.getByText(/JPG, JPEG or PNG, up to 2 MB/)).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
});

test('a picked picture is uploaded at once and shown; Remove takes it off', async () => {
  const sent: FormDataEntryValue[] = [];
  const removed: string[] = [];
  const view = renderTab();
  server.use(
    on('uploadAppLogo', async ({ request, params }) => {
      const logo = (await request.formData()).get('logo');
      if (logo) sent.push(logo);
      const app = makeApp({ id: String(params.id), logo: LOGO });
      view.setServerApp(app);
      return ok('uploadAppLogo', { status: true, msg: 'Logo updated successfully', data: app });
    }),
    on('removeAppLogo', ({ params }) => {
      removed.push(String(params.id));
      const app = makeApp({ id: String(params.id), logo: null });
      view.setServerApp(app);
      return ok('removeAppLogo', { status: true, msg: 'Logo removed successfully', data: app });
    }),
  );
  await view.user.upload(await logoInput(), png('shop.png'));
  expect(await screen.findByText('Logo updated successfully')).toBeInTheDocument();
  expect(sent).toHaveLength(1);
  expect((sent[0] as File).name).toBe('shop.png');
  const preview = await screen.findByRole('img', { name: 'Shop Checkout logo' });
  expect(preview).toHaveAttribute('src', `http://localhost/api/images/${LOGO}`);

  await view.user.click(screen.getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('Logo removed successfully')).toBeInTheDocument();
  expect(removed).toEqual(['app_1']);
  await waitFor(() =>
    expect(screen.queryByRole('img', { name: 'Shop Checkout logo' })).not.toBeInTheDocument(),
  );
  expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
});

test('an app with a logo shows it with Remove', async () => {
  renderTab(makeApp({ logo: LOGO }));
  expect(await screen.findByRole('img', { name: 'Shop Checkout logo' })).toHaveAttribute(
    'src',
    `http://localhost/api/images/${LOGO}`,
  );
  expect(screen.getByRole('button', { name: 'Remove' })).toBeEnabled();
});

test.each([
  ['an SVG', new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }), 'FILE_TYPE_NOT_ACCEPTED'],
  [
    'a file over 2 MB',
    new File([new Uint8Array(2_097_153)], 'big.png', { type: 'image/png' }),
    'FILE_SIZE_TOO_LARGE',
  ],
  ['an empty file', new File([], 'empty.png', { type: 'image/png' }), 'FILE_SIZE_TOO_SMALL'],
])('the picker refuses %s without sending it', async (_label, file, code) => {
  const calls = jest.fn();
  server.use(
    on('uploadAppLogo', () => {
      calls();
      return fail('uploadAppLogo', 422, 'no');
    }),
  );
  renderTab();
  // The browser's own filter off, as when a file is dropped: the picker's rules decide.
  const user = userEvent.setup({ applyAccept: false });
  await user.upload(await logoInput(), file);
  expect(await screen.findByText(code)).toBeInTheDocument();
  expect(calls).not.toHaveBeenCalled();
});

test('the server’s refusal is said under the field, and the logo it had stays', async () => {
  const message = 'The logo must be a file of type: jpg, png, jpeg.';
  server.use(on('uploadAppLogo', () => fail('uploadAppLogo', 422, message, { logo: [message] })));
  const { user } = renderTab(makeApp({ logo: LOGO }));
  const input = await logoInput();
  await user.upload(input, png('script.png'));
  await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
  const group = input.closest('.app-logo') as HTMLElement;
  expect(within(group).getByText(message)).toBeInTheDocument();
  expect(screen.getByRole('img', { name: 'Shop Checkout logo' })).toHaveAttribute(
    'src',
    `http://localhost/api/images/${LOGO}`,
  );
});

test('a file the server finds too large says so under the field', async () => {
  const message = 'The logo may not be greater than 2 MB.';
  server.use(on('uploadAppLogo', () => fail('uploadAppLogo', 413, message, { logo: [message] })));
  const { user } = renderTab();
  const input = await logoInput();
  await user.upload(input, png());
  const group = input.closest('.app-logo') as HTMLElement;
  expect(await within(group).findByText(message)).toBeInTheDocument();
});

test('without a logo the detail answer has none to show', async () => {
  server.use(reply('getAppDetails', { status: true, data: makeAppDetails() }));
  renderOnRoute('/app/my-app/:id/:tab?', <AppDetailPage />, {
    session: SIGNED_IN,
    route: '/app/my-app/app_1/merchant-setting',
  });
  await logoInput();
  expect(screen.queryByRole('img', { name: /logo/ })).not.toBeInTheDocument();
});
