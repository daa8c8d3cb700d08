import type { Locator, Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, snap } from './browser';
import {
  buyStarterPlan,
  connectWebhook,
  createAppWithUsdt,
  DEMO,
  registerMerchant,
  signIn,
} from './journeys';
import { admin, freshServer, killServer, otherServer, restartServer } from './server';
import { latch, Receiver } from './webhookReceiver';

// Webhooks end to end, as a merchant's developer meets them: their endpoint (here an HTTP server
// this file starts on loopback, hence WEBHOOK_ALLOW_PRIVATE) receives a test deposit's events,
// each verified with the independent `standardwebhooks` package; a failing endpoint is retried
// on a short schedule; Redeliver and Send test event reach it; a delivery waiting for its retry
// survives `kill -9`; and a server without WEBHOOK_ALLOW_PRIVATE (a second one, started in the
// background meanwhile) refuses internal Webhook URls. The tests run in order, each on what the
// one before left.

jest.setTimeout(120_000);

const WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s' };
const server = freshServer(WEBHOOK_ENV, { processes: 2 });
const guardedServer = otherServer({});
freshBrowser();

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** Longest wait for something the server does by itself (a poll of the chain, a retry). */
const WAIT_MS = 30_000;

const receiver = new Receiver();
let receiverUrl = '';
let page: Page;
let appPath = '';

beforeAll(async () => {
  receiverUrl = await receiver.start();
});
afterEach(() => {
  expect(receiver.problems).toEqual([]);
  receiver.plan = () => ({ status: 200 });
});
afterAll(async () => {
  await receiver.stop();
});

function gateway(key: string) {
  return async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/gateway/v1${route}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

async function openTab(tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

/** IPN Logs' rows whose Event cell reads `event` (a redelivery's adds "(redelivery)"). */
function ipnRows(event: string, redelivery = false): Locator {
  return page
    .getByRole('table', { name: 'IPN logs' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: event }) })
    .filter(redelivery ? { hasText: '(redelivery)' } : { hasNotText: '(redelivery)' });
}

/** Waits, without reloading (the list polls while on screen), for a row's status and attempts. */
async function rowShows(row: Locator, status: string, attempts: number) {
  await row.getByRole('cell', { name: status, exact: true }).waitFor({ timeout: WAIT_MS });
  await row.getByRole('cell', { name: String(attempts), exact: true }).waitFor();
}

/** Merchant Setting's Send test event; answers the outcome the panel shows. */
async function sendTestEvent(outcome: string) {
  await openTab('Merchant Setting');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('status').filter({ hasText: outcome }).waitFor();
}

