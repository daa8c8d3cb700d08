import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import type { AuthType, LoginRequest } from '../../api/generated/auth.gen';
import { fail, ok, on, reply, urlOf } from '../../../test/msw/contract';
import { recordRequest, refuse, server } from '../../../test/msw/server';
import { fixtures as appFixtures } from '../../../test/factories/apps';
import { makeLoginResponse, makeProfile } from '../../../test/factories/auth';
import { renderPublic } from './testing/renderPublic';

const location = () => screen.getByTestId('location').textContent;

async function passStepOne(authType: AuthType = 'mpin') {
  server.use(
    reply('preLogin', { status: true, auth_type: authType, token: 'step_abc', msg: 'Continue.' }),
  );
  const view = renderPublic('/login');
  await userEvent.type(screen.getByLabelText('Username or Email'), 'demo');
  await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Demo@12345');
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  return view;
}

const CODE_LABEL: Record<AuthType, string> = {
  mpin: '4 Digit Pin',
  authenticator: 'Two-Factor Authentication Code',
  otp: 'OTP',
};

describe('LoginPage, step one', () => {
  test('shows the promise, the fields, the links and the language picker', async () => {
    renderPublic('/login');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(
      screen.getByText('Unleash Your DeFi Potential: Automate, Delegate and Secure.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Username or Email')).toHaveAttribute('placeholder');
    expect(screen.getByLabelText('Password', { exact: true })).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
    expect(screen.getByText(/Don't have an account\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/reset',
    );
    expect(screen.getByRole('button', { name: 'Language: English' })).toBeInTheDocument();
  });

  test('requires both fields, and an edit clears the message', async () => {
    let called = false;
    server.use(
      on('preLogin', () => {
        called = true;
        return ok('preLogin', { status: true, auth_type: 'mpin', token: 'step_x', msg: '' });
      }),
    );
    renderPublic('/login');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Username or Email')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(screen.getByLabelText('Username or Email'), 'd');
    expect(screen.queryByText('Username is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(called).toBe(false);
  });

  test('shows and hides the password', async () => {
    renderPublic('/login');
    const password = screen.getByLabelText('Password', { exact: true });
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  test('a wrong password shows the server message and keeps the values', async () => {
    refuse('preLogin', 422, 'Invalid username or password.', {
      password: ['Invalid username or password.'],
    });
    renderPublic('/login');
    await userEvent.type(screen.getByLabelText('Username or Email'), 'demo');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // Once, as the toast the spec asks for: not repeated under the field.
    expect(await screen.findByText('Invalid username or password.')).toBeInTheDocument();
    await delay(20);
    expect(screen.getAllByText('Invalid username or password.')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid username or password.');
    expect(screen.getByLabelText('Username or Email')).toHaveValue('demo');
    expect(screen.getByLabelText('Password', { exact: true })).toHaveValue('nope');
  });

  const goOffline = () => jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);

  test.each([
    ['the browser is offline', false],
    ['the connection drops during the call', true],
  ])('offline (%s): Sign In says so and the session is not ended', async (_, duringCall) => {
    server.use(
      http.post(urlOf('preLogin'), () => {
        goOffline();
        return HttpResponse.error();
      }),
    );
    renderPublic('/login');
    await userEvent.type(screen.getByLabelText('Username or Email'), 'demo');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Demo@12345');
    if (!duringCall) goOffline();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText('You are offline. Please check your connection.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Network Error')).not.toBeInTheDocument();
    expect(location()).toBe('/login');
    jest.restoreAllMocks();
  });

  test('disables the button with a spinner while the call runs', async () => {
    server.use(
      on('preLogin', async () => {
        await delay(100);
        return ok('preLogin', { status: true, auth_type: 'mpin', token: 'step_x', msg: '' });
      }),
    );
    renderPublic('/login');
    await userEvent.type(screen.getByLabelText('Username or Email'), 'demo');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Demo@12345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const button = screen.getByRole('button', { name: 'Sign In' });
    expect(button).toBeDisabled();
    expect(button.querySelector('.spinner-border')).not.toBeNull();
    expect(await screen.findByLabelText('4 Digit Pin')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });
});

describe('LoginPage, step two', () => {
  test.each([
    ['mpin', '4 Digit Pin is Required'],
    ['authenticator', 'Two-Factor Authentication Code is Required'],
    ['otp', 'OTP is Required'],
  ] as const)('asks for the %s code by its label and requires it', async (authType, required) => {
    const { store } = await passStepOne(authType);
    const field = await screen.findByLabelText(CODE_LABEL[authType]);
    expect(field).toHaveAttribute('placeholder', CODE_LABEL[authType]);
    expect(screen.getByText(/Signing in as/)).toHaveTextContent('Signing in as demo');
    // The step token is for step two only: never the session's token.
    expect(store.getState().signIn.stepToken).toBe('step_abc');
    expect(store.getState().session.authToken).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText(required)).toBeInTheDocument();
  });

  test.each([
    ['mpin', 'a1+2b3x45', '1+23'],
    ['otp', '9-8 7+65', '987+'],
    ['authenticator', '12ab34+5678', '1234+5'],
  ] as const)('%s: keeps digits and plus, up to its length', async (authType, typed, kept) => {
    await passStepOne(authType);
    const field = await screen.findByLabelText(CODE_LABEL[authType]);
    await userEvent.type(field, typed);
    expect(field).toHaveValue(kept);
  });

  test('needs at least 4 characters', async () => {
    await passStepOne('authenticator');
    await userEvent.type(await screen.findByLabelText(CODE_LABEL.authenticator), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      screen.getByText('Two-Factor Authentication Code must be at least 4 characters'),
    ).toBeInTheDocument();
  });

  test('signs in with the step token, stores the session, fetches the apps, opens the dashboard', async () => {
    let seen: { auth: string | null; body: LoginRequest } | undefined;
    server.use(
      on('login', async ({ request }) => {
        seen = {
          auth: request.headers.get('authorization'),
          body: (await request.json()) as LoginRequest,
        };
        return ok(
          'login',
          makeLoginResponse({ token: 'sess_new', profile: makeProfile({ name: 'Asha Verma' }) }),
        );
      }),
    );
    const { store } = await passStepOne('mpin');
    await userEvent.type(await screen.findByLabelText('4 Digit Pin'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/app/dashboard');
    expect(seen).toEqual({
      auth: 'Bearer step_abc',
      body: { username: 'demo', password: 'Demo@12345', mpin: '1234' },
    });
    const state = store.getState();
    expect(state.session).toMatchObject({
      authToken: 'sess_new',
      name: 'Asha Verma',
      username: 'demo',
      currency: 'USD',
      currency_type: '$',
      auth_type: 'mpin',
    });
    expect(state.signIn).toEqual({ stepToken: '', authType: '', username: '' });
    await waitFor(() => expect(store.getState().session.apps).toEqual(appFixtures.getApps.data));
    expect(await screen.findByText('Login Successfully')).toBeInTheDocument();
  });

  test('sends the code under the field named after the auth type', async () => {
    const sent = recordRequest('login', makeLoginResponse());
    await passStepOne('otp');
    await userEvent.type(await screen.findByLabelText('OTP'), '4821');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(sent.body).toEqual({ username: 'demo', password: 'Demo@12345', otp: '4821' });
  });

  test('a wrong code is said once, as a toast, and the step stays', async () => {
    refuse('login', 422, 'The 4 Digit Pin is incorrect.', {
      mpin: ['The 4 Digit Pin is incorrect.'],
    });
    const { store } = await passStepOne('mpin');
    await userEvent.type(await screen.findByLabelText('4 Digit Pin'), '9999');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('The 4 Digit Pin is incorrect.')).toBeInTheDocument();
    await delay(20);
    expect(screen.getAllByText('The 4 Digit Pin is incorrect.')).toHaveLength(1);
    expect(screen.getByLabelText('4 Digit Pin')).toHaveValue('9999');
    expect(store.getState().signIn.stepToken).toBe('step_abc');
    expect(location()).toBe('/login');
  });

  test('an expired step goes back to step one with the credentials kept', async () => {
    server.use(
      on('login', () => fail('login', 422, 'Sign-in step expired. Please sign in again.')),
    );
    const { store } = await passStepOne('mpin');
    await userEvent.type(await screen.findByLabelText('4 Digit Pin'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText('Sign-in step expired. Please sign in again.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Username or Email')).toHaveValue('demo');
    expect(screen.getByLabelText('Password', { exact: true })).toHaveValue('Demo@12345');
    expect(store.getState().signIn.stepToken).toBe('');
    expect(store.getState().session.authToken).toBe('');
  });

  test('a rate limit keeps the step so the code can be sent again', async () => {
    refuse('login', 429, 'Too many failed sign-in attempts. Please try again in 5 minutes.');
    await passStepOne('mpin');
    await userEvent.type(await screen.findByLabelText('4 Digit Pin'), '1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText('Too many failed sign-in attempts. Please try again in 5 minutes.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('4 Digit Pin')).toBeInTheDocument();
  });

  test('Back returns to step one and forgets the step token', async () => {
    const { store } = await passStepOne('otp');
    await userEvent.type(await screen.findByLabelText('OTP'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Username or Email')).toHaveValue('demo');
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument();
    expect(store.getState().signIn.stepToken).toBe('');
  });

  test('leaving the screen forgets the step token', async () => {
    const { store } = await passStepOne('mpin');
    await screen.findByLabelText('4 Digit Pin');
    await userEvent.click(screen.getByRole('link', { name: 'Sign Up' }));
    await act(async () => undefined);
    expect(location()).toBe('/register');
    expect(store.getState().signIn.stepToken).toBe('');
    within(document.body).getByRole('heading', { name: 'Sign Up' });
  });
});
