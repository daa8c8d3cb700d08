import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { admin } from './server';

export const DEMO = { username: 'demo', password: 'Demo@12345', pin: '1234' };

export interface Merchant {
  username: string;
  password: string;
  pin: string;
}

/** A new merchant, registered through the API, for a journey that needs an account of its own. */
export async function registerMerchant(baseUrl: string): Promise<Merchant> {
  const username = `merchant_${randomBytes(4).toString('hex')}`;
  const merchant = { username, password: 'Secure#Pass1', pin: '2468' };
  const response = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Test Merchant',
      username,
      email: `${username}@example.com`,
      password: merchant.password,
      spassword: merchant.pin,
      country: 'IN',
      phone: '9876543210',
      is_checked: 1,
    }),
  });
  if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`);
  return merchant;
}

/** The login screen's labels, in the language it shows; `code` names the second factor's field. */
export interface LoginWords {
  username: string;
  password: string;
  submit: string;
  code: string | RegExp;
}

const ENGLISH_LOGIN: LoginWords = {
  username: 'Username or Email',
  password: 'Password',
  submit: 'Sign In',
  code: /^(4 Digit Pin|Two-Factor Authentication Code|OTP)$/,
};

/**
 * Signs in through the login screen, in English unless `words` are given: password step, then
 * the second factor.
 */
export async function signIn(
  page: Page,
  { username, password, code }: { username: string; password: string; code: string },
  words: LoginWords = ENGLISH_LOGIN,
) {
  await page.goto('/login');
  await page.getByLabel(words.username).fill(username);
  await page.getByLabel(words.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: words.submit }).click();
  await page.getByLabel(words.code, { exact: true }).fill(code);
  await page.getByRole('button', { name: words.submit }).click();
  await page.waitForURL('**/app/dashboard');
  // redux-persist writes the session shortly after sign-in: a page.goto() before that would
  // load the app signed out.
  await page.waitForFunction(() => {
    const raw = localStorage.getItem('persist:session');
    const token = raw ? (JSON.parse(raw) as { authToken?: string }).authToken : undefined;
    return Boolean(token && JSON.parse(token));
  });
}

/** Funds the wallet on the local chain and buys the Starter plan through the screens. */
export async function buyStarterPlan(page: Page, dataDir: string, username: string) {
  admin(dataDir, 'deposit', username, '20');
  await page.goto('/app/wallet');
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await page.getByText('New Deposit Found !!').waitFor();
  await page.goto('/app/subscriptions');
  const starter = page.getByRole('article', { name: 'Starter plan' });
  await starter.getByRole('button', { name: 'Choose Plan' }).click();
  await page
    .getByRole('dialog', { name: 'Choose Plan' })
    .getByRole('button', { name: 'Pay $19.00' })
    .click();
  await page.getByText('Package purchased successfully').waitFor();
}

/**
 * Creates an app through Create App and takes USDT (BNB Smart Chain) into use with `payout` as
 * its payout address; answers the app's path.
 */
export async function createAppWithUsdt(
  page: Page,
  app: { name: string; url: string; payout: string },
): Promise<string> {
  await page.goto('/app/create-app');
  await page.getByLabel('App Name').fill(app.name);
  await page.getByLabel('Project URL').fill(app.url);
  await page.getByRole('button', { name: 'Create App' }).click();
  await page.getByRole('heading', { level: 1, name: app.name }).waitFor();
  const appPath = new URL(page.url()).pathname;
  await page.getByRole('switch', { name: 'Use USDT (BNB Smart Chain)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter Payout Address' });
  await dialog.getByLabel('Payout Address').fill(app.payout);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('switch', { name: 'For Deposit' }).waitFor();
  return appPath;
}

/**
 * On an app's open Merchant Setting tab: saves `url` as its Webhook URl and creates its signing
 * secret, shown this once; answers the secret.
 */
export async function connectWebhook(page: Page, url: string): Promise<string> {
  await page.getByLabel('Webhook URl').fill(url);
  await page.getByRole('button', { name: 'Update' }).click();
  await page.getByRole('alert').filter({ hasText: 'App updated successfully' }).waitFor();
  await page.getByRole('button', { name: 'Create secret' }).click();
  return page.getByLabel('Signing secret').inputValue();
}