test('a test deposit reaches the endpoint as deposit.pending then deposit.confirmed, both verified', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  ({ page } = await openPage(DESKTOP));
  await signIn(page, { ...merchant, code: merchant.pin });
  await buyStarterPlan(page, server.dataDir, merchant.username);

  appPath = await createAppWithUsdt(page, {
    name: 'Hooked Shop',
    url: 'https://hooked-shop.example.com',
    payout: PAYOUT,
  });

  // The endpoint and the secret it verifies with, shown this once.
  await openTab('Merchant Setting');
  receiver.secret = await connectWebhook(page, receiverUrl);
  expect(receiver.secret).toMatch(/^whsec_/);

  await openTab('App Keys');
  await page.getByLabel('Key Name').fill('Checkout server');
  await page.getByLabel('Create deposit accounts').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  const call = gateway(await keyField.inputValue());
  const opened = await call('POST', '/accounts', { unique_id: 'order-7', method: 'USDT-BEP20' });
  expect(opened.status).toBe(201);

  await page.getByRole('button', { name: 'Go Back' }).click();
  await openTab('Transaction');
  await page.getByRole('button', { name: 'Send test deposit to order-7' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send test deposit' });
  await dialog.getByLabel('Amount (USDT-BEP20)').fill('12.5');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Test deposit sent').waitFor();

  const pending = await receiver.next('deposit.pending', 0);
  expect(pending.data).toMatchObject({ unique_id: 'order-7', amount: '12.5', status: 0 });
  admin(server.dataDir, 'chain', 'mine', '15');
  const confirmed = await receiver.next('deposit.confirmed', 0);
  expect(confirmed.data).toMatchObject({ unique_id: 'order-7', amount: '12.5', status: 3 });
  // Ordered per deposit: the confirmation never overtakes the pending event.
  expect(receiver.arrivals.map((a) => a.type)).toEqual(['deposit.pending', 'deposit.confirmed']);

  await openTab('IPN Logs');
  for (const event of ['deposit.pending', 'deposit.confirmed']) {
    const row = ipnRows(event);
    await rowShows(row, 'Delivered', 1);
    await row.getByRole('cell', { name: 'order-7', exact: true }).waitFor();
    await row.getByRole('cell', { name: '200', exact: true }).waitFor();
  }
  await snap(page, 'webhooks-ipn-logs-desktop');
});

test('an endpoint answering 500 twice is retried: Retrying, then Delivered after 3 attempts', async () => {
  const third = latch();
  receiver.plan = (_arrival, nth) => {
    if (nth <= 2) return { status: 500 };
    // The third answer waits until IPN Logs has been seen saying Retrying.
    return third.opened.then(() => ({ status: 200 }));
  };
  const before = receiver.arrivals.length;
  await sendTestEvent('Test event not delivered (HTTP 500); it will be retried');
  const ping = await receiver.next('test.ping', before);

  await openTab('IPN Logs');
  const row = ipnRows('test.ping');
  await row.getByRole('cell', { name: 'Retrying', exact: true }).waitFor();
  third.open();
  await rowShows(row, 'Delivered', 3);

  await row.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog');
  const attempts = details.getByRole('table').getByRole('row');
  await attempts.nth(3).waitFor();
  expect(await attempts.allInnerTexts()).toEqual([
    expect.stringMatching(/^#\s+Time\s+Outcome\s+HTTP\s+Response$/),
    expect.stringMatching(/^1\s.*\shttp_error\s+500\s+nope$/),
    expect.stringMatching(/^2\s.*\shttp_error\s+500\s+nope$/),
    expect.stringMatching(/^3\s.*\sdelivered\s+200\s+ok$/),
  ]);
  expect(await details.getByLabel('Request headers').innerText()).toContain(
    `webhook-id: ${ping.id}`,
  );
  await snap(page, 'webhooks-ipn-details-desktop');
  await details.getByRole('button', { name: 'Close' }).click();
  // Every attempt carried the event's id; each one was signed anew.
  expect(receiver.count(ping.id)).toBe(3);
});

test('Redeliver and Send test event reach the endpoint, verified; a redelivery keeps its webhook-id', async () => {
  const confirmed = receiver.arrivals.find((a) => a.type === 'deposit.confirmed');
  if (!confirmed) throw new Error('no deposit.confirmed from the first test');

  const before = receiver.arrivals.length;
  await ipnRows('deposit.confirmed').getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog');
  await details.getByRole('button', { name: 'Redeliver' }).click();
  await details
    .getByRole('status')
    .filter({ hasText: 'Redelivery delivered (HTTP 200)' })
    .waitFor();
  await details.getByText('Redelivery', { exact: true }).waitFor();
  const again = await receiver.next('deposit.confirmed', before);
  expect(again.id).toBe(confirmed.id);
  expect(again.data).toEqual(confirmed.data);
  // A new timestamp, so a new signature, over the same event.
  expect(again.timestamp).toBeGreaterThan(confirmed.timestamp);
  expect(receiver.count(confirmed.id)).toBe(2);
  await details.getByRole('button', { name: 'Close' }).click();
  await rowShows(ipnRows('deposit.confirmed', true), 'Delivered', 1);

  const beforeTest = receiver.arrivals.length;
  await sendTestEvent('Test event delivered (HTTP 200)');
  const ping = await receiver.next('test.ping', beforeTest);
  expect(receiver.count(ping.id)).toBe(1);
  expect(ping.data).toEqual({
    message: 'Test event from CryptoSafeLock: your endpoint is reached.',
  });
});

test('a delivery waiting for its retry when the server is killed (kill -9) goes out after the restart, once', async () => {
  const sentBefore = new Map(receiver.arrivals.map((a) => [a.id, receiver.count(a.id)]));
  // The first answer asks for a retry in 3 s, time enough to kill the server before it.
  receiver.plan = (_arrival, nth) =>
    nth === 1 ? { status: 503, headers: { 'retry-after': '3' } } : { status: 200 };
  const before = receiver.arrivals.length;
  await sendTestEvent('Test event not delivered (HTTP 503); it will be retried');
  const ping = await receiver.next('test.ping', before);

  // Off the server first: a request that meets no server ends the portal's session.
  await page.goto('about:blank');
  await killServer();
  // Killed before its retry: the receiver has seen it once.
  expect(receiver.count(ping.id)).toBe(1);
  await restartServer();
  await receiver.until('retry after the restart', () =>
    receiver.count(ping.id) === 2 ? true : undefined,
  );

  await page.goto(appPath);
  await openTab('IPN Logs');
  await rowShows(ipnRows('test.ping').first(), 'Delivered', 2);
  // What had its 2xx before the kill was not sent again.
  for (const [id, count] of sentBefore) {
    expect({ id, count: receiver.count(id) }).toEqual({ id, count });
  }
});

test('without WEBHOOK_ALLOW_PRIVATE, internal Webhook URls are refused on save with a message', async () => {
  const { context, page: guarded } = await openPage(
    DESKTOP,
    undefined,
    (await guardedServer()).baseUrl,
  );
  await signIn(guarded, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await guarded.goto('/app/my-app/app_demo_store/merchant-setting');
  const field = guarded.getByLabel('Webhook URl');
  const saved = await field.inputValue();
  expect(saved).toMatch(/^https:/);

  const refusals: [string, RegExp][] = [
    [
      'http://169.254.169.254/latest/meta-data/',
      /^Webhook URl must reach a public address: 169\.254\.169\.254 is link-local \/ metadata\.$/,
    ],
    // localhost resolves (through /etc/hosts) to a loopback address.
    [
      'http://localhost:9/',
      /^Webhook URl must reach a public address: (127\.0\.0\.1|::1) is loopback\.$/,
    ],
  ];
  for (const [url, message] of refusals) {
    await field.fill(url);
    await guarded.getByRole('button', { name: 'Update' }).click();
    // Under the field (shown only while the field is marked invalid), not only in a toast.
    await guarded.locator('form').getByText(message).waitFor();
  }
  await snap(guarded, 'webhooks-ssrf-refused-desktop');
  // Nothing was saved: the app keeps the endpoint it had.
  await guarded.reload();
  await guarded.getByRole('heading', { level: 2, name: 'Merchant Setting' }).waitFor();
  expect(await guarded.getByLabel('Webhook URl').inputValue()).toBe(saved);
  await context.close();
});
