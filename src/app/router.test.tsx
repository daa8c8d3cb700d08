import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { RouteErrorBoundary } from '../components/RouteError';
import { createNavigation, NavigationBridge } from './navigation';
import { renderRoute, SIGNED_IN } from '../../test/renderWithProviders';

describe('routing', () => {
  test('/ sends a visitor to /login', async () => {
    const { navigation } = renderRoute('/');
    await waitFor(() => expect(navigation.pathname).toBe('/login'));
  });

  test('/ sends a signed-in user to the dashboard, and so does /login', async () => {
    const { navigation } = renderRoute('/', { session: SIGNED_IN });
    await waitFor(() => expect(navigation.pathname).toBe('/app/dashboard'));
    act(() => navigation.navigate('/login'));
    await waitFor(() => expect(navigation.pathname).toBe('/app/dashboard'));
  });

  test('a protected route without a token logs an error and goes to /login', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { navigation } = renderRoute('/app/wallet');
    await waitFor(() => expect(navigation.pathname).toBe('/login'));
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/redirecting to \/login/));
    error.mockRestore();
  });

  test('paths match case-insensitively', async () => {
    renderRoute('/Register');
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
  });

  test('an unknown path shows the not-found screen', async () => {
    renderRoute('/nowhere');
    expect(
      await screen.findByText('Oops! Error: 404 This page does not exist!'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute(
      'href',
      '/app/dashboard',
    );
  });

  test('an unknown /app path shows the not-found screen inside the portal', async () => {
    renderRoute('/app/nowhere', { session: SIGNED_IN });
    expect(
      await screen.findByText('Oops! Error: 404 This page does not exist!'),
    ).toBeInTheDocument();
  });
});

describe('the error screen', () => {
  function Broken(): never {
    throw new Error('Loading chunk wallet failed.');
  }

  test('a screen that fails shows the error, and moving to another path recovers', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const navigation = createNavigation();
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <NavigationBridge navigation={navigation} />
        <Routes>
          <Route element={<RouteErrorBoundary />}>
            <Route path="/broken" element={<Broken />} />
            <Route path="/fine" element={<p>Fine again</p>} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    expect(
      await screen.findByRole('heading', { name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Loading chunk wallet failed.')).toBeInTheDocument();
    act(() => navigation.navigate('/fine'));
    expect(await screen.findByText('Fine again')).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
    error.mockRestore();
  });
});
