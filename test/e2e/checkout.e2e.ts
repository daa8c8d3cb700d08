import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { admin, freshServer } from './server';

// The hosted checkout page end to end, as a shopper meets it on a phone (375 px): an invoice made
// through the gateway API by the merchant's server (here fetch, with a key made in App Keys), its
// checkout showing the amount, the address, the QR and the warning, axe clean; a partial payment
// on the local chain (`admin chain transfer`, as a wallet would) shown as still due without a
// reload, the rest, the confirmations climbing, paid, and the return to the merchant. The same
// with JavaScript off, by the page's own refresh; and an expired invoice's screen.

jest.setTimeout(240_000);

// Without JavaScript the page reloads itself every 2 s instead of 15: the journey with scripts
// off follows it through three states and would otherwise wait most of a minute for reloads.
const server = freshServer({ CHECKOUT_REFRESH_SECONDS: '2' }, { processes: 2 });
freshBrowser();

/** Longest wait for something the server does by itself (a poll of the chain, the feed). */
const WAIT_MS = 40_000;
const METHOD = 'USDT-BEP20';

let key = '';

/** The part of better-sqlite3 this file uses (its typings are the server's, not installed here). */
interface Sqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown };
  function(
    name: string,
    options: { varargs: boolean },
    fn: (...args: unknown[]) => unknown,
  ): unknown;
  close(): unknown;
}
const Database = createRequire(__filename)('better-sqlite3') as new (file: string) => Sqlite;

async function createInvoice(amount: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${server.baseUrl}/gateway/v1/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount,
      currency: 'USD',
      methods: [METHOD],
      description: 'Two concert tickets',
      redirect_url: `${server.baseUrl}/login?from=checkout`,
      ...extra,
    }),
  });
  expect(response.status).toBe(201);
  const invoice = (await response.json()) as {
    id: string;
    checkout_url: string;
    expires_at: string;
    payment_options: { address: string }[];
  };
  return { ...invoice, address: invoice.payment_options[0]?.address ?? '' };
}

/**
 * Moves an invoice's expiry `msAgo` into the past, as the clock would: the expiry job, not the
 * test, then makes it expired.
 */
function expire(id: string, msAgo: number) {
  const db = new Database(path.join(server.dataDir, 'portal.sqlite'));
  // The owner triggers call a function of an owner and a table that each server connection
  // registers (db/ownerChanges.ts); the server hears of this commit through data_version and the
  // table's count of changes instead.
  db.function('owner_changed', { varargs: true }, () => null);
  try {
    db.prepare('UPDATE invoices SET expires_at = ? WHERE id = ?').run(
      new Date(Date.now() - msAgo).toISOString(),
      id,
    );
  } finally {
    db.close();
  }
}

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: WAIT_MS });

beforeAll(async () => {
  // The merchant's server gets a key that may create invoices (App Keys, in the portal).
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/app-keys');
  await page.getByLabel('Key Name').fill('Checkout journey');
  await page.getByLabel('Create invoices').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  key = await keyField.inputValue();
  await context.close();
});

