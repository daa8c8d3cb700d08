import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { registerMerchant, signIn } from './journeys';
import { freshServer } from './server';

// Account security journeys. Each uses a merchant registered for it through the API, so one
// journey's new password or second factor does not reach the next.

const server = freshServer();
freshBrowser();

const PERIOD_MS = 30_000;

/**
 * A TOTP code of a time step after `afterStep` (the server refuses a code twice): waits for the
 * next 30 s step when needed, as a user would wait for the app's next code.
 */
async function freshTotp(secret: string, afterStep: number | null) {
  let step = Math.floor(Date.now() / PERIOD_MS);
  if (afterStep !== null && step <= afterStep) {
    await new Promise((resolve) => setTimeout(resolve, (afterStep + 1) * PERIOD_MS - Date.now()));
    step = afterStep + 1;
  }
  return { code: await generate({ secret, epoch: (step * PERIOD_MS) / 1000 }), step };
}

/** Waits for the accordion's open/close animation, so a screenshot shows the settled screen. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.querySelector('.collapsing') === null);
}

async function signOut(page: Page) {
  await page
    .getByRole('button', { name: /Logout/ })
    .first()
    .click();
  await page.waitForURL('**/login');
}

test('set up the authenticator, switch to it, and sign in with a TOTP code', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { ...merchant, code: merchant.pin });

  await page.goto('/app/authentication');
  const pinHeader = page.getByRole('button', { name: /^4 Digit Pin/ });
  await pinHeader.getByText('Active').waitFor();

  // Switching before the setup is refused.
  await page.getByRole('switch', { name: 'Use Google Authentication' }).click();
  await page.getByText('Please setup 2fa First').waitFor();

  // The key shown under the QR is the otpauth URL's secret, as the user would type it.
  await page.getByRole('button', { name: /^Google Authentication/ }).click();
  const setup = page.getByRole('form', { name: 'Set up Google Authentication' });
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = (await page.locator('.setup-key').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  const first = await freshTotp(secret, null);
  await setup.getByLabel('Two Factor Code').fill(first.code);
  await setup.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Setup Done').waitFor();

  await page.getByRole('switch', { name: 'Use Google Authentication' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter the Security Code' });
  await dialog.getByLabel('Security Code').fill(merchant.pin);
  await snap(page, 'security-code-modal-desktop');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page
    .getByRole('button', { name: /^Google Authentication/ })
    .getByText('Active')
    .waitFor();
  await snap(page, 'security-authenticator-active-desktop');

  await signOut(page);
  const second = await freshTotp(secret, first.step);
  await signIn(page, { ...merchant, code: second.code });
  await context.close();
}, 120_000);

test('change the password: the old one is refused afterwards', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { ...merchant, code: merchant.pin });

  await page.goto('/app/changepassword');
  const form = page.getByRole('form', { name: 'Change Password' });
  await form.getByRole('button', { name: 'Update Password' }).click();
  await form.getByText('Current Password is required').waitFor();
  await snap(page, 'security-change-password-errors-desktop');

  const newPassword = 'Changed#Pass2';
  await form.getByLabel('Current Password', { exact: true }).fill(merchant.password);
  await form.getByLabel('New Password', { exact: true }).fill(newPassword);
  await form.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
  await form.getByLabel('4 Digit Pin', { exact: true }).fill(merchant.pin);
  await form.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password changed successfully').waitFor();

  await signOut(page);
  await page.getByLabel('Username or Email').fill(merchant.username);
  await page.getByLabel('Password', { exact: true }).fill(merchant.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Invalid username or password.').first().waitFor();
  expect(new URL(page.url()).pathname).toBe('/login');

  await signIn(page, { ...merchant, password: newPassword, code: merchant.pin });
  await context.close();
}, 60_000);

test('the security screens at phone and desktop widths', async () => {
  const merchant = await registerMerchant(server.baseUrl);
  const { context, page } = await openPage(PHONE);
  await signIn(page, { ...merchant, code: merchant.pin });
  for (const [viewport, name] of [
    [PHONE, 'phone'],
    [DESKTOP, 'desktop'],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto('/app/authentication');
    await page.getByRole('form', { name: 'Change 4 Digit Pin' }).waitFor();
    await snap(page, `security-authentication-${name}`);
    await page.getByRole('button', { name: /^Google Authentication/ }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await settled(page);
    await snap(page, `security-authenticator-setup-${name}`);
    await page.goto('/app/changepassword');
    await page.getByRole('form', { name: 'Change Password' }).waitFor();
    await snap(page, `security-change-password-${name}`);
  }
  await context.close();
}, 60_000);
