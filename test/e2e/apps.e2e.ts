import type { Locator, Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, registerMerchant, signIn } from './journeys';
import { freshServer } from './server';

// Apps journeys. Creating an app uses a merchant registered for it through the API (without a
// subscription one app is allowed, and the demo account already has its seeded app); paging
// through data uses the demo account's seeded app.

// Journeys in a real browser take longer than Jest's default 5 s per test.
jest.setTimeout(90_000);

const server = freshServer();
freshBrowser();

/** Waits until a modal's fade has finished, so screenshots show the settled screen. */
async function settledDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await page.locator('.modal.show').waitFor();
  await page.waitForTimeout(350);
  return dialog;
}

async function closeDialog(page: Page, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await page.locator('.modal').waitFor({ state: 'detached' });
}

test('create an app, add a payout address, and manage an API key', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { context, page } = await openPage(DESKTOP);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, { ...merchant, code: merchant.pin });

  await page.goto('/app/create-app');
  await page.getByRole('button', { name: 'Create App' }).click();
  await page.getByText('App Name is required').waitFor();
  await page.getByText('Project Url is required').waitFor();
  await page.getByLabel('App Name').fill('E2E Shop');
  await page.getByLabel('Project URL').fill('shop');
  await page.getByText('Please Enter Valid URl').waitFor();
  await page.getByLabel('Project URL').fill('https://e2e-shop.example.com');
  await page.getByLabel('Discription').fill('Checkout of the end-to-end shop');
  await page.getByLabel('IP Whitelist').fill('203.0.113.10, 198.51.100.7/24');
  await page.getByLabel('Webhook URl').fill('https://e2e-shop.example.com/hooks');
  await snap(page, 'apps-create-desktop');
  await page.getByRole('button', { name: 'Create App' }).click();
  await page.waitForURL(/\/app\/my-app\/app_[0-9a-z]+$/);
  await page.getByRole('heading', { level: 1, name: 'E2E Shop' }).waitFor();
  // The new app is in the sidebar at once.
  await page.getByRole('link', { name: 'E2E Shop' }).first().waitFor();

  // Payment Setting: a bad payout address is refused first, then a good one is saved.
  await page.getByRole('switch', { name: 'Use USDT (BNB Smart Chain)' }).click();
  const payout = await settledDialog(page, 'Enter Payout Address');
  await payout.getByLabel('Payout Address').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
  await payout.getByRole('button', { name: 'Submit' }).click();
  await payout.getByText('Please Enter valid Address').waitFor();
  await snap(page, 'apps-payout-refused-desktop');
  await payout.getByLabel('Payout Address').fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  await payout.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('switch', { name: 'For Deposit' }).waitFor();
  await page.getByRole('button', { name: 'Deposit Wallet' }).click();
  const wallet = await settledDialog(page, 'Deposit Wallet');
  await wallet.getByText('0x5aAeb605...E7Ef1BeAed').waitFor();
  await closeDialog(page, wallet);
  await snap(page, 'apps-payment-setting-desktop');

  // App Keys: generate, see it once, edit its permissions, revoke it.
  await page
    .getByRole('navigation', { name: 'App menu' })
    .getByRole('link', { name: 'App Keys' })
    .click();
  await page.waitForURL('**/app-keys');
  await page.getByLabel('Key Name').fill('Checkout server');
  await page.getByLabel('Create deposit accounts').check();
  await page.getByLabel('Read deposits').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  const key = await keyField.inputValue();
  expect(key).toMatch(/^csl_live_[0-9a-z]{32}$/);
  await page.getByRole('button', { name: 'Copy key' }).click();
  await page.getByText('Key Copied Succefully').waitFor();
  const gateway = `${server.baseUrl}/gateway/v1`;
  expect(await page.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe(gateway);
  expect(await page.getByRole('textbox', { name: 'Example request' }).inputValue()).toBe(
    `curl -H "Authorization: Bearer ${key}" ${gateway}/methods`,
  );
  await snap(page, 'apps-key-once-desktop');

  // The reference opens in a tab of its own, served by the server, and loads nothing from
  // another host.
  const requested: string[] = [];
  context.on('request', (request) => requested.push(request.url()));
  const [docs] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'API reference' }).click(),
  ]);
  await docs.waitForLoadState('networkidle');
  expect(docs.url()).toBe(`${gateway}/docs`);
  await docs
    .getByRole('heading', { name: /CryptoSafeLock gateway API/ })
    .first()
    .waitFor();
  // Search is ready (its trigger says "Loading..." until then).
  await docs
    .getByTestId('search-trigger')
    .getByText(/Search/)
    .waitFor();
  await snap(docs, 'apps-gateway-reference-desktop');
  expect(
    requested.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('data:')),
  ).toEqual([]);
  await docs.close();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await page.getByRole('cell', { name: 'Checkout server', exact: true }).waitFor();
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await page.getByRole('cell', { name: 'Checkout server', exact: true }).waitFor();
  expect(await page.content()).not.toContain(key);

  await page.getByRole('button', { name: 'Edit Permissions of Checkout server' }).click();
  const edit = await settledDialog(page, 'Edit Permissions');
  await edit.getByLabel('Read balances').check();
  await edit.getByLabel('Create deposit accounts').uncheck();
  await snap(page, 'apps-edit-permissions-desktop');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await page.locator('.modal').waitFor({ state: 'detached' });
  await page.getByRole('cell', { name: 'Read deposits, Read balances', exact: true }).waitFor();

  await page.getByRole('button', { name: 'Revoke Checkout server' }).click();
  const revoke = await settledDialog(page, 'Revoke Key');
  await revoke.getByRole('button', { name: 'Yes, Revoke' }).click();
  await page.getByText('No record Found').waitFor();
  await context.close();
});