test('a shopper pays on a phone: still due, confirming, paid and back, without a reload', async () => {
  const invoice = await createInvoice('25');
  const { context, page } = await openPage(PHONE);
  await page.goto(new URL(invoice.checkout_url).pathname);
  await heading(page, 'Pay 25 USDT');
  await page.getByText(invoice.address, { exact: true }).waitFor();
  await page
    .getByText('Send only USDT on BNB Smart Chain (BEP20) to this address.', { exact: true })
    .waitFor();
  await page.getByRole('img', { name: /^QR code of a payment request: 25 USDT/ }).waitFor();
  await page.getByRole('link', { name: 'Open in wallet' }).waitFor();
  await page.getByRole('button', { name: 'Copy address' }).waitFor();
  await page.getByText(/^Time left \d+:\d\d$/).waitFor();
  await snap(page, 'checkout-waiting-phone');

  // The copy button says so, to the eye and to a screen reader.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy amount' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('25');

  // A mark on the window: still there after the state changes, so no reload happened.
  await page.evaluate(() => Reflect.set(window, 'sameDocument', true));
  const sameDocument = () => page.evaluate(() => Reflect.get(window, 'sameDocument') === true);

  // Everything the live region says, kept: a later change on the same screen (the payment's
  // confirmations) says only its detail, so the words may be replaced before they are read here.
  await page.evaluate(() => {
    const said: string[] = [];
    Reflect.set(window, 'said', said);
    const live = document.getElementById('announcer');
    if (!live) return;
    new MutationObserver(() => {
      if (live.textContent) said.push(live.textContent);
    }).observe(live, { childList: true, characterData: true, subtree: true });
  });

  admin(server.dataDir, 'chain', 'transfer', invoice.address, '10', METHOD);
  await heading(page, 'Still due: 15 USDT');
  expect(await sameDocument()).toBe(true);
  await page.getByText(invoice.address, { exact: true }).waitFor();
  // Focus on the new state's heading, and the change said through the live region.
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
  await page.waitForFunction(
    () => (Reflect.get(window, 'said') as string[]).some((s) => s.includes('Still due: 15 USDT')),
    undefined,
    { timeout: WAIT_MS },
  );
  await snap(page, 'checkout-partial-phone');

  admin(server.dataDir, 'chain', 'transfer', invoice.address, '15', METHOD);
  await heading(page, 'Payment received, confirming');
  await page.getByText(/^15 USDT seen, \d+ of 15 confirmations\.$/).waitFor();
  expect(await sameDocument()).toBe(true);
  await snap(page, 'checkout-seen-phone');
  // The confirmations climb as blocks are mined.
  admin(server.dataDir, 'chain', 'mine', '5');
  await page.getByText(/^15 USDT seen, ([5-9]|1[0-4]) of 15 confirmations\.$/).waitFor({
    timeout: WAIT_MS,
  });

  admin(server.dataDir, 'chain', 'mine', '15');
  await heading(page, 'Paid');
  expect(await sameDocument()).toBe(true);
  await page.getByRole('link', { name: 'Return to Demo Store' }).waitFor();
  await snap(page, 'checkout-paid-phone');
  // A few seconds later, back at the merchant's redirect_url.
  await page.waitForURL('**/login?from=checkout', { timeout: WAIT_MS });

  // The same paid screen at desktop width.
  const desktop = await openPage(DESKTOP);
  await desktop.page.goto(new URL(invoice.checkout_url).pathname);
  await heading(desktop.page, 'Paid');
  await snap(desktop.page, 'checkout-paid-desktop');
  await desktop.context.close();
  await context.close();
});

test('with JavaScript off, the page has everything and follows by refreshing itself', async () => {
  const invoice = await createInvoice('12.5');
  const desktop = await openPage(DESKTOP);
  await desktop.page.goto(new URL(invoice.checkout_url).pathname);
  await heading(desktop.page, 'Pay 12.5 USDT');
  await snap(desktop.page, 'checkout-waiting-desktop');
  await desktop.context.close();

  const { context, page } = await openPage(PHONE, undefined, undefined, {
    javaScriptEnabled: false,
  });
  await page.goto(new URL(invoice.checkout_url).pathname);
  await heading(page, 'Pay 12.5 USDT');
  await page.getByText(invoice.address, { exact: true }).waitFor();
  await page.getByText('Waiting for your payment.', { exact: true }).waitFor();
  await page.getByRole('img', { name: /^QR code of a payment request: 12.5 USDT/ }).waitFor();
  // No script, so no copy buttons that could not work and no countdown.
  expect(await page.getByRole('button').count()).toBe(0);

  admin(server.dataDir, 'chain', 'transfer', invoice.address, '5', METHOD);
  await heading(page, 'Still due: 7.5 USDT');
  admin(server.dataDir, 'chain', 'transfer', invoice.address, '7.5', METHOD);
  await heading(page, 'Payment received, confirming');
  admin(server.dataDir, 'chain', 'mine', '15');
  await heading(page, 'Paid');
  await page.waitForURL('**/login?from=checkout', { timeout: WAIT_MS });
  await context.close();
});

