import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RegisterRequest } from '../../api/generated/auth.gen';
import { fail, ok, on, reply } from '../../../test/msw/contract';
import { refuse, server } from '../../../test/msw/server';
import { renderPublic } from './testing/renderPublic';

const location = () => screen.getByTestId('location').textContent;
const field = (label: string) => screen.getByLabelText(label, { exact: true });

// Forms with many fields are slow to type into on a busy machine.
jest.setTimeout(20_000);

/** Pastes a value (one change event, through the field's filter). */
async function paste(label: string, value: string) {
  await userEvent.click(field(label));
  await userEvent.paste(value);
}

async function fillValidForm() {
  await paste('Name', 'Asha Verma');
  await paste('Username', 'asha_v');
  await paste('Email', 'asha@example.com');
  await paste('Phone', '+919876543210');
  await paste('Country', 'Ind');
  await userEvent.click(await screen.findByRole('option', { name: 'India (+91)' }));
  await paste('4 Digit Pin', '4821');
  await paste('Password', 'S3cure!pass');
  await userEvent.click(screen.getByRole('checkbox', { name: 'I accept Terms & Conditions' }));
}

describe('RegisterPage', () => {
  test('shows the heading, tagline, every field and the way to sign in', async () => {
    renderPublic('/register');
    expect(screen.getByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByText("and unlock your asset's value!")).toBeInTheDocument();
    for (const label of [
      'Name',
      'Username',
      'Email',
      'Phone',
      'Country',
      '4 Digit Pin',
      'Password',
      'Sponsor',
    ]) {
      expect(field(label)).toBeInTheDocument();
    }
    expect(screen.getByRole('checkbox', { name: 'I accept Terms & Conditions' })).not.toBeChecked();
    expect(screen.getByText(/Have an account\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  });

  test('requires every field but the sponsor, without calling the server', async () => {
    let called = false;
    server.use(
      on('register', () => {
        called = true;
        return ok('register', { status: true, msg: 'x' });
      }),
    );
    renderPublic('/register');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    for (const message of [
      'Name is required',
      'Username is required',
      'Email is required',
      'Phone is required',
      'Country is required',
      '4 digit Pin is required',
      'Password is required',
      'Please Accept Terms & Condition',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(field('Sponsor')).not.toHaveAttribute('aria-invalid');
    expect(field('Name')).toHaveFocus();
    expect(called).toBe(false);
  });

  test('checks the e-mail format, the phone length and the pin length', async () => {
    renderPublic('/register');
    await userEvent.type(field('Email'), 'asha@example');
    await userEvent.type(field('Phone'), '12345');
    await userEvent.type(field('4 Digit Pin'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Please Enter Valid email')).toBeInTheDocument();
    expect(screen.getByText('Phone must be 6 to 16 digits.')).toBeInTheDocument();
    expect(screen.getByText('The 4 digit Pin must be exactly 4 digits.')).toBeInTheDocument();
  });

  test('says everything the client can check in one round, the unmet password rules too', async () => {
    let called = false;
    server.use(
      on('register', () => {
        called = true;
        return ok('register', { status: true, msg: 'Registration Successfully, please login.' });
      }),
    );
    renderPublic('/register');
    await fillValidForm();
    await userEvent.clear(field('Phone'));
    await paste('Phone', '5');
    await userEvent.clear(field('4 Digit Pin'));
    await paste('4 Digit Pin', '48');
    await userEvent.clear(field('Password'));
    await paste('Password', 'secure');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Phone must be 6 to 16 digits.')).toBeInTheDocument();
    expect(screen.getByText('The 4 digit Pin must be exactly 4 digits.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Password must contain: one uppercase letter, one number, one special character, 8 characters or more.',
      ),
    ).toBeInTheDocument();
    expect(called).toBe(false);
  });

  test('an edit clears that field’s message only', async () => {
    renderPublic('/register');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await userEvent.type(field('Name'), 'A');
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I accept Terms & Conditions' }));
    expect(screen.queryByText('Please Accept Terms & Condition')).not.toBeInTheDocument();
  });

  test.each([
    ['Name', 'Asha-2 Verma!', 'Asha Verma'],
    ['Email', 'asha_v+1@ex-ample.com', 'ashav1@example.com'],
    ['Phone', '+91 (98) 765-43210 999 99', '+919876543210999'],
    ['4 Digit Pin', 'a1+2b34', '1+23'],
  ])('filters %s input', async (label, typed, kept) => {
    renderPublic('/register');
    await userEvent.type(field(label), typed);
    expect(field(label)).toHaveValue(kept);
  });

  test('shows and hides the pin and the password', async () => {
    renderPublic('/register');
    expect(field('4 Digit Pin')).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show pin' }));
    expect(field('4 Digit Pin')).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field('Password')).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(field('Password')).toHaveAttribute('type', 'password');
  });

  test("checks the username when the field is left: 'Username available.'", async () => {
    let asked = '';
    server.use(
      on('checkUsername', ({ params }) => {
        asked = String(params.username);
        return ok('checkUsername', { status: true, msg: 'Username available.' });
      }),
    );
    renderPublic('/register');
    await userEvent.type(field('Username'), 'asha_v');
    await userEvent.tab();
    expect(await screen.findByText('Username available.')).toBeInTheDocument();
    expect(asked).toBe('asha_v');
    expect(field('Username')).toHaveClass('is-valid');
    // The answer belongs to that value: an edit hides it.
    await userEvent.type(field('Username'), 'x');
    expect(screen.queryByText('Username available.')).not.toBeInTheDocument();
  });

  test('says when the username is taken, without a toast', async () => {
    server.use(reply('checkUsername', { status: false, msg: 'Username already taken.' }));
    renderPublic('/register');
    await userEvent.type(field('Username'), 'demo');
    await userEvent.tab();
    expect(await screen.findByText('Username already taken.')).toBeInTheDocument();
    expect(screen.getAllByText('Username already taken.')).toHaveLength(1);
    expect(field('Username')).toHaveAttribute('aria-invalid', 'true');
  });

  test('shows the format rule for a malformed username', async () => {
    const rule = 'Username may only contain letters, digits and underscores.';
    server.use(on('checkUsername', () => fail('checkUsername', 422, rule, { username: [rule] })));
    renderPublic('/register');
    await userEvent.type(field('Username'), 'a.b');
    await userEvent.tab();
    expect(await screen.findByText(rule)).toBeInTheDocument();
  });

  test('updates the password checklist as the user types', async () => {
    renderPublic('/register');
    const checklist = () =>
      within(screen.getByRole('list', { name: '' }).parentElement as HTMLElement)
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(checklist()).toEqual([
      'One lowercase letter (missing)',
      'One uppercase letter (missing)',
      'One number (missing)',
      'One special character (missing)',
      '8 characters or more (missing)',
    ]);
    await userEvent.type(field('Password'), 'abC1');
    expect(checklist()).toEqual([
      'One lowercase letter (done)',
      'One uppercase letter (done)',
      'One number (done)',
      'One special character (missing)',
      '8 characters or more (missing)',
    ]);
    await userEvent.type(field('Password'), '!xyz');
    expect(checklist().every((item) => item?.endsWith('(done)'))).toBe(true);
    expect(screen.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuenow',
      '5',
    );
  });

  test('prefills the sponsor from ?u=', async () => {
    renderPublic('/register?u=ravi_k');
    expect(field('Sponsor')).toHaveValue('ravi_k');
  });

  test('signs up: sends every field, shows the message, clears the form, goes to /login', async () => {
    let sent: RegisterRequest | undefined;
    server.use(
      on('register', async ({ request }) => {
        sent = (await request.json()) as RegisterRequest;
        return ok('register', { status: true, msg: 'Registration Successfully, please login.' });
      }),
    );
    renderPublic('/register?u=ravi_k');
    await fillValidForm();
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Registration Successfully, please login.')).toBeInTheDocument();
    await waitFor(() => expect(location()).toBe('/login'));
    expect(sent).toEqual({
      name: 'Asha Verma',
      username: 'asha_v',
      email: 'asha@example.com',
      sponsor_id: 'ravi_k',
      password: 'S3cure!pass',
      spassword: '4821',
      country: 'IN',
      phone: '+919876543210',
      is_checked: 1,
    });
  });

  test('puts server field errors on their fields and keeps every value', async () => {
    refuse('register', 422, 'Email already registered.', {
      email: ['Email already registered.'],
      sponsor_id: ['Sponsor not found.'],
    });
    renderPublic('/register');
    await fillValidForm();
    await paste('Sponsor', 'ghost');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(screen.getAllByText('Email already registered.')).toHaveLength(2));
    expect(screen.getByText('Sponsor not found.')).toBeInTheDocument();
    expect(field('Email')).toHaveValue('asha@example.com');
    expect(field('Country')).toHaveValue('India (+91)');
    expect(field('Password')).toHaveValue('S3cure!pass');
    expect(location()).toBe('/register');
  });
});
