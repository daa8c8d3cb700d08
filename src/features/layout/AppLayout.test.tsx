import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import moment from 'moment';
import { makeApp } from '../../../test/factories/apps';
import { makeProfile } from '../../../test/factories/auth';
import { makeEvent, makeNotifications } from '../../../test/factories/notifications';
import { delay } from 'msw';
import { ok, on } from '../../../test/msw/contract';
import { server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import { NOTIFICATIONS_POLL_MS } from './components/NotificationsPanel';

// Rendering the lazy routes is slow on a shared machine.
jest.setTimeout(15_000);

// The signed-in shell around /app/usages (a screen that makes no calls of its own).

const APPS = [
  makeApp({ id: 'app_1', app_name: 'Shop Checkout' }),
  makeApp({ id: 'app_2', app_name: 'Game Payouts' }),
];

/** Renders and waits for the lazy layout chunk (slow on a busy machine). */
async function renderLayout(session = {}) {
  const user = userEvent.setup();
  const view = renderRoute('/app/usages', {
    session: { ...SIGNED_IN, profile: makeProfile(), apps: APPS, ...session },
  });
  await screen.findByRole('heading', { name: 'Usages' }, { timeout: 10_000 });
  return { user, ...view };
}

/** A viewport narrower or wider than the signed-in theme's 600 px breakpoint. */
function setViewport(width: number) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: /min-width:\s*600px/.test(query) ? width >= 600 : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
    }),
  });
}

afterEach(() => {
  Reflect.deleteProperty(window, 'matchMedia');
});

/** The tab shown or hidden, as the browser tells the page (RTK Query listens). */
function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  window.dispatchEvent(new Event('visibilitychange'));
}

