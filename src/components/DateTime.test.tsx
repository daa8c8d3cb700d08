import { act, render, screen } from '@testing-library/react';
import { changeLanguage } from '../i18n/language';
import { DateTime } from './DateTime';

test('a date on screen follows a change of language at once, in that language', async () => {
  render(<DateTime value="2026-11-29T14:05:00.000Z" />);
  expect(screen.getByRole('time')).toHaveTextContent(/^November 29, 2026/);
  await act(() => changeLanguage('ja'));
  expect(screen.getByRole('time')).toHaveTextContent(/^2026年11月29日/);
});
