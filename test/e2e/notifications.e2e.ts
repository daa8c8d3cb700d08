import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { registerMerchant, signIn } from './journeys';
import { freshServer } from './server';

// The header bell lists the account's real events: a sign-in from a second browser shows in the
// first browser's bell, and the dashboard of the second names the sign-in before its own.

const server = freshServer();
freshBrowser();

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** The mails sent to `email` (the server writes them to DATA_DIR/outbox), oldest first. */
function mailsTo(email: string): { subject: string; text: string }[] {
  const dir = path.join(server.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map(
      (name) =>
        JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
          to: string;
          subject: string;
          text: string;
        },
    )
    .filter((mail) => mail.to === email);
}

const bellOf = (page: Page) => page.getByRole('button', { name: /^Notifications \(/ });

/** Opens the bell's panel and answers it once its entries have arrived. */
async function openBell(page: Page) {
  await bellOf(page).click();
  const panel = page.locator('.notifications-panel');
  await panel.getByRole('button', { name: 'Read All' }).waitFor();
  return panel;
}

test('a sign-in from a second browser appears in the first browser’s bell', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const credentials = { ...merchant, code: merchant.pin };

  // First browser: its own sign-in is the one entry, unread; Read All marks it and goes to /.
  const first = await openPage(DESKTOP);
  await signIn(first.page, credentials);
  await first.page.getByText('Last login: ----').waitFor();
  await first.page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor();
  let panel = await openBell(first.page);
  const today = panel.getByRole('region', { name: 'Today' });
  await today.getByText('Account Login').waitFor();
  await today.getByText(/A login to your account from Linux using Chrome, address/).waitFor();
  await panel.getByRole('button', { name: 'Read All' }).click();
  await first.page.waitForURL('**/app/dashboard');
  await first.page.getByRole('button', { name: 'Notifications (0 unread)' }).waitFor();

  // Second browser, another device: its dashboard names the first sign-in as the last login.
  const second = await openPage(PHONE, ANDROID_CHROME);
  await signIn(second.page, credentials);
  await second.page.getByText(/^Last login: .+ from \S+ \(Chrome on Linux\)$/).waitFor();

  // The first browser's bell shows it when opened, unread, above the read one.
  panel = await openBell(first.page);
  const entries = panel.getByRole('region', { name: 'Today' }).getByRole('listitem');
  await entries
    .first()
    .getByText(/A login to your account from Android 14 using Chrome, address/)
    .waitFor();
  expect(await entries.count()).toBe(2);
  expect(await entries.first().textContent()).toMatch(/^Unread: Account Login/);
  await first.page.getByRole('button', { name: 'Notifications (1 unread)' }).waitFor();
  await snap(first.page, 'notifications-bell-desktop');

  // The phone's dashboard and its own bell, at 375 px, once the sign-in toasts have gone.
  await second.page.waitForFunction(() => !document.querySelector('.Toastify__toast'), null, {
    timeout: 20_000,
  });
  await snap(second.page, 'dashboard-last-login-phone');
  await openBell(second.page);
  await snap(second.page, 'notifications-bell-phone');

  // The new device was e-mailed.
  const mails = mailsTo(`${merchant.username}@example.com`);
  expect(mails.map((mail) => mail.subject)).toEqual(['New sign-in to your CryptoSafeLock account']);
  expect(mails[0]?.text).toContain('Chrome on Android 14');

  await first.context.close();
  await second.context.close();
});
