import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ok, on } from '../../../test/msw/contract';
import { recordRequest, refuse, server } from '../../../test/msw/server';
import { fixtures } from '../../../test/factories/recovery';
import { renderRoute } from '../../../test/renderWithProviders';
import { renderPublic } from './testing/renderPublic';

const location = () => screen.getByTestId('location').textContent;
const REQUESTED = fixtures.requestPasswordReset.msg;
const RESET = fixtures.resetPassword.msg;

/** Step one passed for `name`: the form of step two is shown. */
async function codeSentFor(name = 'demo') {
  const sent = recordRequest('requestPasswordReset', fixtures.requestPasswordReset);
  renderPublic('/reset');
  await userEvent.type(screen.getByLabelText('Email'), name);
  await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
  await screen.findByRole('form', { name: 'Set a new password' });
  return sent;
}

async function fillStepTwo(values: Partial<Record<string, string>> = {}) {
  const v = {
    code: '12345678',
    password: 'N3w-Secret!',
    confirm: 'N3w-Secret!',
    pin: '1234',
    ...values,
  };
  if (v.code) await userEvent.type(screen.getByLabelText('Reset Code'), v.code);
  if (v.password) await userEvent.type(screen.getByLabelText('New Password'), v.password);
  if (v.confirm) await userEvent.type(screen.getByLabelText('Confirm Password'), v.confirm);
  if (v.pin) await userEvent.type(screen.getByLabelText('4 Digit Pin'), v.pin);
  await userEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
}

describe('ResetPasswordPage, step one', () => {
  test("keeps the spec's heading and text, at /Reset too; its links go where they say", async () => {
    renderRoute('/Reset');
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByText('Enter Username for changing account password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('placeholder', 'Username or Email');
    expect(screen.getByRole('button', { name: 'Reset' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
  });

  test('asks for a username or e-mail before calling', async () => {
    let called = false;
    server.use(
      on('requestPasswordReset', () => {
        called = true;
        return ok('requestPasswordReset', fixtures.requestPasswordReset);
      }),
    );
    renderPublic('/reset');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByText('Username or Email is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(called).toBe(false);
  });

  test('sends the name, says a code is on its way and asks for it', async () => {
    const sent = await codeSentFor(' demo@example.com ');
    expect(sent.body).toEqual({ username: 'demo@example.com' });
    expect(await screen.findByText(REQUESTED)).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Set a new password' })).toHaveAccessibleDescription(
      'If demo@example.com is a username or e-mail address of an account, its e-mail now holds a reset code. Enter it with your 4 Digit Pin and a new password.',
    );
    expect(screen.getByLabelText('Reset Code')).toHaveFocus();
  });

  test('shows the limit message and stays on step one', async () => {
    refuse('requestPasswordReset', 429, 'Too many reset requests. Please try again in 15 minutes.');
    renderPublic('/reset');
    await userEvent.type(screen.getByLabelText('Email'), 'demo');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(
      await screen.findByText('Too many reset requests. Please try again in 15 minutes.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('demo');
    expect(screen.queryByLabelText('Reset Code')).not.toBeInTheDocument();
  });
});

describe('ResetPasswordPage, step two', () => {
  test('checks every field before calling', async () => {
    await codeSentFor();
    await userEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(screen.getByText('Reset Code is required')).toBeInTheDocument();
    expect(screen.getByText('New password is required')).toBeInTheDocument();
    expect(screen.getByText('Confirm Password is required')).toBeInTheDocument();
    expect(screen.getByText('4 Digit Pin is required')).toBeInTheDocument();
  });

  test('refuses a short code and a confirmation that differs', async () => {
    await codeSentFor();
    await fillStepTwo({ code: '1234', confirm: 'N3w-Secret?' });
    expect(screen.getByText('The reset code has 8 digits.')).toBeInTheDocument();
    expect(
      screen.getByText('The confirm password does not match the new password'),
    ).toBeInTheDocument();
  });

  test("puts the server's code and pin refusals on their fields", async () => {
    await codeSentFor();
    refuse('resetPassword', 422, 'The reset code is incorrect or has expired.', {
      code: ['The reset code is incorrect or has expired.'],
    });
    await fillStepTwo();
    expect(
      await screen.findAllByText('The reset code is incorrect or has expired.'),
    ).not.toHaveLength(0);
    expect(screen.getByLabelText('Reset Code')).toHaveAttribute('aria-invalid', 'true');

    refuse('resetPassword', 422, 'The 4 Digit Pin is incorrect.', {
      mpin: ['The 4 Digit Pin is incorrect.'],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findAllByText('The 4 Digit Pin is incorrect.')).not.toHaveLength(0);
    expect(screen.getByLabelText('4 Digit Pin')).toHaveAttribute('aria-invalid', 'true');
  });

  test('sets the password with the name, code and pin, then goes to Sign In', async () => {
    await codeSentFor('demo');
    const sent = recordRequest('resetPassword', fixtures.resetPassword);
    await fillStepTwo();
    expect(await screen.findByText(RESET)).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/login'));
    expect(sent.body).toEqual({
      username: 'demo',
      code: '12345678',
      password: 'N3w-Secret!',
      password_confirmation: 'N3w-Secret!',
      mpin: '1234',
    });
  });

  test('can go back to send a new code', async () => {
    await codeSentFor('demo');
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(screen.getByLabelText('Email')).toHaveValue('demo');
    expect(screen.queryByLabelText('Reset Code')).not.toBeInTheDocument();
  });
});
