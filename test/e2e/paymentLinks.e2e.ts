import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { admin, freshServer } from './server';

// Payment links end to end: the demo merchant makes a link in the Invoices tab's Payment links
// (the shopper chooses the amount, USDT on BNB Smart Chain), a shopper on a phone opens its URL,
// types an amount and presses Pay, lands on the invoice's checkout page, pays it on the local
// chain (`admin chain transfer`, as a wallet would) and sees Paid; back in the portal the link
// shows its paid invoice and the amount in its totals, without a reload. Posting the same visit
// again makes no second invoice.

jest.setTimeout(240_000);

const server = freshServer();
freshBrowser();

/** Longest wait for something the server does by itself (a poll of the chain, a list's poll). */
const WAIT_MS = 40_000;
const LINKS = '/app/my-app/app_demo_store/invoices?view=links';

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: WAIT_MS });

/** The link's details' totals, once they read `text`. */
const totalsSay = (page: Page, text: RegExp) =>
  page.getByLabel('Totals').filter({ hasText: text }).waitFor({ timeout: WAIT_MS });

test('a link made in the portal, paid by a shopper on a phone, counted in its totals', async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/invoices');
  await page
    .getByRole('navigation', { name: 'Invoices, payment links and refunds' })
    .getByRole('link', { name: 'Payment links' })
    .click();
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const create = page.getByRole('dialog', { name: 'Create payment link' });
  await create.getByLabel('Title').fill('Tip jar');
  await create.getByLabel('Description').fill('Thank you for the coffee');
  await create.getByLabel('Shopper chooses').check();
  await create.getByLabel('Minimum amount').fill('1');
  await create.getByLabel('Maximum amount').fill('100');
  await create.getByLabel('Currency').selectOption('USD');
  await create.getByLabel('USDT (BNB Smart Chain)').check();
  await snap(page, 'payment-links-create-desktop');
  await create.getByRole('button', { name: 'Create payment link' }).click();
  const url = await create.getByRole('textbox', { name: 'Payment link' }).inputValue();
  expect(url).toMatch(new RegExp(`^${server.baseUrl}/l/[a-z0-9]{16}$`));
  await create.getByRole('button', { name: 'View payment link' }).click();
  await page.getByRole('heading', { name: 'Tip jar' }).waitFor();
  await totalsSay(page, /Invoices0/);
  const linkPath = `${new URL(page.url()).pathname}${new URL(page.url()).search}`;

  // The shopper, on a phone: the link's page, an amount, Pay, the checkout page.
  const shopper = await openPage(PHONE);
  await shopper.page.goto(new URL(url).pathname);
  await heading(shopper.page, 'Tip jar');
  await snap(shopper.page, 'payment-link-page-phone');
  await shopper.page.getByLabel('Amount to pay, in USD').fill('12.5');
  const visit = await shopper.page.locator('input[name="visit"]').inputValue();
  await shopper.page.getByRole('button', { name: 'Pay' }).click();
  await shopper.page.waitForURL(/\/pay\/inv_[0-9a-z]+$/);
  const checkoutPath = new URL(shopper.page.url()).pathname;
  await heading(shopper.page, 'Pay 12.5 USDT');
  const address = (await shopper.page.locator('code.address').first().textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // The same visit posted again (a reload of the POST's answer): the same invoice, no second.
  const again = await fetch(`${server.baseUrl}${new URL(url).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ amount: '12.5', visit }).toString(),
    redirect: 'manual',
  });
  expect(again.status).toBe(303);
  expect(again.headers.get('location')).toBe(checkoutPath);
  await shopper.page.reload();
  await heading(shopper.page, 'Pay 12.5 USDT');

  admin(server.dataDir, 'chain', 'transfer', address, '12.5', 'USDT-BEP20');
  await heading(shopper.page, 'Payment received, confirming');
  admin(server.dataDir, 'chain', 'mine', '15');
  await heading(shopper.page, 'Paid');
  await snap(shopper.page, 'payment-link-paid-phone');
  await shopper.context.close();

  // Back in the portal, without a reload: one invoice, paid, and its amount in the totals.
  await totalsSay(page, /Paid invoices1/);
  await totalsSay(page, /Invoices1Paid/);
  await totalsSay(page, /Amount paid12\.50 USD/);
  await totalsSay(page, /Uses1$/);
  const invoices = page.getByRole('table', { name: 'Payment link invoices' });
  await invoices.getByText('Settled', { exact: true }).waitFor({ timeout: WAIT_MS });
  expect(await invoices.getByRole('row').count()).toBe(2); // the header and the one invoice
  await snap(page, 'payment-link-details-desktop');

  // The list says the same.
  await page.getByRole('button', { name: 'Back to Payment links' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Tip jar' });
  await row.getByText('12.50 USD').waitFor({ timeout: WAIT_MS });
  await row.getByText('from 1 to 100 USD').waitFor();
  await row.getByText('Active', { exact: true }).waitFor();
  await snap(page, 'payment-links-list-desktop');
  // The link's page at desktop width.
  await page.goto(new URL(url).pathname);
  await heading(page, 'Tip jar');
  await snap(page, 'payment-link-page-desktop');
  await context.close();

  // The merchant on a phone: the list and the details fit.
  const phone = await openPage(PHONE);
  await signIn(phone.page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await phone.page.goto(LINKS);
  await phone.page.getByRole('button', { name: 'Tip jar' }).waitFor();
  await snap(phone.page, 'payment-links-list-phone');
  await phone.page.getByRole('button', { name: 'Create payment link' }).click();
  const phoneCreate = phone.page.getByRole('dialog', { name: 'Create payment link' });
  await phoneCreate.getByLabel('Shopper chooses').check();
  await snap(phone.page, 'payment-links-create-phone');
  await phoneCreate.getByRole('button', { name: 'Cancel' }).click();
  await phoneCreate.waitFor({ state: 'hidden' });
  await phone.page.goto(linkPath);
  await totalsSay(phone.page, /Amount paid12\.50 USD/);
  await snap(phone.page, 'payment-link-details-phone');
  await phone.context.close();
});
