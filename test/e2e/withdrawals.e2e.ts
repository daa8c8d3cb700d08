import { statSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { admin, freshServer, killSigner, restartSigner } from './server';

// Money out, end to end, with the signer process beside the server as `npm start` runs them: the
// demo merchant lets its server's address (127.0.0.1) through the Demo Store's IP whitelist,
// funds the USDT (BEP20) operational wallet it reads in the portal, makes a key that may send,
// and its server (here fetch) withdraws 10 USDT with an Idempotency-Key. The signer signs it, the
// local chain checks the signature and mines it, and the Send list shows it go out and complete
// with its hash; the same request again answers the same withdrawal. A customer's deposit in the
// same journey is topped up with gas and swept: it ends Completed, its amount less the plan's fee
// at the payout address and the fee at the gateway's. Last, a withdrawal queued while the signer
// is killed (kill -9) goes out once it is back, exactly once. The tests run in order.
//
// SETTINGS_HOLD_HOURS=0 and SIGNER_HOLD_HOURS=0 (the signer's own hold, kept in its own store in
// DATA_DIR/signer and registered by the server's jobs): any change of a whitelist once set (even
// emptying it) holds the app's withdrawals 24 h, and the demo's Starter plan allows no second app
// whose first whitelist would not be held. The hold itself is tested in server/src/domain/apps/settingsHold.test.ts and the
// signer's tests. LOCAL_BLOCK_MS=0: blocks are mined only here (`chain mine`), so each status
// that waits for confirmations stays on screen until the journey mines them.

jest.setTimeout(300_000);

/** Where sweeps pay the gateway's fee (the demo's Starter plan takes 1 %). */
const FEE_ADDRESS = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const server = freshServer(
  {
    SETTINGS_HOLD_HOURS: '0',
    SIGNER_HOLD_HOURS: '0',
    LOCAL_BLOCK_MS: '0',
    GATEWAY_FEE_ADDRESS: FEE_ADDRESS,
  },
  { signer: true },
);
freshBrowser();

const APP = '/app/my-app/app_demo_store';
/** The Demo Store's USDT (BEP20) payout address (server/src/seed/demoApps.ts). */
const PAYOUT = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db';
/** Where the merchant pays out to: a supplier's address. */
const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** USDT-BEP20's confirmations (docs/gateway.md, "Confirmations and statuses"). */
const CONFIRMATIONS = '15';
/** Longest wait for something the server and the signer do by themselves (jobs every 2 s). */
const WAIT_MS = 60_000;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let key = '';
let operationalWallet = '';
let firstWithdrawal: Answer | undefined;

async function gateway(
  method: 'GET' | 'POST',
  route: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/gateway/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What an address holds on the local chain (the admin command's first line: exact). */
function balance(address: string, code: string): string {
  return admin(server.dataDir, 'chain', 'balance', address, code).split('\n')[0] ?? '';
}

const mine = () => admin(server.dataDir, 'chain', 'mine', CONFIRMATIONS, '56');

/** Reads until `done` holds (a condition of the server's own jobs, awaited, never slept on). */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function settledDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await page.locator('.modal.show').waitFor();
  // The fade-in ends before a snap (axe samples colours).
  await page.waitForFunction(() => document.getAnimations().length === 0);
  return dialog;
}

async function openTab(page: Page, tab: string) {
  await page.getByRole('navigation', { name: 'App menu' }).getByRole('link', { name: tab }).click();
  await page.getByRole('heading', { level: 2, name: tab }).waitFor();
}

/** The Send list's row of the withdrawal to `to` of `amount` (the list refreshes itself). */
function sendRow(page: Page, to: string, amount: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByTitle(to, { exact: true }) })
    .filter({ has: page.getByRole('cell', { name: `${amount} USDT`, exact: true }) });
}

/**
 * Opens the Operational Wallet of USDT (BNB Smart Chain) from its Payment Setting card. The server
 * creates the wallet a moment after start-up; until then the button says it is not ready, and
 * the merchant tries again.
 */
async function openOperationalWallet(page: Page): Promise<Locator> {
  const card = page
    .locator('.payment-method')
    .filter({ has: page.getByRole('heading', { name: 'USDT', exact: true }) })
    .filter({ hasText: 'BNB Smart Chain' });
  const dialog = page.getByRole('dialog', { name: 'Operational Wallet' });
  await eventually(
    async () => {
      if (!(await dialog.isVisible())) {
        await card.getByRole('button', { name: 'Operational Wallet' }).click();
      }
      return dialog.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
    },
    (opened) => opened,
  );
  return settledDialog(page, 'Operational Wallet');
}

let desktop: Page;
let closeDesktop: () => Promise<void> = async () => {};