describe('header', () => {
  test('the logo goes to the dashboard; the avatar shows two upper-case letters without a picture', async () => {
    await renderLayout();
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('link', { name: 'CryptoSafeLock home' })).toHaveAttribute(
      'href',
      '/app/dashboard',
    );
    const settings = within(header).getByRole('button', { name: 'Settings' });
    expect(settings.querySelector('.avatar')).toHaveTextContent(/^DM$/);
  });

  test('the avatar shows the picture when one is set', async () => {
    await renderLayout({ avatar: 'abc123.png' });
    const header = await screen.findByRole('banner');
    // Decorative inside the button named "Settings" (its alt would not match that name).
    const image = within(header).getByRole('button', { name: 'Settings' }).querySelector('img');
    expect(image).toHaveAttribute('src', 'http://localhost/api/images/abc123.png');
  });

  test('settings panel: Download, Language and Currency USD($); the language list', async () => {
    const { user } = await renderLayout();
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(screen.getByText('Download')).toBeInTheDocument();
    expect(screen.getByText('USD($)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Language/ }));
    const list = screen.getByRole('region', { name: 'Language' });
    const languages = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(languages).toEqual([
      'English',
      'Russian',
      'Japanese',
      'Spanish (International)',
      'Vietnamese',
      'Turkish',
      'French',
      'Italian',
    ]);
    expect(within(list).getByRole('button', { name: 'English' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await user.click(within(list).getByRole('button', { name: 'Japanese' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Language' })).toBeNull());
    // The whole shell changes at once, without a reload, and the choice is kept.
    expect(await screen.findByRole('navigation', { name: 'メインメニュー' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '購入履歴' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ja');
    expect(localStorage.getItem('portal.language')).toBe('ja');
    await user.click(screen.getByRole('button', { name: '設定' }));
    await user.click(screen.getByRole('button', { name: /^言語/ }));
    expect(
      within(screen.getByRole('region', { name: '言語' })).getByRole('button', { name: '日本語' }),
    ).toHaveAttribute('aria-current', 'true');
  });

  test('notifications: a new account has none, and no badge', async () => {
    const { user } = await renderLayout();
    const bell = await screen.findByRole('button', { name: 'Notifications (0 unread)' });
    expect(bell.querySelector('.header-icon-button__badge')).toBeNull();
    await user.click(bell);
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
    expect(screen.queryByText('Account Login')).toBeNull();
  });

  test('notifications: the badge reads the events again every minute while the tab is in view, not while it is hidden', async () => {
    let reads = 0;
    let events = [makeEvent({ id: 'evt_1', read: true })];
    server.use(
      on('listNotifications', () => {
        reads += 1;
        return ok('listNotifications', makeNotifications(events));
      }),
    );
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await renderLayout();
      await screen.findByRole('button', { name: 'Notifications (0 unread)' });
      const first = reads;
      // The account archive the job was preparing is ready.
      events = [
        makeEvent({ id: 'evt_2', kind: 'archive_ready', title: 'Account archive ready' }),
        ...events,
      ];
      await act(() => jest.advanceTimersByTimeAsync(NOTIFICATIONS_POLL_MS));
      expect(
        await screen.findByRole('button', { name: 'Notifications (1 unread)' }),
      ).toBeInTheDocument();
      expect(reads).toBe(first + 1);

      setVisibility('hidden');
      await act(() => jest.advanceTimersByTimeAsync(3 * NOTIFICATIONS_POLL_MS));
      expect(reads).toBe(first + 1);
    } finally {
      setVisibility('visible');
      jest.useRealTimers();
    }
  });

  test('notifications: a slow answer shows the loading indicator, then the list', async () => {
    server.use(
      on('listNotifications', async () => {
        await delay(800);
        return ok('listNotifications', makeNotifications([makeEvent({ id: 'evt_1' })]));
      }),
    );
    const { user } = await renderLayout();
    await user.click(await screen.findByRole('button', { name: /^Notifications/ }));
    expect(
      await screen.findByRole('status', { name: 'Loading the notifications' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Account Login')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading the notifications' })).toBeNull();
  });

  test('notifications: real events under Today, Yesterday and Earlier; the badge counts unread; Read All marks them read and goes to /', async () => {
    const day = moment().startOf('day');
    const events = [
      makeEvent({ id: 'evt_4', created_at: day.clone().add(2, 'minutes').toISOString() }),
      makeEvent({
        id: 'evt_3',
        kind: 'api_key_created',
        title: 'New API Key',
        text: "The API key 'Till' was created for Shop Checkout from 203.0.113.9.",
        created_at: day.clone().add(1, 'minute').toISOString(),
      }),
      makeEvent({
        id: 'evt_2',
        text: 'A login to your account from Android 14 using Chrome, address 198.51.100.7.',
        created_at: day.clone().subtract(12, 'hours').toISOString(),
      }),
      makeEvent({
        id: 'evt_1',
        read: true,
        text: 'A login to your account from macOS using Safari, address 203.0.113.9.',
        created_at: day.clone().subtract(3, 'days').toISOString(),
      }),
    ];
    let marked: string | null = null;
    server.use(
      on('listNotifications', () =>
        ok(
          'listNotifications',
          makeNotifications(marked ? events.map((e) => ({ ...e, read: true })) : events),
        ),
      ),
      on('markNotificationsRead', ({ request }) => {
        marked = new URL(request.url).searchParams.get('until');
        return ok('markNotificationsRead', { status: true, marked: 3 });
      }),
    );
    const { user, navigation } = await renderLayout();
    const bell = await screen.findByRole(
      'button',
      { name: 'Notifications (3 unread)' },
      { timeout: 5_000 },
    );
    expect(bell).toHaveTextContent('3');
    await user.click(bell);
    const today = await screen.findByRole('region', { name: 'Today' });
    const yesterday = screen.getByRole('region', { name: 'Yesterday' });
    const earlier = screen.getByRole('region', { name: 'Earlier' });
    expect(
      within(today)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(
        /^Unread: Account Login.*Windows 10 using Chrome, address 203\.0\.113\.9\.$/,
      ),
      expect.stringMatching(/^Unread: New API Key.*'Till' was created for Shop Checkout/),
    ]);
    expect(within(yesterday).getByText('Account Login')).toBeInTheDocument();
    expect(within(yesterday).getByText(/Android 14 using Chrome/)).toBeInTheDocument();
    // A read entry has no "Unread" mark.
    expect(within(earlier).getByRole('listitem')).toHaveTextContent(/^Account Login/);
    expect(within(earlier).getByText(/macOS using Safari/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Read All' }));
    // `/` sends a signed-in user on to the dashboard.
    await waitFor(() => expect(navigation.pathname).toBe('/app/dashboard'), {
      timeout: 5_000,
    });
    expect(marked).toBe('evt_4');
    expect(
      await screen.findByRole('button', { name: 'Notifications (0 unread)' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  });
});

describe('sidebar', () => {
  test('every link of the spec, one entry per app, and Logout', async () => {
    await renderLayout();
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Home', '/app/dashboard'],
      ['Identity Verification', '/app/kyc'],
      ['Profile', '/app/profile'],
      ['Authentication', '/app/authentication'],
      ['Change Password', '/app/changepassword'],
      ['Packages', '/app/subscriptions'],
      ['Purchase History', '/app/history'],
      ['Wallet', '/app/wallet'],
      ['Shop Checkout', '/app/my-app/app_1'],
      ['Game Payouts', '/app/my-app/app_2'],
      ['Create New App', '/app/create-app'],
    ]);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  test('the Subscriptions and Apps groups collapse and expand', async () => {
    const { user } = await renderLayout();
    const apps = await screen.findByRole('button', { name: 'Apps' });
    expect(apps).toHaveAttribute('aria-expanded', 'true');
    const region = document.getElementById(apps.getAttribute('aria-controls') ?? '');
    expect(region).toHaveClass('show');
    expect(
      within(region as HTMLElement).getByRole('link', { name: 'Shop Checkout' }),
    ).toBeInTheDocument();
    await user.click(apps);
    expect(apps).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(region).not.toHaveClass('show'));
    await user.click(apps);
    expect(apps).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(region).toHaveClass('show'));
    const subscriptions = screen.getByRole('button', { name: 'Subscriptions' });
    await user.click(subscriptions);
    expect(subscriptions).toHaveAttribute('aria-expanded', 'false');
  });

  test('the balance: 2 decimals with the currency prefix, shown at first, the eye masks it', async () => {
    server.use(
      on('getBalance', () => ok('getBalance', { status: true, data: { payInBalance: 1234.5 } })),
    );
    const { user } = await renderLayout({ currency_type: '€' });
    const card = await screen.findByRole('region', { name: 'Wallet balance' });
    expect(await within(card).findByText('€1234.50')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Hide balance' }));
    expect(within(card).queryByText('€1234.50')).toBeNull();
    expect(within(card).getByText('******')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Show balance' }));
    expect(within(card).getByText('€1234.50')).toBeInTheDocument();
  });

  test('without a stored currency symbol the balance uses $', async () => {
    await renderLayout({ currency_type: '' });
    const card = await screen.findByRole('region', { name: 'Wallet balance' });
    expect(await within(card).findByText('$125.50')).toBeInTheDocument();
  });
});

describe('drawer', () => {
  test('from 600 px the sidebar is permanent and there is no menu button', async () => {
    setViewport(1440);
    await renderLayout();
    expect(await screen.findByRole('navigation', { name: 'Main menu' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
  });

  test('below 600 px the menu button opens a temporary drawer that a link closes', async () => {
    setViewport(375);
    const { user, navigation } = await renderLayout();
    await screen.findByRole('banner');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).toBeNull();
    const menu = screen.getByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    // The button says the drawer it controls is open.
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toHaveAttribute('aria-controls', drawer.id);
    await user.click(within(drawer).getByRole('link', { name: 'Profile' }));
    await waitFor(() => expect(navigation.pathname).toBe('/app/profile'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  test('a toggle is ignored while the drawer is still closing', async () => {
    setViewport(375);
    const { user } = await renderLayout();
    const menu = await screen.findByRole('button', { name: 'Open menu' });
    await user.click(menu);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    // Close, and toggle again at once, before the closing transition has ended.
    act(() => {
      within(drawer).getByRole('button', { name: 'Close menu' }).click();
      menu.click();
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
    // Once closed, the toggle works again.
    await user.click(menu);
    expect(await screen.findByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
  });
});

describe('keyboard', () => {
  test('the first Tab stop is a skip link that moves focus to the page content', async () => {
    setViewport(1440);
    const { user } = await renderLayout();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    const main = screen.getByRole('main');
    expect(main).toHaveAttribute('id', 'main');
    // jsdom does not follow in-page links: what the browser does, focusing the target, must work.
    main.focus();
    expect(main).toHaveFocus();
    expect(within(main).getByRole('heading', { name: 'Usages' })).toBeInTheDocument();
  });
});
