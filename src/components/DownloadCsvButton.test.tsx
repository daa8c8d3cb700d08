import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, on } from '../../test/msw/contract';
import { server } from '../../test/msw/server';
import { renderWithProviders, SIGNED_IN } from '../../test/renderWithProviders';
import { DownloadCsvButton } from './DownloadCsvButton';

const URL_OF_FILE = '/api/cryptosafelock/exports/download?token=exp_abc.def';

describe('DownloadCsvButton', () => {
  test("asks for a link to the list's file with its app and filters, then follows it", async () => {
    const followed: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push(`${this.getAttribute('href')} ${String(this.hasAttribute('download'))}`);
    });
    let asked: unknown;
    server.use(
      on('createExportLink', async ({ request, params }) => {
        asked = { kind: params.kind, body: await request.json() };
        return ok('createExportLink', {
          status: true,
          data: { url: URL_OF_FILE, expires_at: '2026-11-01T09:01:00.000Z' },
        });
      }),
    );
    renderWithProviders(
      <DownloadCsvButton
        kind="invoices"
        appId="app_1"
        filters={{ from: '2026-11-01T00:00:00.000Z' }}
      />,
      { session: SIGNED_IN },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(followed).toEqual([`${URL_OF_FILE} true`]));
    expect(asked).toEqual({
      kind: 'invoices',
      body: { app_id: 'app_1', from: '2026-11-01T00:00:00.000Z' },
    });
    click.mockRestore();
  });

  test('follows nothing when the link is refused (the refusal is toasted)', async () => {
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click');
    server.use(on('createExportLink', () => fail('createExportLink', 404, 'Record not found.')));
    renderWithProviders(<DownloadCsvButton kind="ledger" />, { session: SIGNED_IN });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Record not found.')).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
    click.mockRestore();
  });
});
