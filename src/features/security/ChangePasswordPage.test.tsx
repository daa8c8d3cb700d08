import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeProfile } from '../../../test/factories/auth';
import { fixtures } from '../../../test/factories/security';
import { recordRequest, refuse } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

async function renderPage() {
  const user = userEvent.setup();
  renderRoute('/app/changepassword', { session: { ...SIGNED_IN, profile: makeProfile() } });
  // The first render loads the lazy layout and page chunks (slow on a busy machine).
  const form = await screen.findByRole('form', { name: 'Change Password' }, { timeout: 5000 });
  const field = (label: string) => within(form).getByLabelText(label);
  const submit = () => user.click(within(form).getByRole('button', { name: 'Update Password' }));
  return { user, form, field, submit };
}

async function fillValid(
  user: ReturnType<typeof userEvent.setup>,
  field: (label: string) => HTMLElement,
) {
  await user.type(field('Current Password'), 'Demo@12345');
  await user.type(field('New Password'), 'Fresh#Pass9');
  await user.type(field('Confirm Password'), 'Fresh#Pass9');
  await user.type(field('4 Digit Pin'), '1234');
}

describe('Change Password', () => {
  test('shows every required message', async () => {
    const { form, submit } = await renderPage();
    await submit();
    for (const message of [
      'Current Password is required',
      'New password is required',
      'Confirm Password is required',
      '4 Digit Pin is required',
    ]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
  });

  test('checks that the confirmation matches', async () => {
    const { user, form, field, submit } = await renderPage();
    await fillValid(user, field);
    await user.type(field('Confirm Password'), 'x');
    await submit();
    expect(
      within(form).getByText('The confirm password does not match the new password'),
    ).toBeInTheDocument();
  });

  test('keeps only digits in the pin, at most 4', async () => {
    const { user, field } = await renderPage();
    await user.type(field('4 Digit Pin'), '1a2b3c45');
    expect(field('4 Digit Pin')).toHaveValue('1234');
  });

  test('has a show/hide toggle on each field', async () => {
    const { user, form, field } = await renderPage();
    for (const label of ['Current Password', 'New Password', 'Confirm Password', '4 Digit Pin']) {
      expect(field(label)).toHaveAttribute('type', 'password');
      await user.click(within(form).getByRole('button', { name: `Show ${label}` }));
      expect(field(label)).toHaveAttribute('type', 'text');
      await user.click(within(form).getByRole('button', { name: `Hide ${label}` }));
      expect(field(label)).toHaveAttribute('type', 'password');
    }
  });

  test('shows the sign-up password checklist live', async () => {
    const { user, field } = await renderPage();
    const strength = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(strength).toHaveAttribute('aria-valuenow', '0');
    await user.type(field('New Password'), 'abcD1');
    expect(strength).toHaveAttribute('aria-valuenow', '3');
    expect(screen.getByText('One special character')).toHaveTextContent('(missing)');
    await user.type(field('New Password'), '!xyz');
    expect(strength).toHaveAttribute('aria-valuenow', '5');
  });

  test('sends the change, then clears the form', async () => {
    const sent = recordRequest('changePassword', fixtures.changePassword);
    const { user, field, submit } = await renderPage();
    await fillValid(user, field);
    await submit();
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(sent.body).toEqual({
      currentpassword: 'Demo@12345',
      newpassword: 'Fresh#Pass9',
      newpassword_confirmation: 'Fresh#Pass9',
      mpin: '1234',
    });
    await waitFor(() => expect(field('Current Password')).toHaveValue(''));
    expect(field('4 Digit Pin')).toHaveValue('');
  });

  test('puts server refusals on their fields and keeps the values', async () => {
    refuse('changePassword', 422, 'The current password is incorrect', {
      currentpassword: ['The current password is incorrect'],
      mpin: ['The 4 Digit Pin is incorrect'],
    });
    const { user, form, field, submit } = await renderPage();
    await fillValid(user, field);
    await submit();
    expect(await within(form).findByText('The current password is incorrect')).toBeVisible();
    expect(within(form).getByText('The 4 Digit Pin is incorrect')).toBeInTheDocument();
    expect(field('New Password')).toHaveValue('Fresh#Pass9');
  });
});