test('page through the seeded receives and open a details modal', async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  // Four days of payments the watcher credited on the local chain, one below the minimum, and
  // the credits of the five settled invoices.
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await page.getByRole('button', { name: 'Page 2' }).click();
  await page.getByText('Showing 11 to 20 of 21 results').waitFor();
  await page
    .getByRole('button', { name: /^Details of / })
    .first()
    .click();
  const details = await settledDialog(page, 'Transaction Details');
  await details.getByText('Client Id').waitFor();
  await snap(page, 'apps-receive-details-desktop');
  await closeDialog(page, details);

  const menu = page.getByRole('navigation', { name: 'App menu' });
  // IPN Logs hold real deliveries only: a test event to the demo's Webhook URl makes one (its
  // host does not answer here, so it shows as retrying).
  await menu.getByRole('link', { name: 'Merchant Setting' }).click();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Test event / })
    .waitFor();
  for (const tab of ['Payment Setting', 'Usage', 'API Logs', 'Daily Logs', 'IPN Logs']) {
    await menu.getByRole('link', { name: tab }).click();
    await page.getByRole('heading', { level: 2, name: tab }).waitFor();
    await snap(page, `apps-${tab.toLowerCase().replace(' ', '-')}-desktop`);
  }
  await page.getByRole('button', { name: 'View Details' }).first().click();
  const ipn = await settledDialog(page, /test\.ping/);
  await ipn.getByLabel('Log data').waitFor();
  await snap(page, 'apps-ipn-details-desktop');
  await closeDialog(page, ipn);

  // No withdrawals until the withdrawals issue makes real ones.
  await page.goto('/app/my-app/app_demo_store/transaction?view=send');
  await page.getByText('No record Found').waitFor();
  await snap(page, 'apps-send-desktop');
  await context.close();
});

test('the app detail on a phone', async () => {
  const { context, page } = await openPage(PHONE);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store');
  await page.getByRole('switch', { name: 'For Deposit' }).first().waitFor();
  await snap(page, 'apps-payment-setting-phone');
  await page.getByRole('button', { name: 'Operational Wallet' }).first().click();
  const wallet = await settledDialog(page, 'Operational Wallet');
  await wallet.getByRole('link', { name: 'View on Explorer' }).waitFor();
  await snap(page, 'apps-operational-wallet-phone');
  await closeDialog(page, wallet);
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await snap(page, 'apps-receive-phone');
  await page.goto('/app/my-app/app_demo_store/app-keys');
  await page.getByLabel('Example request').waitFor();
  await snap(page, 'apps-keys-phone');
  // The sections are a select on a phone; every list shows its rows as labelled cards.
  const section = page.getByRole('combobox', { name: 'App section' });
  for (const tab of ['Usage', 'API Logs', 'Daily Logs', 'IPN Logs']) {
    await section.selectOption({ label: tab });
    await page.getByRole('heading', { level: 2, name: tab }).waitFor();
    if (tab !== 'Usage') await page.locator('.data-table tbody td').first().waitFor();
    await snap(page, `apps-${tab.toLowerCase().replace(' ', '-')}-phone`);
  }
  // A delivery's title holds its id: it wraps, and the close button stays on screen.
  await page.getByRole('button', { name: 'View Details' }).first().click();
  const ipn = await settledDialog(page, /whd_/);
  const close = await ipn
    .locator('.modal-header')
    .getByRole('button', { name: 'Close' })
    .boundingBox();
  expect(close).not.toBeNull();
  expect((close?.x ?? 0) + (close?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  await snap(page, 'apps-ipn-details-phone');
  await closeDialog(page, ipn);
  await page.goto('/app/create-app');
  await page.getByRole('button', { name: 'Create App' }).waitFor();
  await snap(page, 'apps-create-phone');
  await context.close();
});
