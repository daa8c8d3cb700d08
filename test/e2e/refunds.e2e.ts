import type { Locator, Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { buyStarterPlan, createAppWithUsdt, registerMerchant, signIn } from './journeys';
import { admin, freshServer } from './server';
import { Receiver } from './webhookReceiver';

// A refund end to end: a merchant's invoice, overpaid on the local chain and settled, refunded
// from the portal's invoice details (the overpaid part, previewed, confirmed, a claim link to
// copy); the shopper opens the claim link on a phone, enters their address and confirms; the
// signer sends it from the operational wallet the merchant funded, and the invoice's details show
// it completed without a reload, while the merchant's endpoint on loopback receives the refund's
// events, each verified with the independent `standardwebhooks` package.

jest.setTimeout(240_000);

const server = freshServer({ WEBHOOK_ALLOW_PRIVATE: '1' }, { signer: true });
freshBrowser();

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SHOPPER = '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF';
/** Longest wait for something the server does by itself (a poll of the chain, a delivery). */
const WAIT_MS = 40_000;

const receiver = new Receiver();
let receiverUrl = '';

beforeAll(async () => {
  receiverUrl = await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

async function openTab(page: Page, tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

async function settledDialog(page: Page, name: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await page.locator('.modal.show').waitFor();
  await page.waitForFunction(() => document.getAnimations().length === 0);
  return dialog;
}

/** The USDT (BNB Smart Chain) operational wallet's address, once the server has made it. */
async function operationalWallet(page: Page): Promise<string> {
  await openTab(page, 'Payment Setting');
  const card = page
    .locator('.payment-method')
    .filter({ has: page.getByRole('heading', { name: 'USDT', exact: true }) })
    .filter({ hasText: 'BNB Smart Chain' });
  const dialog = page.getByRole('dialog', { name: 'Operational Wallet' });
  for (let tries = 0; tries < 20 && !(await dialog.isVisible()); tries += 1) {
    await card.getByRole('button', { name: 'Operational Wallet' }).click();
    await dialog.waitFor({ timeout: 3_000 }).catch(() => undefined);
  }
  const wallet = await settledDialog(page, 'Operational Wallet');
  const address = (await wallet.locator('code').getAttribute('title')) ?? '';
  await wallet.getByRole('button', { name: 'Close' }).first().click();
  await page.locator('.modal').waitFor({ state: 'detached' });
  return address;
}

test('the overpaid part goes back: refunded in the portal, claimed by the shopper, sent and shown', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { page } = await openPage(DESKTOP);
  await signIn(page, { ...merchant, code: merchant.pin });
  await buyStarterPlan(page, server.dataDir, merchant.username);
  await createAppWithUsdt(page, {
    name: 'Refund Shop',
    url: 'https://refund-shop.example.com',
    payout: PAYOUT,
  });

  await openTab(page, 'Merchant Setting');
  await page.getByLabel('Webhook URl').fill(receiverUrl);
  const saved = page.waitForResponse((r) => r.url().endsWith('/cryptosafelock/update-app'));
  await page.getByRole('button', { name: 'Update' }).click();
  expect((await saved).ok()).toBe(true);
  await page.getByRole('button', { name: 'Create secret' }).click();
  receiver.secret = await page.getByLabel('Signing secret').inputValue();

  // The operational wallet pays refunds: the merchant funds it with USDT and BNB for the fee.
  const wallet = await operationalWallet(page);
  expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
  admin(server.dataDir, 'chain', 'transfer', wallet, '50', 'USDT-BEP20');
  admin(server.dataDir, 'chain', 'transfer', wallet, '0.05', 'BNB-BSC');

  // An invoice of 10 USDT, paid 15 by the shopper, settled.
  await openTab(page, 'Invoices');
  await page.getByRole('button', { name: 'Create Invoice' }).click();
  const create = page.getByRole('dialog', { name: 'Create Invoice' });
  await create.getByLabel('Amount').fill('10');
  await create.getByLabel('Currency').selectOption('USD');
  await create.getByLabel('Description').fill('One mug');
  await create.getByLabel('Order Id').fill('ORD-REFUND-1');
  await create.getByRole('button', { name: 'Create Invoice' }).click();
  const link = await create.getByRole('textbox', { name: 'Checkout link' }).inputValue();
  const invoiceId = link.slice(link.lastIndexOf('/') + 1);
  await create.getByRole('button', { name: 'View invoice' }).click();
  await page.getByRole('heading', { name: `Invoice ${invoiceId}` }).waitFor();
  const address =
    (await page
      .getByRole('table', { name: 'Payment options' })
      .locator('code')
      .first()
      .textContent()) ?? '';
  admin(server.dataDir, 'chain', 'transfer', address, '15', 'USDT-BEP20');
  admin(server.dataDir, 'chain', 'mine', '20');
  const status = page.getByRole('definition').first();
  await status.getByText('Settled', { exact: true }).waitFor({ timeout: WAIT_MS });
  await status.getByText('Paid over', { exact: true }).waitFor();

  // Refund: the overpaid part, previewed in the token, confirmed; the claim link to copy.
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = await settledDialog(page, 'Refund');
  await dialog.getByLabel(/^The overpaid part/).check();
  await dialog.getByLabel('Reason').fill('Paid 5 USDT more than the price.');
  await snap(page, 'refunds-form-desktop');
  await dialog.getByRole('button', { name: 'Preview refund' }).click();
  await dialog
    .getByText(/5 USDT/)
    .first()
    .waitFor();
  await snap(page, 'refunds-preview-desktop');
  await dialog.getByRole('button', { name: 'Confirm refund' }).click();
  const claimField = dialog.getByRole('textbox', { name: 'Claim link' });
  await claimField.waitFor();
  const claimUrl = await claimField.inputValue();
  expect(claimUrl).toMatch(new RegExp(`^${server.baseUrl}/refund/[A-Za-z0-9_-]{32}$`));
  await snap(page, 'refunds-claim-link-desktop');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.locator('.modal').waitFor({ state: 'detached' });
  const refunds = page.getByRole('table', { name: 'Refunds of this invoice' });
  await refunds.getByText('Waiting for claim', { exact: true }).waitFor({ timeout: WAIT_MS });

  // The shopper, on a phone, claims it to their own address.
  const phone = await openPage(PHONE);
  await phone.page.goto(new URL(claimUrl).pathname);
  await phone.page.getByRole('heading', { level: 1, name: 'Claim your refund' }).waitFor();
  await phone.page.getByText('5 USDT', { exact: true }).waitFor();
  await snap(phone.page, 'refunds-claim-phone');
  // The narrowest phones, and a desktop browser zoomed to 200 % (1280 px wide at 200 %: 640).
  for (const [width, name] of [
    [320, 'narrowest'],
    [640, 'zoomed'],
  ] as const) {
    const other = await openPage({ width, height: 700 });
    await other.page.goto(new URL(claimUrl).pathname);
    await other.page.getByRole('heading', { level: 1, name: 'Claim your refund' }).waitFor();
    await snap(other.page, `refunds-claim-${name}`);
    await other.context.close();
  }
  // An address of another network: said at the field, in the shopper's words; nothing claimed.
  await phone.page.getByLabel(/^Your USDT address on/).fill('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8');
  await phone.page.getByLabel(/^I have checked this address/).check();
  await phone.page.getByRole('button', { name: 'Claim the refund' }).click();
  await phone.page.getByText(/^This is not a valid BNB Smart Chain address/).waitFor();
  expect(await phone.page.getByLabel(/^Your USDT address on/).inputValue()).toBe(
    'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  );
  await snap(phone.page, 'refunds-claim-refused-phone');
  await phone.page.getByLabel(/^Your USDT address on/).fill(SHOPPER);
  await phone.page.getByLabel(/^I have checked this address/).check();
  await phone.page.getByRole('button', { name: 'Claim the refund' }).click();
  await phone.page
    .getByRole('heading', { level: 1, name: /^Refund (claimed|sent)$/ })
    .waitFor({ timeout: WAIT_MS });
  await phone.page.getByText(SHOPPER).waitFor();
  await snap(phone.page, 'refunds-claimed-phone');

  // The signer sends it; mined at depth, the invoice shows it completed without a reload.
  await page.evaluate(() => Reflect.set(window, 'sameDocument', true));
  await refunds
    .getByText(/^(Queued|Processing|Completed)$/)
    .first()
    .waitFor({ timeout: WAIT_MS });
  for (
    let i = 0;
    i < 10 && !(await refunds.getByText('Completed', { exact: true }).isVisible());
    i += 1
  ) {
    admin(server.dataDir, 'chain', 'mine', '5');
    await page.waitForTimeout(2_000);
  }
  await refunds.getByText('Completed', { exact: true }).waitFor({ timeout: WAIT_MS });
  await status.getByText('Partially refunded', { exact: true }).waitFor({ timeout: WAIT_MS });
  expect(await page.evaluate(() => Reflect.get(window, 'sameDocument') === true)).toBe(true);
  await refunds.getByText(SHOPPER).waitFor();
  // What went back, in the method's row, and the refund's story on the invoice's timeline.
  await page
    .getByRole('table', { name: 'Payment options' })
    .locator('td[data-label="Refunded"]')
    .filter({ hasText: /^5$/ })
    .waitFor();
  await page
    .getByRole('list', { name: 'Invoice timeline' })
    .getByText('Refunded', { exact: true })
    .waitFor();
  await snap(page, 'refunds-completed-desktop');

  // The shopper's link now says it was sent, with its transaction; in Arabic, right to left.
  await phone.page.reload();
  await phone.page.getByRole('heading', { level: 1, name: 'Refund sent' }).waitFor();
  await snap(phone.page, 'refunds-sent-phone');
  await phone.page.goto(`${new URL(claimUrl).pathname}?lang=ar`);
  expect(await phone.page.locator('html').getAttribute('dir')).toBe('rtl');
  await phone.page.getByText(SHOPPER).waitFor();
  await snap(phone.page, 'refunds-sent-phone-ar');
  const wide = await openPage(DESKTOP);
  await wide.page.goto(new URL(claimUrl).pathname);
  await wide.page.getByRole('heading', { level: 1, name: 'Refund sent' }).waitFor();
  await snap(wide.page, 'refunds-sent-desktop');
  await wide.context.close();

  // The endpoint got the refund's story, each event verified.
  const completed = await receiver.next('refund.completed', 0);
  expect(completed.data).toMatchObject({
    invoice_id: invoiceId,
    status: 'completed',
    amount: '5',
    address: SHOPPER,
    address_source: 'shopper',
  });
  const types = receiver.arrivals
    .filter((a) => a.data.invoice_id === invoiceId && a.type.startsWith('refund.'))
    .map((a) => a.type);
  expect(types).toEqual(['refund.created', 'refund.claimed', 'refund.completed']);
  expect(receiver.problems).toEqual([]);
  await phone.context.close();

  // Usage and the Daily Logs count its send among the app's sends, marked as a refund.
  await openTab(page, 'Usage');
  await page.getByText('1 of them a refund').waitFor({ timeout: WAIT_MS });
  await snap(page, 'refunds-usage-desktop');
  await openTab(page, 'Daily Logs');
  await page
    .locator('td[data-label="Send Amount"]')
    .filter({ hasText: '5.0000 USDT including 1 refund (5.0000 USDT)' })
    .waitFor({ timeout: WAIT_MS });
  await snap(page, 'refunds-daily-logs-desktop');
  await page.setViewportSize(PHONE);
  // The app's menu becomes a select once the page has seen the narrower screen.
  await page.getByRole('combobox', { name: 'App section' }).waitFor();
  await snap(page, 'refunds-daily-logs-phone');
  await page.goto(new URL('usage', page.url()).pathname);
  await page.getByText('1 of them a refund').waitFor();
  await snap(page, 'refunds-usage-phone');
});
