import { screen } from '@testing-library/react';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

// Both screens are static: msw fails any call they would make (onUnhandledRequest: 'error').
jest.setTimeout(15_000);

test('support: the four ticket counts at 0, Raise Ticket, a conversation and a message box', async () => {
  renderRoute('/app/support', { session: SIGNED_IN });
  await screen.findByRole('heading', { name: 'Support' }, { timeout: 10_000 });
  for (const label of ['New', 'Open', 'Close', 'Re-open']) {
    expect(screen.getByLabelText(`${label} tickets`)).toHaveTextContent('0');
  }
  expect(screen.getByRole('button', { name: 'Raise Ticket' })).toBeInTheDocument();
  expect(screen.getAllByText('Deposit not credited').length).toBeGreaterThan(0);
  expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
});

test('usages: an empty placeholder', async () => {
  renderRoute('/app/usages', { session: SIGNED_IN });
  expect(
    await screen.findByRole('heading', { name: 'Usages' }, { timeout: 10_000 }),
  ).toBeInTheDocument();
  expect(screen.getByText('Nothing to show here yet.')).toBeInTheDocument();
});
