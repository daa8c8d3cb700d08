import { act, screen, waitFor } from '@testing-library/react';
import { renderRoute, SIGNED_IN } from '../../test/renderWithProviders';
import { documentTitle } from './documentTitle';

// Rendering the lazy routes is slow on a shared machine.
jest.setTimeout(15_000);

describe('document title', () => {
  test('every route has its own title', () => {
    const titles = [
      '/',
      '/login',
      '/register',
      '/reset',
      '/app/dashboard',
      '/app/all-app',
      '/app/kyc',
      '/app/profile',
      '/app/history',
      '/app/subscriptions',
      '/app/wallet',
      '/app/authentication',
      '/app/changepassword',
      '/app/usages',
      '/app/support',
      '/app/create-app',
      '/app/my-app/app_1/usage',
      '/nowhere',
    ].map((path) => documentTitle(path));
    expect(new Set(titles).size).toBe(titles.length);
    expect(documentTitle('/app/dashboard')).toBe('Home | CryptoSafeLock Merchant Portal');
    expect(documentTitle('/')).toBe('CryptoSafeLock Merchant Portal');
  });

  test('paths match as the routes do: any case, a trailing slash', () => {
    expect(documentTitle('/Register')).toBe('Sign Up | CryptoSafeLock Merchant Portal');
    expect(documentTitle('/app/wallet/')).toBe('Wallet | CryptoSafeLock Merchant Portal');
    expect(documentTitle('/app/nowhere')).toBe('Page Not Found | CryptoSafeLock Merchant Portal');
  });

  test('the router sets it, and changes it on navigation', async () => {
    const { navigation } = renderRoute('/login');
    await screen.findByRole('heading', { name: 'Sign In' }, { timeout: 10_000 });
    expect(document.title).toBe('Sign In | CryptoSafeLock Merchant Portal');
    act(() => navigation.navigate('/reset'));
    await waitFor(() =>
      expect(document.title).toBe('Reset Password | CryptoSafeLock Merchant Portal'),
    );
  });

  test('a signed-in screen has its name in the title', async () => {
    renderRoute('/app/usages', { session: SIGNED_IN });
    await waitFor(() => expect(document.title).toBe('Usages | CryptoSafeLock Merchant Portal'));
  });
});