beforeAll(async () => {
  const { context, page } = await openPage(DESKTOP);
  desktop = page;
  closeDesktop = () => context.close();
  await signIn(desktop, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
}, 60_000);
afterAll(() => closeDesktop());

test('the merchant lets its server through, funds the operational wallet and makes a key', async () => {
  const page = desktop;
  await page.goto(APP);
  await page.getByRole('heading', { level: 1, name: 'Demo Store' }).waitFor();

  await openTab(page, 'Merchant Setting');
  const whitelist = page.getByLabel('IP Whitelist');
  await eventually(
    () => whitelist.inputValue(),
    (value) => value.includes('203.0.113.10'),
  );
  await whitelist.fill(`${await whitelist.inputValue()}\n127.0.0.1`);
  await page.getByRole('button', { name: 'Update' }).click();
  await page.getByRole('alert').filter({ hasText: 'App updated successfully' }).waitFor();
  await snap(page, 'withdrawals-whitelist-desktop');

  // The operational wallet of USDT (BEP20): its address is what the QR code holds.
  await openTab(page, 'Payment Setting');
  const wallet = await openOperationalWallet(page);
  operationalWallet = (await wallet.locator('code').getAttribute('title')) ?? '';
  expect(operationalWallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await wallet.getByTestId('token-balance').getByText('0.000000').waitFor();

  // The merchant sends it 100 USDT and 0.05 BNB for the network fees (on the local chain).
  admin(server.dataDir, 'chain', 'transfer', operationalWallet, '100', 'USDT-BEP20');
  admin(server.dataDir, 'chain', 'transfer', operationalWallet, '0.05', 'BNB-BSC');
  await wallet.getByRole('button', { name: 'Refresh' }).click();
  await wallet.getByTestId('token-balance').getByText('100.000000').waitFor();
  await wallet
    .getByTestId('native-balance')
    .getByText(/^0\.0[0-9]{5}$/)
    .waitFor();
  await snap(page, 'withdrawals-operational-wallet-desktop');
  await wallet.getByRole('button', { name: 'Close' }).first().click();
  await page.locator('.modal').waitFor({ state: 'detached' });

  await openTab(page, 'App Keys');
  await page.getByLabel('Key Name').fill('Payouts server');
  for (const ability of [
    'Create withdrawals',
    'Read withdrawals',
    'Create deposit accounts',
    'Read deposits',
  ]) {
    await page.getByLabel(ability, { exact: true }).check();
  }
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  key = await keyField.inputValue();
  expect(key).toMatch(/^csl_live_/);
});

test('a withdrawal of 10 USDT goes out, is signed, mined and Completed with its hash', async () => {
  const page = desktop;
  // The demo's seeded deposits (credited, awaiting gas) are swept first, now that the operational
  // wallet has gas. The local chain mines each transaction as it arrives: the blocks of their gas
  // and sweeps would confirm the withdrawal before the list could show it awaiting them.
  await eventually(
    async () => {
      const [credited, gasSent] = await Promise.all([
        gateway('GET', '/deposits?status=3'),
        gateway('GET', '/deposits?status=4'),
      ]);
      return [credited.body.data, gasSent.body.data];
    },
    (lists) => lists.every((list) => Array.isArray(list) && list.length === 0),
    3 * WAIT_MS,
  );
  const request = {
    unique_id: 'payout-1',
    method: 'USDT-BEP20',
    to_address: RECIPIENT,
    amount: '10',
  };
  firstWithdrawal = await gateway('POST', '/withdrawals', request, 'payout-1');
  expect(firstWithdrawal).toEqual({
    status: 201,
    body: expect.objectContaining({
      id: expect.stringMatching(/^wd_/),
      unique_id: 'payout-1',
      method: 'USDT-BEP20',
      chain_id: 56,
      from_address: operationalWallet,
      to_address: RECIPIENT,
      amount: '10',
      status: 2,
      tx_hash: null,
      failure_reason: null,
    }),
  });
  const id = String(firstWithdrawal.body.id);

  // The same request again (a retry after a lost answer) is the same withdrawal, not a second.
  const replay = await gateway('POST', '/withdrawals', request, 'payout-1');
  expect(replay).toEqual(firstWithdrawal);

  // Signed and broadcast: the row shows its hash while the confirmations come.
  await page.goto(`${APP}/transaction?view=send`);
  const row = sendRow(page, RECIPIENT, '10.0000');
  await row.getByText('Awaiting Blockchain Confirmation').waitFor({ timeout: WAIT_MS });
  const sent = await gateway('GET', `/withdrawals/${id}`);
  const hash = String(sent.body.tx_hash);
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  await row.getByTitle(hash, { exact: true }).waitFor();
  await snap(page, 'withdrawals-send-awaiting-desktop');

  mine();
  // No reload: the list keeps itself current while it is on screen.
  await row.getByText('Completed').waitFor({ timeout: WAIT_MS });
  await row.getByTitle(hash, { exact: true }).waitFor();
  await snap(page, 'withdrawals-send-completed-desktop');
  expect((await gateway('GET', `/withdrawals/${id}`)).body).toMatchObject({
    status: 1,
    tx_hash: hash,
  });
  expect(balance(RECIPIENT, 'USDT-BEP20')).toBe('10');

  // Asked again once it is done: still the first answer, and still one withdrawal.
  expect((await gateway('POST', '/withdrawals', request, 'payout-1')).body).toEqual(
    firstWithdrawal.body,
  );
  expect((await gateway('GET', '/withdrawals?unique_id=payout-1')).body.data).toEqual([
    expect.objectContaining({ id, status: 1, tx_hash: hash }),
  ]);
  // Another body under the same key is refused, not sent.
  expect(
    (await gateway('POST', '/withdrawals', { ...request, amount: '11' }, 'payout-1')).status,
  ).toBe(422);
});

test("a customer's deposit is topped up with gas and swept: Completed, its amount at the payout address", async () => {
  const page = desktop;
  // The seeded deposits were swept before the first withdrawal.
  const payoutBefore = Number(balance(PAYOUT, 'USDT-BEP20'));
  const feeBefore = Number(balance(FEE_ADDRESS, 'USDT-BEP20'));
  expect(payoutBefore).toBeGreaterThan(0);

  const opened = await gateway('POST', '/accounts', {
    unique_id: 'order-77',
    method: 'USDT-BEP20',
  });
  expect(opened.status).toBe(201);
  const address = String(opened.body.address);
  admin(server.dataDir, 'chain', 'transfer', address, '25', 'USDT-BEP20');

  await page.goto(`${APP}/transaction?view=receive`);
  const row = page.getByRole('row').filter({ hasText: 'order-77' });
  await row.getByText('Pending').waitFor({ timeout: WAIT_MS });
  mine();
  await row.getByText('Completed').waitFor({ timeout: 2 * WAIT_MS });
  await snap(page, 'withdrawals-receive-completed-desktop');
  expect((await gateway('GET', '/deposits?unique_id=order-77')).body.data).toEqual([
    expect.objectContaining({ amount: '25', status: 1 }),
  ]);

  // 1 % to the gateway, the rest to the payout address; the deposit address is empty.
  expect(Number(balance(PAYOUT, 'USDT-BEP20')) - payoutBefore).toBeCloseTo(24.75, 9);
  expect(Number(balance(FEE_ADDRESS, 'USDT-BEP20')) - feeBefore).toBeCloseTo(0.25, 9);
  expect(balance(address, 'USDT-BEP20')).toBe('0');
  // Swept to the payout address the signer's own store has (the seed's registration reached it
  // through the server's job), kept in its own owner-only directory.
  const store = path.join(server.dataDir, 'signer');
  expect(statSync(store).mode & 0o777).toBe(0o700);
  expect(statSync(path.join(store, 'signer-store.sqlite')).mode & 0o777).toBe(0o600);
});

test('a withdrawal queued while the signer is killed goes out once it is back, once', async () => {
  const page = desktop;
  await killSigner();
  const queued = await gateway(
    'POST',
    '/withdrawals',
    { unique_id: 'payout-2', method: 'USDT-BEP20', to_address: RECIPIENT, amount: '5' },
    'payout-2',
  );
  expect(queued).toMatchObject({ status: 201, body: { status: 2, tx_hash: null } });
  const id = String(queued.body.id);

  // Taken by the job, with no signer to sign it: it waits, nothing signed.
  await page.goto(`${APP}/transaction?view=send`);
  const row = sendRow(page, RECIPIENT, '5.0000');
  await row.getByText('Processing Transfer').waitFor({ timeout: WAIT_MS });
  expect((await gateway('GET', `/withdrawals/${id}`)).body).toMatchObject({ tx_hash: null });

  await restartSigner();
  await row.getByText('Awaiting Blockchain Confirmation').waitFor({ timeout: WAIT_MS });
  mine();
  await row.getByText('Completed').waitFor({ timeout: WAIT_MS });
  expect((await gateway('GET', `/withdrawals/${id}`)).body).toMatchObject({
    status: 1,
    tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  });
  // One chain transaction: the recipient has the first 10 and these 5, nothing more.
  expect(balance(RECIPIENT, 'USDT-BEP20')).toBe('15');
  expect(balance(operationalWallet, 'USDT-BEP20')).toBe('85');
});

test('the Send and Receive lists on a phone', async () => {
  const { context, page } = await openPage(PHONE);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto(`${APP}/transaction?view=send`);
  const hash = String(
    (await gateway('GET', `/withdrawals/${String(firstWithdrawal?.body.id)}`)).body.tx_hash,
  );
  await page.getByTitle(hash, { exact: true }).waitFor();
  await snap(page, 'withdrawals-send-phone');
  await page.goto(`${APP}/transaction?view=receive`);
  await page.getByText('order-77').first().waitFor();
  await snap(page, 'withdrawals-receive-phone');
  // The operational wallet after both withdrawals: 100 - 10 - 5 USDT.
  await page.goto(APP);
  const wallet = await openOperationalWallet(page);
  await wallet.getByTestId('token-balance').getByText('85.000000').waitFor();
  await snap(page, 'withdrawals-operational-wallet-phone');
  await context.close();
});
