import { screen, waitFor } from '@testing-library/react';
import { renderRoute, SIGNED_IN } from '../../test/renderWithProviders';

describe('routing', () => {
  test('/ sends a visitor to /login', async () => {
    const { router } = renderRoute('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  test('/ sends a signed-in user to the dashboard, and so does /login', async () => {
    const { router } = renderRoute('/', { session: SIGNED_IN });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    await router.navigate('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
  });

  test('a protected route without a token logs an error and goes to /login', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderRoute('/app/wallet');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
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
