import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, snap } from './browser';
import { registerMerchant, signIn } from './journeys';
import { admin, freshServer } from './server';

// The gateway end to end, as a merchant's developer meets it: a new merchant buys a plan, creates
// an app with USDT (BEP20), makes a key with only the deposit abilities, then their server (here
// fetch) opens an account for an order; a test deposit to it goes down the watcher's path and
// the portal shows it Pending, then Hash Verified once the blocks are mined. The refusals are
// the gateway's own: an ability the key lacks, a whitelist without the caller, a revoked key.

jest.setTimeout(150_000);

const server = freshServer();
freshBrowser();

const PAYOUT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function gateway(key: string) {
  const base = `${server.baseUrl}/gateway/v1`;
  return async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
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

/** The toast on screen (the one it replaced may still be fading out with the same text). */
async function toast(page: Page, text: string) {
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
}

/** Saves Merchant Setting and waits for the server's answer (a toast from the last save may still be up). */
async function saveSettings(page: Page) {
  const saved = page.waitForResponse((r) => r.url().endsWith('/cryptosafelock/update-app'));
  await page.getByRole('button', { name: 'Update' }).click();
  expect((await saved).ok()).toBe(true);
  await toast(page, 'App updated successfully');
}

async function openTab(page: Page, tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

/** Funds the wallet on the local chain and buys the Starter plan through the screens. */
async function buyStarterPlan(page: Page, username: string) {
  admin(server.dataDir, 'deposit', username, '20');
  await page.goto('/app/wallet');
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await page.getByText('New Deposit Found !!').waitFor();
  await snap(page, 'gateway-new-wallet-desktop');
  await page.goto('/app/subscriptions');
  const starter = page.getByRole('article', { name: 'Starter plan' });
  await starter.waitFor();
  await snap(page, 'gateway-new-packages-desktop');
  await starter.getByRole('button', { name: 'Choose Plan' }).click();
  await page
    .getByRole('dialog', { name: 'Choose Plan' })
    .getByRole('button', { name: 'Pay $19.00' })
    .click();
  await page.getByText('Package purchased successfully').waitFor();
}

test('a key opens an account, a payment to it is seen Pending then Hash Verified', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { page } = await openPage(DESKTOP);
  await signIn(page, { ...merchant, code: merchant.pin });
  await buyStarterPlan(page, merchant.username);

  await page.goto('/app/create-app');
  await page.getByLabel('App Name').fill('Gateway Shop');
  await page.getByLabel('Project URL').fill('https://gateway-shop.example.com');
  await page.getByRole('button', { name: 'Create App' }).click();
  await page.getByRole('heading', { level: 1, name: 'Gateway Shop' }).waitFor();
  await page.getByRole('switch', { name: 'Use USDT (BNB Smart Chain)' }).click();
  const payout = page.getByRole('dialog', { name: 'Enter Payout Address' });
  await payout.getByLabel('Payout Address').fill(PAYOUT);
  await payout.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('switch', { name: 'For Deposit' }).waitFor();

  await openTab(page, 'App Keys');
  await page.getByLabel('Key Name').fill('Checkout server');
  await page.getByLabel('Create deposit accounts').check();
  await page.getByLabel('Read deposits').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  const call = gateway(await keyField.inputValue());

  // The merchant's server opens an account for its order.
  const opened = await call('POST', '/accounts', { unique_id: 'order-1', method: 'USDT-BEP20' });
  expect(opened.status).toBe(201);
  const address = String(opened.body.address);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(
    (await call('POST', '/accounts', { unique_id: 'order-1', method: 'USDT-BEP20' })).body,
  ).toMatchObject({ address });
  // The key holds no balances ability.
  const noAbility = await call('GET', '/balances');
  expect(noAbility.status).toBe(403);
  expect(JSON.stringify(noAbility.body)).toContain('balances:read');

  // A customer pays 25.5 USDT: the portal's test deposit puts the transfer on the local chain.
  await page.getByRole('button', { name: 'Go Back' }).click();
  await openTab(page, 'Transaction');
  await page.getByRole('button', { name: 'Send test deposit to order-1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send test deposit' });
  await dialog.getByText(address).waitFor();
  await dialog.getByLabel('Amount (USDT-BEP20)').fill('25.5');
  await snap(page, 'gateway-test-deposit-desktop');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Test deposit sent').waitFor();

  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: 'order-1' });
  await row.getByText('25.5000 USDT').waitFor();
  await row.getByText('Pending').waitFor({ timeout: 20_000 });
  await snap(page, 'gateway-receive-pending-desktop');
  const pending = await call('GET', '/deposits?unique_id=order-1');
  expect(pending.body.data).toEqual([
    expect.objectContaining({ unique_id: 'order-1', amount: '25.5', status: 0 }),
  ]);

  admin(server.dataDir, 'chain', 'mine', '15');
  // No reload: the list keeps itself current while it is on screen.
  await row.getByText('Hash Verified (Awaiting Gas)').waitFor({ timeout: 30_000 });
  await snap(page, 'gateway-receive-verified-desktop');
  expect((await call('GET', '/deposits?unique_id=order-1')).body.data).toEqual([
    expect.objectContaining({ amount: '25.5', status: 3 }),
  ]);

  // The portal's other tabs tell the same story, from the same rows.
  await openTab(page, 'API Logs');
  const accountCall = page.getByRole('row').filter({ hasText: '/gateway/v1/accounts' }).first();
  await accountCall.getByRole('cell', { name: 'POST', exact: true }).waitFor();
  await accountCall.getByRole('cell', { name: '127.0.0.1', exact: true }).waitFor();
  await page
    .getByRole('row')
    .filter({ hasText: '/gateway/v1/deposits' })
    .first()
    .getByRole('cell', { name: 'GET', exact: true })
    .waitFor();
  expect(await page.content()).not.toContain('csl_live_');
  await snap(page, 'gateway-api-logs-desktop');
  await openTab(page, 'Usage');
  await page.getByText('25.500000').first().waitFor();
  await snap(page, 'gateway-usage-desktop');
  await openTab(page, 'Daily Logs');
  // Received, and (no GATEWAY_FEE_ADDRESS here: no fee leg) all of it to the payout address.
  await page.getByRole('cell', { name: '25.5000 USDT' }).first().waitFor();
  await snap(page, 'gateway-daily-logs-desktop');

  // A whitelist without the caller shuts it out, naming the address the gateway saw.
  await openTab(page, 'Merchant Setting');
  await page.getByLabel('IP Whitelist').fill('203.0.113.10');
  await saveSettings(page);
  const outside = await call('GET', '/deposits');
  expect(outside.status).toBe(403);
  expect(JSON.stringify(outside.body)).toContain('127.0.0.1');
  await page.getByLabel('IP Whitelist').fill('');
  await saveSettings(page);
  expect((await call('GET', '/deposits')).status).toBe(200);

  // A revoked key opens nothing.
  await openTab(page, 'App Keys');
  await page.getByRole('button', { name: 'Revoke Checkout server' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke Key' })
    .getByRole('button', { name: 'Yes, Revoke' })
    .click();
  await page.getByText('No record Found').waitFor();
  expect((await call('GET', '/deposits')).status).toBe(401);
});
