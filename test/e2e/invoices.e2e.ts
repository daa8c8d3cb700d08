import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { buyStarterPlan, createAppWithUsdt, registerMerchant, signIn } from './journeys';
import { admin, freshServer } from './server';
import { Receiver } from './webhookReceiver';

// Invoices end to end, as a merchant meets them: an invoice created in the portal's Invoices tab,
// paid on the local chain in two parts (`admin chain transfer`, as a shopper's wallet would), seen
// on screen as new and paid in part, then processing, then settled at the method's depth without a
// reload, while the merchant's endpoint (an HTTP server on loopback, hence WEBHOOK_ALLOW_PRIVATE)
// receives each invoice event, verified with the independent `standardwebhooks` package.

jest.setTimeout(180_000);

const server = freshServer({ WEBHOOK_ALLOW_PRIVATE: '1' });
freshBrowser();

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Longest wait for something the server does by itself (a poll of the chain, a delivery). */
const WAIT_MS = 30_000;

const receiver = new Receiver();
let receiverUrl = '';
let page: Page;

beforeAll(async () => {
  receiverUrl = await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

async function openTab(tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

/** Waits until the invoice's status and flags, as its details show them, include `badges`. */
async function shows(...badges: string[]) {
  // The details' first definition is the status with its flag badges.
  const status = page.getByRole('definition').first();
  for (const badge of badges) {
    await status.getByText(badge, { exact: true }).waitFor({ timeout: WAIT_MS });
  }
}

test('an invoice made in the portal, paid in two parts, settles on screen and at the endpoint', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  ({ page } = await openPage(DESKTOP));
  await signIn(page, { ...merchant, code: merchant.pin });
  await buyStarterPlan(page, server.dataDir, merchant.username);

  await createAppWithUsdt(page, {
    name: 'Invoice Shop',
    url: 'https://invoice-shop.example.com',
    payout: PAYOUT,
  });

  // The endpoint, and the secret it verifies with.
  await openTab('Merchant Setting');
  await page.getByLabel('Webhook URl').fill(receiverUrl);
  const saved = page.waitForResponse((r) => r.url().endsWith('/cryptosafelock/update-app'));
  await page.getByRole('button', { name: 'Update' }).click();
  expect((await saved).ok()).toBe(true);
  await page.getByRole('button', { name: 'Create secret' }).click();
  receiver.secret = await page.getByLabel('Signing secret').inputValue();
  expect(receiver.secret).toMatch(/^whsec_/);

  // Create Invoice gives the checkout link.
  await openTab('Invoices');
  await page.getByRole('button', { name: 'Create Invoice' }).click();
  const create = page.getByRole('dialog', { name: 'Create Invoice' });
  await create.getByLabel('Amount').fill('25');
  await create.getByLabel('Currency').selectOption('USD');
  await create.getByLabel('Description').fill('Two tickets');
  await create.getByLabel('Order Id').fill('ORD-E2E-1');
  await create.getByLabel('Expires in (minutes)').fill('30');
  await create.getByRole('button', { name: 'Create Invoice' }).click();
  const link = await create.getByRole('textbox', { name: 'Checkout link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${server.baseUrl}/pay/inv_[0-9a-z]+$`));
  await snap(page, 'invoices-created-desktop');
  const id = link.slice(link.lastIndexOf('/') + 1);
  const created = await receiver.next('invoice.created', 0);
  expect(created.data).toMatchObject({ id, status: 'new', amount: '25', currency: 'USD' });

  await create.getByRole('button', { name: 'View invoice' }).click();
  await page.getByRole('heading', { name: `Invoice ${id}` }).waitFor();
  const options = page.getByRole('table', { name: 'Payment options' });
  const address = (await options.locator('code').first().textContent()) ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  // What is still due, as the option's row says it (its Still due cell).
  const stillDue = (amount: string) =>
    options
      .locator('td[data-label="Still due"]')
      .filter({ hasText: new RegExp(`^${amount}$`) })
      .waitFor({ timeout: WAIT_MS });
  await stillDue('25');
  await shows('New');

  // USDT sent on Ethereum to the same address: found, flagged, not counted. Accepting it needs
  // a payout address on Ethereum, which this app has not set up: the refusal says so.
  admin(server.dataDir, 'chain', 'transfer', address, '5', 'USDT-ERC20');
  const payments = page.getByRole('table', { name: 'Payments' });
  await payments.getByText('Wrong network, not counted').waitFor({ timeout: WAIT_MS });
  await payments.getByRole('button', { name: 'Accept' }).click();
  const accept = page.getByRole('dialog', { name: 'Accept payment' });
  await accept.getByText('5 USDT-ERC20 was sent on a network the invoice did not offer.').waitFor();
  await accept.getByRole('button', { name: 'Accept', exact: true }).click();
  await page
    .getByText(
      "Add USDT-ERC20 to the app's payment methods first: its payout address receives this payment.",
    )
    .waitFor();
  await snap(page, 'invoices-stray-refused-desktop');
  await accept.getByRole('button', { name: 'Close', exact: true }).last().click();
  await accept.waitFor({ state: 'detached' });
  await stillDue('25');

  // A shopper pays 10 of the 25 USDT, then the rest: the details follow without a reload.
  admin(server.dataDir, 'chain', 'transfer', address, '10', 'USDT-BEP20');
  await shows('New', 'Paid partial');
  await stillDue('15');
  await snap(page, 'invoices-partial-desktop');
  admin(server.dataDir, 'chain', 'transfer', address, '15', 'USDT-BEP20');
  await shows('Processing');
  admin(server.dataDir, 'chain', 'mine', '15');
  await shows('Settled');
  // The header, the payment on Ethereum and the two that paid.
  expect(await payments.getByRole('row').count()).toBe(4);
  await page
    .getByRole('list', { name: 'Invoice timeline' })
    .getByText('Settled', { exact: true })
    .waitFor();
  await snap(page, 'invoices-settled-desktop');

  // The endpoint got the invoice's story in order, each event verified.
  const settled = await receiver.next('invoice.settled', 0);
  expect(settled.data).toMatchObject({ id, status: 'settled', paid: '25.00', due: '0.00' });
  const types = receiver.arrivals
    .filter((a) => a.data.id === id)
    .map((a) => a.type)
    .filter((type, i, all) => all.indexOf(type) === i);
  expect(types).toEqual([
    'invoice.created',
    'invoice.payment_received',
    'invoice.processing',
    'invoice.settled',
  ]);
  expect(receiver.problems).toEqual([]);

  // The list says the same, on a phone too.
  await page.getByRole('button', { name: 'Back to Invoices' }).click();
  const row = page.getByRole('row').filter({ hasText: 'ORD-E2E-1' });
  await row.getByText('Settled', { exact: true }).waitFor();
  await snap(page, 'invoices-list-desktop');
  const phone = await openPage(PHONE);
  await signIn(phone.page, { ...merchant, code: merchant.pin });
  await phone.page.goto(`${new URL(page.url()).pathname}${new URL(page.url()).search}`);
  await phone.page.getByText('ORD-E2E-1').first().waitFor();
  await snap(phone.page, 'invoices-list-phone');
  await phone.page.getByRole('button', { name: `Invoice ${id}` }).click();
  await phone.page.getByRole('heading', { name: `Invoice ${id}` }).waitFor();
  await snap(phone.page, 'invoices-settled-phone');
});
