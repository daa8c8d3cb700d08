import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { signIn } from './journeys';
import { admin, freshServer } from './server';

// Access end to end: sign-up, two-step sign-in (pin and e-mailed OTP), logout, the guard.

// Real argon2 hashing, page loads and a spawned admin process: well over Jest's 5 s default.
jest.setTimeout(90_000);

const server = freshServer();
const stamp = Date.now().toString(36);

interface Merchant {
  name: string;
  username: string;
  email: string;
  password: string;
  pin: string;
}

const merchant = (tag: string): Merchant => ({
  name: 'Asha Verma',
  username: `${tag}_${stamp}`,
  email: `${tag}.${stamp}@example.com`,
  password: 'S3cure!pass',
  pin: '4821',
});

/** The newest sign-in code mailed to `email` (the server writes mails to DATA_DIR/outbox). */
function latestCode(email: string): string | undefined {
  const dir = path.join(server.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return undefined;
  const mails = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map(
      (name) =>
        JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { to: string; text: string },
    )
    .filter((mail) => mail.to === email);
  return /code is (\d{4})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
}

async function register(page: Page, who: Merchant) {
  await page.goto('/register');
  await page.getByLabel('Name', { exact: true }).fill(who.name);
  await page.getByLabel('Username', { exact: true }).fill(who.username);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByText('Username available.').waitFor();
  await page.getByLabel('Phone', { exact: true }).fill('+919876543210');
  await page.getByLabel('Country', { exact: true }).fill('India');
  await page.getByRole('option', { name: 'India (+91)' }).click();
  await page.getByLabel('4 Digit Pin', { exact: true }).fill(who.pin);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByText('I accept Terms & Conditions').click();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByText('Registration Successfully, please login.').waitFor();
  await page.waitForURL('**/login');
}

freshBrowser();

test.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the public screens look right (%s)', async (name, viewport) => {
  const { context, page } = await openPage(viewport);
  await page.goto('/login');
  await page.getByText('Unleash Your DeFi Potential: Automate, Delegate and Secure.').waitFor();
  await snap(page, `access-login-${name}`);

  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Username is required').waitFor();
  await page.getByLabel('Username or Email').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill('Demo@12345');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByLabel('4 Digit Pin').waitFor();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('4 Digit Pin is Required').waitFor();
  await snap(page, `access-login-step-two-${name}`);

  await page.goto('/register?u=demo');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByText('Please Accept Terms & Condition').waitFor();
  await page.getByLabel('Password', { exact: true }).fill('abC1');
  await page.getByLabel('Country', { exact: true }).fill('Ita');
  await snap(page, `access-register-errors-${name}`);

  await page.goto('/reset');
  await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
  await snap(page, `access-reset-${name}`);
  await context.close();
});

test('a new merchant signs up, signs in with the pin, logs out and is kept out', async () => {
  const who = merchant('pin');
  const { context, page } = await openPage();
  await register(page, who);

  await signIn(page, { username: who.username, password: who.password, code: who.pin });
  expect(page.url()).toMatch(/\/app\/dashboard$/);
  await page.getByRole('heading').first().waitFor();
  await snap(page, 'access-new-dashboard-desktop');

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await page.getByLabel('Username or Email').waitFor();

  await page.goto('/app/wallet');
  await page.waitForURL('**/login');
  await context.close();
});

test('an operator moves a merchant to e-mailed OTP; the code from the outbox signs in', async () => {
  const who = merchant('otp');
  const { context, page } = await openPage(PHONE);
  await register(page, who);
  expect(admin(server.dataDir, 'user', 'auth-type', who.username, 'otp')).toContain(
    `${who.username} now signs in with otp`,
  );

  await page.getByLabel('Username or Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const field = page.getByLabel('OTP', { exact: true });
  await field.waitFor();
  await snap(page, 'access-otp-phone');
  const code = latestCode(who.email);
  expect(code).toMatch(/^\d{4}$/);
  await field.fill(code ?? '');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/app/dashboard');
  await page.getByRole('heading').first().waitFor();
  await snap(page, 'access-new-dashboard-phone');
  await context.close();
});
