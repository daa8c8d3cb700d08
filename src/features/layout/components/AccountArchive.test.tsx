import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ARCHIVE_ID,
  makeArchiveLink,
  makeArchiveRequested,
} from '../../../../test/factories/archives';
import { makeEvent, makeNotifications } from '../../../../test/factories/notifications';
import { accepted, fail, ok, on } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderWithProviders, SIGNED_IN } from '../../../../test/renderWithProviders';
import { NotificationsPanel } from './NotificationsPanel';
import { SettingsPanel } from './SettingsPanel';

// The avatar menu's Download: the archive of the whole account is asked for, prepared in the
// background, and offered by its notification when ready.

const PREPARING =
  'Your archive is being prepared. It will appear in your notifications when it is ready.';
const FILE_URL = '/api/account/archives/download?token=arc_abc.def';

const readyEvent = makeEvent({
  id: 'evt_archive',
  kind: 'archive_ready',
  title: 'Account Archive Ready',
  text: 'The archive of your account is ready: download it within a day.',
  ip: null,
  device: null,
  archive_id: ARCHIVE_ID,
});

/** Records the links the page has the browser follow, following none. */
function followedLinks() {
  const followed: string[] = [];
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    followed.push(this.getAttribute('href') ?? '');
  });
  return { followed, restore: () => click.mockRestore() };
}

describe('account archive', () => {
  test('Download asks for the archive and says it will appear in the notifications, once', async () => {
    let asked = 0;
    server.use(
      on('requestAccountArchive', () => {
        asked += 1;
        // The server answers the archive under way however often it is asked.
        return accepted('requestAccountArchive', makeArchiveRequested());
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<SettingsPanel />, { session: SIGNED_IN });
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(await screen.findByText(PREPARING)).toBeInTheDocument();
    // The panel closes; asking again keeps one toast (and the server one archive).
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Settings' })).toHaveAttribute(
        'aria-expanded',
        'false',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(asked).toBe(2));
    expect(screen.getAllByText(PREPARING)).toHaveLength(1);
  });

  test("a ready archive's notification downloads it through a fresh link", async () => {
    let linked: unknown;
    server.use(
      on('listNotifications', () => ok('listNotifications', makeNotifications([readyEvent]))),
      on('createArchiveLink', ({ params }) => {
        linked = params.id;
        return ok('createArchiveLink', makeArchiveLink(FILE_URL));
      }),
    );
    const links = followedLinks();
    const user = userEvent.setup();
    renderWithProviders(<NotificationsPanel />, { session: SIGNED_IN });
    await user.click(await screen.findByRole('button', { name: 'Notifications (1 unread)' }));
    expect(await screen.findByText('Account Archive Ready')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download the archive' }));
    await waitFor(() => expect(links.followed).toEqual([FILE_URL]));
    expect(linked).toBe(ARCHIVE_ID);
    links.restore();
  });

  test('an archive past its day says so and follows nothing', async () => {
    const expired = 'This archive has expired: use Download again for a new one.';
    server.use(
      on('listNotifications', () => ok('listNotifications', makeNotifications([readyEvent]))),
      on('createArchiveLink', () => fail('createArchiveLink', 410, expired)),
    );
    const links = followedLinks();
    const user = userEvent.setup();
    renderWithProviders(<NotificationsPanel />, { session: SIGNED_IN });
    await user.click(await screen.findByRole('button', { name: 'Notifications (1 unread)' }));
    await user.click(await screen.findByRole('button', { name: 'Download the archive' }));
    expect(await screen.findByText(expired)).toBeInTheDocument();
    expect(links.followed).toEqual([]);
    links.restore();
  });
});