test('in Arabic the page reads right to left; in Japanese amounts and dates are Japanese', async () => {
  const invoice = await createInvoice('1234.5');
  const path = new URL(invoice.checkout_url).pathname;

  // Chosen from the page's own list of languages, a plain link.
  const { context, page } = await openPage(PHONE);
  await page.goto(path);
  await heading(page, 'Pay 1,234.5 USDT');
  await page.getByText('Language: English').click();
  await page.getByRole('link', { name: 'العربية' }).click();
  await page.waitForURL((url) => url.searchParams.get('lang') === 'ar');
  expect(await page.evaluate(() => [document.documentElement.lang, document.dir])).toEqual([
    'ar',
    'rtl',
  ]);
  // The warning's bar stands on the right, where an Arabic reader starts.
  const bar = await page
    .locator('.warning')
    .evaluate((e) => [getComputedStyle(e).borderRightWidth, getComputedStyle(e).borderLeftWidth]);
  expect(bar).toEqual(['4px', '0px']);
  // The address keeps its order of characters in the right-to-left page.
  await page.getByText(invoice.address, { exact: true }).waitFor();
  await page.getByText('1,234.5 USDT', { exact: true }).waitFor();
  await snap(page, 'checkout-waiting-arabic-phone');
  const desktop = await openPage(DESKTOP);
  await desktop.page.goto(`${path}?lang=ar`);
  await desktop.page.getByText(invoice.address, { exact: true }).waitFor();
  await snap(desktop.page, 'checkout-waiting-arabic-desktop');
  await desktop.context.close();
  await context.close();

  // Chosen by the browser's language.
  const japan = await openPage(PHONE, undefined, undefined, { locale: 'ja-JP' });
  await japan.page.goto(path);
  expect(await japan.page.evaluate(() => document.documentElement.lang)).toBe('ja');
  const amount = new Intl.NumberFormat('ja').format(1234.5);
  await japan.page.getByText(`${amount} USDT`, { exact: true }).waitFor();
  const expiry = new Intl.DateTimeFormat('ja', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(invoice.expires_at));
  await japan.page.getByText(`${expiry} UTC`, { exact: true }).waitFor();
  await snap(japan.page, 'checkout-waiting-japanese-phone');
  await japan.context.close();
});

test('an expired invoice says so, and shows no address to pay', async () => {
  const invoice = await createInvoice('30');
  expire(invoice.id, 1000);
  const { context, page } = await openPage(PHONE);
  await page.goto(new URL(invoice.checkout_url).pathname);
  // Open before the job ran, the page follows by itself.
  await heading(page, 'This invoice has expired');
  expect(await page.getByText(invoice.address).count()).toBe(0);
  expect(await page.getByRole('img').count()).toBe(0);
  await snap(page, 'checkout-expired-phone');
  const desktop = await openPage(DESKTOP);
  await desktop.page.goto(new URL(invoice.checkout_url).pathname);
  await heading(desktop.page, 'This invoice has expired');
  await snap(desktop.page, 'checkout-expired-desktop');
  await desktop.context.close();

  // An unknown invoice is a proper page too.
  await page.goto('/pay/inv_0000000000000000000000000a');
  await heading(page, 'Payment page not found');
  await snap(page, 'checkout-not-found-phone');
  await context.close();
});

