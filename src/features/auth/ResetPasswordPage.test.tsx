import { screen } from '@testing-library/react';
import { renderRoute } from '../../../test/renderWithProviders';

describe('ResetPasswordPage', () => {
  test('is the non-functional screen of the spec, at /Reset too', async () => {
    renderRoute('/Reset');
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByText('Enter Username for changing account password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login');
  });
});
