import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import {
  buyStarterPlan,
  connectWebhook,
  createAppWithUsdt,
  registerMerchant,
  signIn,
} from './journeys';
import { freshServer } from './server';
import { Receiver, type Arrival } from './webhookReceiver';

// Test mode as a new merchant's developer meets it: the app's Test mode switch opens its test
// app under the banner, its Webhook URl and secret are its own (verified here with the
// independent `standardwebhooks` package on a loopback receiver), App Keys makes a csl_test_
// key, and with it, over HTTP, each payment scenario (a reorg too) ends in the invoice state and
// webhooks the invoices' rules define, every event livemode false. The test wallet is funded in
// one click, Delete test data empties test mode, and nothing of it counts in the live dashboard.
// The tests run in order, each on what the one before left.

jest.setTimeout(180_000);

const server = freshServer({ WEBHOOK_ALLOW_PRIVATE: '1' });
freshBrowser();

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Longest wait for something the server does by itself (the wallet's job, a delivery). */
const WAIT_MS = 30_000;

const receiver = new Receiver();
let page: Page;
let livePath = '';
/** The test app's id, from its URL (/app/my-app/<id>/<tab>). */
let testId = '';
let key = '';
let receiverUrl = '';

beforeAll(async () => {
  receiverUrl = await receiver.start();
  const merchant = await registerMerchant(server.baseUrl);
  ({ page } = await openPage(DESKTOP));
  await signIn(page, { ...merchant, code: merchant.pin });
  await buyStarterPlan(page, server.dataDir, merchant.username);
  livePath = await createAppWithUsdt(page, {
    name: 'Rehearsal Shop',
    url: 'https://rehearsal-shop.example.com',
    payout: PAYOUT,
  });
}, 120_000);
afterEach(() => {
  expect(receiver.problems).toEqual([]);
});
afterAll(async () => {
  await receiver.stop();
});

async function toast(text: string) {
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
}

async function openTab(tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

async function gateway(method: 'GET' | 'POST', route: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}/gateway/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Polls the invoice until `done` holds (the watcher settles it a moment after the blocks). */
async function invoiceWhen(id: string, done: (invoice: Record<string, unknown>) => boolean) {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const { body } = await gateway('GET', `/invoices/${id}`);
    if (done(body)) return body;
    if (Date.now() > until) throw new Error(`invoice ${id} stayed ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first arrival of `type` for invoice `id`. */
const eventOf = (type: string, id: string) =>
  receiver.until<Arrival>(`${type} of ${id}`, (all) =>
    all.find((a) => a.type === type && a.data.id === id),
  );

test('the switch opens test mode under its banner, with its own webhook secret and a csl_test_ key', async () => {
  await page.goto(livePath);
  await page.getByRole('switch', { name: 'Test mode' }).click();
  await page.getByText('TEST MODE', { exact: true }).waitFor();
  testId = /\/app\/my-app\/([^/]+)/.exec(new URL(page.url()).pathname)?.[1] ?? '';
  expect(testId).not.toBe('');
  expect(livePath).not.toContain(testId);

  await openTab('Merchant Setting');
  receiver.secret = await connectWebhook(page, receiverUrl);
  expect(receiver.secret).toMatch(/^whsec_/);

  await openTab('App Keys');
  await page.getByLabel('Key Name').fill('Test server');
  await page.getByLabel('Create invoices').check();
  await page.getByLabel('Read invoices').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  key = await keyField.inputValue();
  expect(key).toMatch(/^csl_test_/);
  await snap(page, 'test-mode-keys-1280');
});

test.each([
  ['full', 'settled', [], 'invoice.settled'],
  ['partial', 'new', ['paid_partial'], 'invoice.payment_received'],
  ['over', 'settled', ['paid_over'], 'invoice.settled'],
  ['late', 'settled', ['paid_late'], 'invoice.settled'],
])(
  '%s: the invoice ends %s %j, and %s reaches the receiver with livemode false',
  async (scenario, status, exceptions, event) => {
    const made = await gateway('POST', '/invoices', {
      amount: '10',
      currency: 'USD',
      methods: ['USDT-BEP20'],
      order_id: `rehearsal-${scenario}`,
    });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    const paid = await gateway('POST', '/test/payments', { invoice_id: id, scenario });
    expect([paid.status, paid.body.chain_id, paid.body.livemode]).toEqual([201, 97, false]);
    const confirmed = await gateway('POST', '/test/confirm', { payment: paid.body.tx_hash });
    expect(confirmed.status).toBe(200);
    const invoice = await invoiceWhen(
      id,
      (i) => i.status === status && (status !== 'new' || Number(i.paid) > 0),
    );
    expect(invoice).toMatchObject({ status, exceptions, livemode: false });
    const arrival = await eventOf(event, id);
    expect(arrival.data).toMatchObject({ id, livemode: false });
  },
);

test('reorg: processing once seen, then new again when a reorg takes the payment off the chain', async () => {
  const made = await gateway('POST', '/invoices', {
    amount: '10',
    currency: 'USD',
    methods: ['USDT-BEP20'],
    order_id: 'rehearsal-reorg',
  });
  const id = String(made.body.id);
  const paid = await gateway('POST', '/test/payments', { invoice_id: id, scenario: 'reorg' });
  expect([paid.status, paid.body.scenario]).toEqual([201, 'reorg']);
  await invoiceWhen(id, (i) => i.status === 'processing');
  expect((await eventOf('invoice.processing', id)).data).toMatchObject({ livemode: false });
  await gateway('POST', '/test/confirm', { payment: paid.body.tx_hash });
  const back = await invoiceWhen(id, (i) => i.status === 'new');
  expect(back).toMatchObject({
    paid: '0.00',
    payments: [expect.objectContaining({ status: 'removed' })],
  });
});

test('the test wallet is funded in one click, at 1280 px and 375 px', async () => {
  await page.goto(`/app/my-app/${testId}/payment-setting`);
  await page.getByRole('heading', { level: 2, name: 'Payment Setting' }).waitFor();
  // The wallet is made by a job a moment after test mode opened.
  const dialog = page.getByRole('dialog', { name: 'Operational Wallet' });
  const until = Date.now() + WAIT_MS;
  while (!(await dialog.isVisible())) {
    if (Date.now() > until) throw new Error('the test operational wallet never became ready');
    await page.getByRole('button', { name: 'Operational Wallet' }).click();
    await page.waitForTimeout(500);
  }
  await dialog.getByRole('button', { name: 'Add test funds' }).click();
  await toast('Test funds sent');
  await dialog.getByTestId('token-balance').filter({ hasText: '10000.000000' }).waitFor();
  await dialog.getByTestId('native-balance').filter({ hasText: '10.000000' }).waitFor();
  await page.waitForTimeout(400); // the toast's entry animation
  await snap(page, 'test-mode-funds-1280');
  // Full: a second click mints nothing and says so.
  await dialog.getByRole('button', { name: 'Add test funds' }).click();
  await toast('The operational wallet already holds the test funds');

  // The phone signs in with the desktop's stored session before its first script runs: copying
  // it into a loaded page races the app's own persisted state, which may write over it.
  const { context: phoneContext, page: phone } = await openPage(PHONE);
  await phoneContext.addInitScript(
    (stored) => Object.entries(stored).forEach(([k, v]) => localStorage.setItem(k, v)),
    await page.evaluate(() => ({ ...localStorage })),
  );
  await phone.goto(page.url());
  await phone.getByRole('button', { name: 'Operational Wallet' }).click();
  const small = phone.getByRole('dialog', { name: 'Operational Wallet' });
  await small.getByTestId('token-balance').filter({ hasText: '10000.000000' }).waitFor();
  await phone.waitForTimeout(400);
  await snap(phone, 'test-mode-funds-375');
  await phoneContext.close();
});

test('Delete test data empties test mode after a confirmation; the live dashboard never counted it', async () => {
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Delete test data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete test data' });
  await dialog.getByText('This cannot be undone.', { exact: false }).waitFor();
  await page.waitForTimeout(400);
  await snap(page, 'test-mode-delete-1280');
  await dialog.getByRole('button', { name: 'Yes, delete test data' }).click();
  await toast('Test data deleted');
  // The key still works, on an empty test mode.
  const listed = await gateway('GET', '/invoices');
  expect([listed.status, listed.body.data]).toEqual([200, []]);

  await page.getByRole('switch', { name: 'Test mode' }).click();
  await page.waitForURL((url) => !url.pathname.includes(testId));
  await page.getByText('TEST MODE', { exact: true }).waitFor({ state: 'detached' });
  await page.goto('/app/dashboard');
  await page.getByLabel('Total transactions').filter({ hasText: /^0$/ }).waitFor();
});