test('every screen at 375 and 1280 px fits and passes axe', async () => {
  const pathOf = (invoice: { checkout_url: string }) => new URL(invoice.checkout_url).pathname;
  /** The screen at `path` on a phone and a desktop, once its heading shows. */
  const both = async (path: string, name: string, title: string) => {
    for (const [viewport, width] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await openPage(viewport);
      await page.goto(path);
      await heading(page, title);
      await snap(page, `checkout-${name}-${width}`);
      await context.close();
    }
  };

  admin(server.dataDir, 'rate', 'set', 'TRX/USD', '0.25');
  const two = await createInvoice('20', { methods: [METHOD, 'TRX-TRON'] });
  await both(pathOf(two), 'pick', 'Choose how to pay');

  // The narrowest phones, and a desktop browser zoomed to 200 % (1280 px wide at 200 %: 640).
  for (const [width, name] of [
    [320, 'narrowest'],
    [640, 'zoomed'],
  ] as const) {
    const { context, page } = await openPage({ width, height: 700 });
    await page.goto(`${pathOf(two)}?method=${METHOD}`);
    await heading(page, 'Pay 20 USDT');
    await snap(page, `checkout-waiting-${name}`);
    await context.close();
  }

  const paying = await createInvoice('20');
  admin(server.dataDir, 'chain', 'transfer', paying.address, '5', METHOD);
  await both(pathOf(paying), 'partial', 'Still due: 15 USDT');
  admin(server.dataDir, 'chain', 'transfer', paying.address, '15', METHOD);
  await both(pathOf(paying), 'seen', 'Payment received, confirming');

  const cancelled = await createInvoice('20');
  const cancel = await fetch(`${server.baseUrl}/gateway/v1/invoices/${cancelled.id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
  expect(cancel.status).toBe(200);
  await both(pathOf(cancelled), 'invalid', 'This invoice is no longer valid');

  const halfPaid = await createInvoice('20');
  admin(server.dataDir, 'chain', 'transfer', halfPaid.address, '5', METHOD);
  const watching = await openPage(PHONE);
  await watching.page.goto(pathOf(halfPaid));
  await heading(watching.page, 'Still due: 15 USDT');
  // Expired from now, after the payment was seen: a second ago may be before it (the payment
  // would then be a late one, and its screen another).
  expire(halfPaid.id, 0);
  await heading(watching.page, 'This invoice expired, paid in part');
  await watching.context.close();
  await both(pathOf(halfPaid), 'expired-partial', 'This invoice expired, paid in part');

  // Past the app's late window (an hour), a payment no longer counts.
  const late = await createInvoice('20');
  expire(late.id, 2 * 60 * 60 * 1000);
  const waiting = await openPage(PHONE);
  await waiting.page.goto(pathOf(late));
  await heading(waiting.page, 'This invoice has expired');
  admin(server.dataDir, 'chain', 'transfer', late.address, '20', METHOD);
  await heading(waiting.page, 'Your payment arrived too late');
  await waiting.context.close();
  await both(pathOf(late), 'late', 'Your payment arrived too late');
});

test('a test invoice says no real money moves, and pays itself from its own buttons', async () => {
  admin(server.dataDir, 'rate', 'set', 'TRX/USD', '0.25');
  // The merchant opens test mode and makes an invoice there, as in the Invoices tab.
  const desktop = await openPage(DESKTOP);
  await signIn(desktop.page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await desktop.page.goto('/app/my-app/app_demo_store/invoices');
  await desktop.page.getByRole('switch', { name: 'Test mode' }).click();
  await desktop.page.waitForURL(/\/app\/my-app\/app_(?!demo_store)\w+\/invoices/);
  await desktop.page.getByRole('button', { name: 'Create Invoice' }).click();
  const dialog = desktop.page.getByRole('dialog', { name: 'Create Invoice' });
  await dialog.getByLabel('Amount').fill('10');
  await dialog.getByRole('button', { name: 'Create Invoice' }).click();
  const checkoutUrl = await dialog.getByRole('textbox', { name: 'Checkout link' }).inputValue();
  await desktop.context.close();

  const { context, page } = await openPage(PHONE);
  await page.goto(`${new URL(checkoutUrl).pathname}?method=${METHOD}`);
  await heading(page, 'Pay 10 USDT');
  await page.getByRole('status').filter({ hasText: 'TEST MODE: no real money' }).waitFor();
  await snap(page, 'checkout-test-mode-phone');
  await page.getByRole('button', { name: 'Simulate partial payment' }).click();
  await heading(page, 'Still due: 5 USDT');
  await page.getByRole('button', { name: 'Simulate full payment' }).click();
  await heading(page, 'Payment received, confirming');
  await page.getByRole('status').filter({ hasText: 'TEST MODE: no real money' }).waitFor();
  await context.close();
});
