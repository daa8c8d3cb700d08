import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { fail, ok, on } from '../../test/msw/contract';
import { server } from '../../test/msw/server';
import { renderWithProviders, SIGNED_IN } from '../../test/renderWithProviders';
import { walletApi } from '../api/generated/wallet.gen';
import { LogoutButton } from './LogoutButton';

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderSignedIn() {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/app/dashboard" element={<LogoutButton className="extra" />} />
        <Route path="/login" element={<h1>Login</h1>} />
      </Routes>
      <Where />
    </>,
    { route: '/app/dashboard', session: SIGNED_IN },
  );
}

describe('LogoutButton', () => {
  test('revokes the session, forgets it and the cached data, then goes to /login', async () => {
    let auth: string | null = null;
    // The server answers once the test has seen the pending state, however slow the machine.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      on('logout', async ({ request }) => {
        auth = request.headers.get('authorization');
        await answered;
        return ok('logout', { status: true, msg: 'Logout Successfully' });
      }),
    );
    const { store } = renderSignedIn();
    await store.dispatch(walletApi.endpoints.getBalance.initiate());
    expect(store.getState().api?.queries).not.toEqual({});

    const button = screen.getByRole('button', { name: 'Logout' });
    expect(button).toHaveClass('extra');
    await userEvent.click(button);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: 'Logout' }).querySelector('.spinner-border'),
    ).not.toBeNull();
    answer();

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(auth).toBe('Bearer sess_test');
    expect(store.getState().session.authToken).toBe('');
    expect(store.getState().session.name).toBe('');
    expect(store.getState().api?.queries).toEqual({});
    expect(await screen.findByText('Logout Successfully')).toBeInTheDocument();
  });

  test('a failed logout is toasted and the user stays signed in', async () => {
    server.use(
      on('logout', () => fail('logout', 429, 'Too many requests, please try again later.')),
    );
    const { store } = renderSignedIn();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(
      await screen.findByText('Too many requests, please try again later.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Logout' })).toBeEnabled());
    expect(screen.getByTestId('location')).toHaveTextContent('/app/dashboard');
    expect(store.getState().session.authToken).toBe('sess_test');
  });
});
