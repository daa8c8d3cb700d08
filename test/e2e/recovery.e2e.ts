import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { registerMerchant, signIn } from './journeys';
import { freshServer } from './server';

// Password recovery end to end: the e-mailed code read from DATA_DIR/outbox, the new password
// set with it and the pin, every session ended, then a sign-in with the new password.

// Real argon2 hashing and page loads: well over Jest's 5 s default.
jest.setTimeout(90_000);

const server = freshServer();
freshBrowser();

interface Mail {
  to: string;
  subject: string;
  text: string;
}

function outbox(): Mail[] {
  const dir = path.join(server.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Mail);
}

/** The newest mail to `to` whose subject matches, once the server has written it. */
async function mailTo(to: string, subject: RegExp): Promise<Mail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = outbox()
      .filter((m) => m.to === to && subject.test(m.subject))
      .at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function requestCode(page: Page, name: string) {
  await page.getByLabel('Email', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.getByRole('form', { name: 'Set a new password' }).waitFor();
}

test('a merchant resets a forgotten password with the e-mailed code and the pin', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const email = `${merchant.username}@example.com`;
  const newPassword = 'Fresh#Start9';

  // Signed in elsewhere: that session ends with the reset.
  const other = await openPage(DESKTOP);
  await signIn(other.page, { ...merchant, code: merchant.pin });

  const { context, page } = await openPage(DESKTOP);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/reset');
  await page.getByText('Enter Username for changing account password.').waitFor();
  await snap(page, 'recovery-request-desktop');

  await requestCode(page, email);
  const mail = await mailTo(email, /password reset code/);
  const code = /reset code is (\d{8})\b/.exec(mail.text)?.[1];
  expect(code).toMatch(/^\d{8}$/);

  // A wrong pin is refused on its field; the code stays usable.
  await page.getByLabel('Reset Code').fill(code ?? '');
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
  await page.getByLabel('4 Digit Pin', { exact: true }).fill('0000');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.locator('.invalid-feedback', { hasText: 'The 4 Digit Pin is incorrect.' }).waitFor();
  await snap(page, 'recovery-code-desktop');

  await page.getByLabel('4 Digit Pin', { exact: true }).fill(merchant.pin);
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.waitForURL('**/login');
  await page
    .getByText('Your password has been reset. Please sign in with your new password.')
    .waitFor();
  const notice = await mailTo(email, /password was reset/);
  expect(notice.text).toContain(merchant.username);

  // The old password no longer signs in; the new one does.
  const old = await fetch(`${server.baseUrl}/api/pre-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: merchant.username, password: merchant.password }),
  });
  expect(old.status).toBe(422);
  await signIn(page, { username: merchant.username, password: newPassword, code: merchant.pin });
  expect(page.url()).toMatch(/\/app\/dashboard$/);

  // The other browser's session ended: its next call sends it to sign in.
  await other.page.goto('/app/profile');
  await other.page.waitForURL('**/login');
  await other.context.close();
  await context.close();
});

test('on a phone: an unknown name gets the same answer, and the links go where they say', async () => {
  const { context, page } = await openPage(PHONE);
  await page.goto('/Reset');
  await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
  await snap(page, 'recovery-request-phone');

  const codeMails = () => outbox().filter((m) => /password reset code/.test(m.subject)).length;
  const before = codeMails();
  await requestCode(page, 'nobody_at_all');
  await page
    .getByText(
      'If an account matches, we have e-mailed it a reset code. It is valid for 15 minutes.',
    )
    .waitFor();
  await snap(page, 'recovery-code-phone');
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(codeMails()).toBe(before);

  await page.getByRole('link', { name: 'Sign Up' }).click();
  await page.waitForURL('**/register');
  await page.goto('/reset');
  await page.getByRole('link', { name: 'Sign In' }).click();
  await page.waitForURL('**/login');
  await context.close();
});
