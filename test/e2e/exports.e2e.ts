import fs from 'node:fs';
import AdmZip from 'adm-zip';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { freshServer } from './server';

// Download CSV on the Receive list: the file the browser saves holds the rows the list shows,
// in its order, every one of them (not one page), with exact amounts and the token apart.
// Download in the settings panel: the archive of the whole account, offered by the bell once
// ready, holds the profile and every list's CSV, the account's and each app's.

jest.setTimeout(180_000);

freshServer();
freshBrowser();

test("the merchant downloads the Receive list as CSV and finds the list's rows in it", async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await snap(page, 'exports-receive');

  // The list's first page: client id and amount ('241.5344 USDT') of each row.
  const shown = await page
    .locator('table tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((td) => td.innerText)),
    );
  expect(shown).toHaveLength(10);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('deposits-v1.csv');
  const file = await download.path();
  const records = parse(fs.readFileSync(file, 'utf8')) as string[][];
  const [header, ...rows] = records;
  expect(header?.slice(0, 9)).toEqual([
    'id',
    'created_at',
    'unique_id',
    'method',
    'asset',
    'network',
    'chain_id',
    'amount',
    'status',
  ]);
  // Every row of the list (21), not only its first page, newest first as the list.
  expect(rows).toHaveLength(21);
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const firstPage = rows.slice(0, 10).map((row) => {
    const amount = row[column('amount')] ?? '';
    const [whole = '', fraction = ''] = amount.split('.');
    return [
      row[column('unique_id')],
      row[column('network')],
      `${whole}.${fraction.padEnd(4, '0').slice(0, 4)} ${row[column('asset')] ?? ''}`,
    ];
  });
  expect(firstPage).toEqual(shown);
  for (const row of rows) {
    expect(row[column('amount')]).toMatch(/^\d+(\.\d+)?$/);
    expect(row[column('created_at')]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
  }
  await context.close();
});

test('Download CSV on a phone', async () => {
  const { context, page } = await openPage(PHONE);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await page.getByRole('button', { name: 'Download CSV' }).waitFor();
  await snap(page, 'exports-receive-phone');
  await context.close();
});

/**
 * Opens the bell until its entries include the ready archive (the job writes it in the
 * background; the panel asks the server again each time it opens); answers the entry.
 */
async function openReadyArchive(page: Page): Promise<Locator> {
  const bell = page.getByRole('button', { name: /^Notifications \(/ });
  const panel = page.locator('.notifications-panel');
  const ready = panel.getByRole('listitem').filter({ hasText: 'Account Archive Ready' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    await bell.click();
    await panel.getByRole('button', { name: 'Read All' }).waitFor();
    try {
      await ready.waitFor({ timeout: 3_000 });
      return ready;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    // Closed, to open it again.
    await bell.click();
    await panel.waitFor({ state: 'hidden' });
  }
}

test('the merchant downloads the archive of the whole account and finds the lists in it', async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });

  // What the portal shows: the Receive list's count and the invoices of the Invoices tab.
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await page.goto('/app/my-app/app_demo_store/invoices');
  await page.getByText('Showing 1 to 10 of 10 results').waitFor();
  const invoiceButtons = page.getByRole('button', { name: /^Invoice inv_/ });
  await invoiceButtons.first().waitFor();
  // Each shows its id's start; its title (the tooltip) is the whole id.
  const invoiceIds = await invoiceButtons.evaluateAll((buttons) =>
    buttons.map((button) => button.getAttribute('title') ?? ''),
  );
  expect(invoiceIds.length).toBeGreaterThan(0);

  // Asked for on Home; the toast says where the archive will be, and is closed.
  await page.goto('/app/dashboard');
  // Home's Recent Activity: the wallet's ledger (the four entries its balance adds up).
  const activity = page.getByRole('table').filter({ has: page.getByText('Transaction Id') });
  await activity.locator('tbody tr').first().waitFor();
  const activityNotes = await activity
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[4]?.innerText ?? ''));
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('.settings-panel').getByRole('button', { name: 'Download' }).click();
  const toast = page.locator('.Toastify__toast').filter({
    hasText:
      'Your archive is being prepared. It will appear in your notifications when it is ready.',
  });
  await toast.waitFor();
  await toast.getByRole('button', { name: 'close' }).click();
  await toast.waitFor({ state: 'detached' });

  const entry = await openReadyArchive(page);
  await entry
    .getByText('The archive of your account is ready: download it within a day.')
    .waitFor();
  await snap(page, 'exports-archive-ready-desktop');
  await page.setViewportSize(PHONE);
  await entry.getByRole('button', { name: 'Download the archive' }).waitFor();
  await snap(page, 'exports-archive-ready-phone');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    entry.getByRole('button', { name: 'Download the archive' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^account-\d{4}-\d\d-\d\d\.zip$/);
  const zip = new AdmZip(await download.path());
  const names = zip.getEntries().map((file) => file.entryName);
  const app = 'apps/app_demo_store/';
  expect(names).toEqual(
    expect.arrayContaining([
      'profile.json',
      'ledger-v1.csv',
      'top_ups-v1.csv',
      'subscriptions-v1.csv',
      `${app}deposits-v1.csv`,
      `${app}withdrawals-v1.csv`,
      `${app}invoices-v1.csv`,
    ]),
  );
  const profile = JSON.parse(zip.readAsText('profile.json')) as {
    profile: { username: string };
    apps: { id: string; folder: string }[];
  };
  expect(profile.profile.username).toBe(DEMO.username);
  expect(profile.apps).toContainEqual(
    expect.objectContaining({ id: 'app_demo_store', folder: app }),
  );
  const csv = (name: string) => {
    const [header = [], ...rows] = parse(zip.readAsText(name)) as string[][];
    return rows.map((row) => Object.fromEntries(header.map((column, i) => [column, row[i]])));
  };
  // Every deposit of the Receive list (21), the invoices the Invoices tab shows (all of them).
  expect(csv(`${app}deposits-v1.csv`)).toHaveLength(21);
  const invoices = csv(`${app}invoices-v1.csv`).map((row) => row.id);
  expect(invoices.sort()).toEqual([...invoiceIds].sort());
  // The account's own lists: the wallet's ledger as Home shows it, and the plan bought from it.
  const ledger = csv('ledger-v1.csv');
  expect(ledger.map((row) => row.note).sort()).toEqual([...activityNotes].sort());
  expect(ledger).toContainEqual(
    expect.objectContaining({ type: 'debit', note: 'Starter plan, 30 days' }),
  );
  expect(csv('subscriptions-v1.csv')).toHaveLength(1);
  await context.close();
});
