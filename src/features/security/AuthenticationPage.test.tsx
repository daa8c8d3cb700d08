import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeProfile } from '../../../test/factories/auth';
import {
  OTPAUTH_URL,
  change2faSetUp,
  fixtures,
  makeAuthentication,
} from '../../../test/factories/security';
import { on, reply } from '../../../test/msw/contract';
import { recordRequest, refuse, server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

const SESSION = { ...SIGNED_IN, profile: makeProfile({ image_2fa: OTPAUTH_URL }) };

function renderPage(authentication = makeAuthentication()) {
  server.use(reply('getAuthentication', authentication));
  const user = userEvent.setup();
  const result = renderRoute('/app/authentication', { session: SESSION });
  return { user, ...result };
}

// The page is a lazy chunk: its first render can take over findBy's default second on a busy
// machine, so these waits allow ten.
const LOADED = { timeout: 10_000 };

/** The accordion item of a method: its header row holds the title, ribbon and switch. */
const methodSwitch = (name: string) => screen.findByRole('switch', { name: `Use ${name}` }, LOADED);
const header = (name: RegExp) => screen.findByRole('button', { name }, LOADED);

/** Types `typed` into the open modal's Security Code, checks what the field kept, and confirms. */
async function confirmCode(user: ReturnType<typeof userEvent.setup>, typed: string, kept: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
  const code = within(dialog).getByLabelText('Security Code');
  await user.type(code, typed);
  expect(code).toHaveValue(kept);
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
}

describe('Authentication: the methods', () => {
  test('shows both methods with the Active ribbon and the switch on the active one', async () => {
    renderPage();
    expect(await header(/^4 Digit Pin/)).toHaveTextContent('Active');
    expect(await header(/^Google Authentication/)).not.toHaveTextContent('Active');
    expect(await methodSwitch('4 Digit Pin')).toBeChecked();
    expect(await methodSwitch('Google Authentication')).not.toBeChecked();
  });

  test('marks the authenticator active when it is', async () => {
    renderPage(
      makeAuthentication({
        auth_type: 'authenticator',
        more_details: { authenticator: 1 },
        image_2fa: null,
      }),
    );
    expect(await header(/^Google Authentication/)).toHaveTextContent('Active');
    expect(await methodSwitch('Google Authentication')).toBeChecked();
    expect(await methodSwitch('4 Digit Pin')).not.toBeChecked();
  });

  test("refuses the authenticator with 'Please setup 2fa First' before it is set up", async () => {
    const { user } = renderPage();
    await user.click(await methodSwitch('Google Authentication'));
    expect(await screen.findByText('Please setup 2fa First')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe("Authentication: the 'Enter the Security Code' modal", () => {
  const ready = makeAuthentication({ more_details: { authenticator: 1 }, image_2fa: null });
  const switchedToPin = { ...fixtures.updateAuthentication, auth_type: 'mpin' as const };

  test('asks for the pin (digits only, at most 4) and sends it as spassword', async () => {
    const sent = recordRequest('updateAuthentication', fixtures.updateAuthentication);
    const { user, store } = renderPage(ready);
    await user.click(await methodSwitch('Google Authentication'));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
    expect(within(dialog).queryByRole('button', { name: 'Send OTP' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Security code is required')).toBeInTheDocument();

    const code = within(dialog).getByLabelText('Security Code');
    await user.type(code, 'a1b2c3d4e5');
    expect(code).toHaveValue('1234');
    expect(within(dialog).queryByText('Security code is required')).not.toBeInTheDocument();

    server.use(
      reply(
        'getAuthentication',
        makeAuthentication({
          auth_type: 'authenticator',
          more_details: { authenticator: 1 },
          image_2fa: null,
        }),
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.body).toEqual({ type: 'authenticator', spassword: '1234' });
    expect(
      await screen.findByText('Authentication method updated successfully'),
    ).toBeInTheDocument();
    expect(store.getState().session.auth_type).toBe('authenticator');
    expect(store.getState().session.profile?.auth_type).toBe('authenticator');
    expect(await header(/^Google Authentication/)).toHaveTextContent('Active');
  });

  test('takes 6 digits from the authenticator and sends them as code', async () => {
    const sent = recordRequest('updateAuthentication', switchedToPin);
    const { user } = renderPage({ ...ready, auth_type: 'authenticator' });
    await user.click(await methodSwitch('4 Digit Pin'));
    await confirmCode(user, '12345678', '123456');
    await waitFor(() => expect(sent.body).toEqual({ type: 'mpin', code: '123456' }));
  });

  test("offers 'Send OTP' when the active method is otp and sends the code as otp", async () => {
    const sent = recordRequest('updateAuthentication', switchedToPin);
    const { user } = renderPage({ ...ready, auth_type: 'otp' });
    expect(await methodSwitch('4 Digit Pin')).not.toBeChecked();
    expect(await methodSwitch('Google Authentication')).not.toBeChecked();
    await user.click(await methodSwitch('4 Digit Pin'));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
    await user.click(within(dialog).getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('OTP sent to your registered email')).toBeInTheDocument();
    await confirmCode(user, '987654', '9876');
    await waitFor(() => expect(sent.body).toEqual({ type: 'mpin', otp: '9876' }));
  });

  test('shows a wrong code on the field and keeps it', async () => {
    refuse('updateAuthentication', 422, 'The security code is incorrect', {
      spassword: ['The security code is incorrect'],
    });
    const { user } = renderPage(ready);
    await user.click(await methodSwitch('Google Authentication'));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
    const code = within(dialog).getByLabelText('Security Code');
    await user.type(code, '9999');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The security code is incorrect')).toBeInTheDocument();
    expect(code).toHaveValue('9999');
    expect(code).toHaveClass('is-invalid');
  });

  test('Close dismisses the modal without a request', async () => {
    server.use(
      on('updateAuthentication', () => {
        throw new Error('no switch expected');
      }),
    );
    const { user } = renderPage(ready);
    await user.click(await methodSwitch('Google Authentication'));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
    await user.type(within(dialog).getByLabelText('Security Code'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(await methodSwitch('Google Authentication'));
    const again = await screen.findByRole('dialog', { name: 'Enter the Security Code' });
    expect(within(again).getByLabelText('Security Code')).toHaveValue('');
  });
});

/** Sends the pin form with `password` and the new pin 5555 (confirmed). */
async function submitPin(
  user: ReturnType<typeof userEvent.setup>,
  form: HTMLElement,
  password: string,
) {
  await user.type(within(form).getByLabelText('Current Password'), password);
  await user.type(within(form).getByLabelText('New 4 Digit Pin'), '5555');
  await user.type(within(form).getByLabelText('Confirm Pin'), '5555');
  await user.click(within(form).getByRole('button', { name: 'Update Pin' }));
}

describe('Authentication: the pin panel', () => {
  const pinForm = () => screen.findByRole('form', { name: 'Change 4 Digit Pin' });

  test('shows every required message', async () => {
    const { user } = renderPage();
    const form = await pinForm();
    await user.click(within(form).getByRole('button', { name: 'Update Pin' }));
    expect(within(form).getByText('Current Password is required')).toBeInTheDocument();
    expect(within(form).getByText('New 4 Digit Pin is required')).toBeInTheDocument();
    expect(within(form).getByText('Confirm Pin is required')).toBeInTheDocument();
  });

  test('keeps digits only, at most 4, and checks the confirmation', async () => {
    const { user } = renderPage();
    const form = await pinForm();
    const pin = within(form).getByLabelText('New 4 Digit Pin');
    await user.type(pin, '12ab345');
    expect(pin).toHaveValue('1234');
    await user.type(within(form).getByLabelText('Confirm Pin'), '4321');
    await user.type(within(form).getByLabelText('Current Password'), 'Demo@12345');
    await user.click(within(form).getByRole('button', { name: 'Update Pin' }));
    expect(
      within(form).getByText('The confirm Pin does not match the new Pin'),
    ).toBeInTheDocument();
  });

  test('sends the change and clears the form', async () => {
    const sent = recordRequest('changeMpin', fixtures.changeMpin);
    const { user } = renderPage();
    const form = await pinForm();
    await submitPin(user, form, 'Demo@12345');
    expect(await screen.findByText('Pin changed successfully')).toBeInTheDocument();
    expect(sent.body).toEqual({
      password: 'Demo@12345',
      spassword: '5555',
      spassword_confirmation: '5555',
    });
    expect(within(form).getByLabelText('Current Password')).toHaveValue('');
  });

  test('puts a wrong password on its field and keeps the values', async () => {
    refuse('changeMpin', 422, 'The current password is incorrect', {
      password: ['The current password is incorrect'],
    });
    const { user } = renderPage();
    const form = await pinForm();
    await submitPin(user, form, 'Wrong@1');
    expect(await within(form).findByText('The current password is incorrect')).toBeInTheDocument();
    expect(within(form).getByLabelText('New 4 Digit Pin')).toHaveValue('5555');
  });

  test('shows and hides the current password', async () => {
    const { user } = renderPage();
    const form = await pinForm();
    const password = within(form).getByLabelText('Current Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(within(form).getByRole('button', { name: 'Show Current Password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(within(form).getByRole('button', { name: 'Hide Current Password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});

describe('Authentication: the authenticator panel', () => {
  const setupForm = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.click(await header(/^Google Authentication/));
    return screen.findByRole('form', { name: 'Set up Google Authentication' });
  };

  test('shows the QR of image_2fa and its key', async () => {
    const { user } = renderPage();
    await setupForm(user);
    expect(screen.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
  });

  test('requires the code, keeps digits only, at most 6', async () => {
    const { user } = renderPage();
    const form = await setupForm(user);
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(within(form).getByText('Two Factor code is required')).toBeInTheDocument();
    const code = within(form).getByLabelText('Two Factor Code');
    await user.type(code, '12x34567');
    expect(code).toHaveValue('123456');
    expect(within(form).queryByText('Two Factor code is required')).not.toBeInTheDocument();
  });

  test("confirms the setup, drops the secret from the stored profile, then shows 'Setup Done'", async () => {
    const sent = recordRequest('change2Fa', change2faSetUp);
    const { user, store } = renderPage();
    const form = await setupForm(user);
    await user.type(within(form).getByLabelText('Two Factor Code'), '492039');
    server.use(
      reply(
        'getAuthentication',
        makeAuthentication({ more_details: { authenticator: 1 }, image_2fa: null }),
      ),
    );
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('Two factor authentication setup successfully'),
    ).toBeInTheDocument();
    expect(sent.body).toEqual({ code: '492039' });
    expect(store.getState().session.profile?.image_2fa).toBeNull();
    expect(await screen.findByText('Setup Done')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
  });

  test('puts a wrong code on the field', async () => {
    refuse('change2Fa', 422, 'The Two Factor code is incorrect', {
      code: ['The Two Factor code is incorrect'],
    });
    const { user } = renderPage();
    const form = await setupForm(user);
    await user.type(within(form).getByLabelText('Two Factor Code'), '000000');
    await user.click(within(form).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText('The Two Factor code is incorrect')).toBeInTheDocument();
    expect(within(form).getByLabelText('Two Factor Code')).toHaveValue('000000');
  });

  test("shows 'Setup Done' once set up", async () => {
    const { user } = renderPage(
      makeAuthentication({ more_details: { authenticator: 1 }, image_2fa: null }),
    );
    await user.click(await header(/^Google Authentication/));
    expect(await screen.findByText('Setup Done')).toBeInTheDocument();
    expect(screen.queryByLabelText('Two Factor Code')).not.toBeInTheDocument();
  });
});
