import { screen, within } from '@testing-library/react';
import moment from 'moment';
import { makeApp } from '../../../test/factories/apps';
import { ok, on, reply } from '../../../test/msw/contract';
import { server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

jest.setTimeout(15_000);

test('every app as a card: name, info, project URL, created date, Ready / Not Ready, View Details', async () => {
  server.use(
    reply('getApps', {
      status: true,
      data: [
        makeApp({ id: 'a1', app_name: 'Alpha', status: 1, info: 'First app' }),
        makeApp({
          id: 'a2',
          app_name: 'Beta',
          info: null,
          project_url: 'https://beta.example.com',
        }),
        makeApp({ id: 'a3', app_name: 'Gamma' }),
      ],
    }),
  );
  renderRoute('/app/all-app', { session: SIGNED_IN });
  await screen.findByRole('heading', { name: 'All Apps' }, { timeout: 10_000 });
  const cards = await screen.findAllByRole('article');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Alpha', 'Beta', 'Gamma']);
  const alpha = within(cards[0] as HTMLElement);
  expect(alpha.getByText('Ready')).toBeInTheDocument();
  expect(alpha.getByText('First app')).toBeInTheDocument();
  expect(alpha.getByText(moment('2026-11-01T10:30:00Z').format('DD-MM-YYYY'))).toBeInTheDocument();
  expect(alpha.getByRole('link', { name: 'View Details of Alpha' })).toHaveAttribute(
    'href',
    '/app/my-app/a1',
  );
  const beta = within(cards[1] as HTMLElement);
  expect(beta.getByText('Not Ready')).toBeInTheDocument();
  expect(beta.getByText('----')).toBeInTheDocument();
  expect(beta.getByRole('link', { name: 'https://beta.example.com' })).toHaveAttribute(
    'rel',
    'noopener noreferrer',
  );
});

test('no apps: No record Found', async () => {
  server.use(on('getApps', () => ok('getApps', { status: true, data: [] })));
  renderRoute('/app/all-app', { session: SIGNED_IN });
  expect(await screen.findByText('No record Found', {}, { timeout: 10_000 })).toBeInTheDocument();
});
