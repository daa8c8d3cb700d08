import { freshBrowser, openPage, PHONE, snap } from './browser';
import { freshServer } from './server';

freshServer();
freshBrowser();

test('a visitor on / lands on /login', async () => {
  const { context, page } = await openPage();
  await page.goto('/');
  await page.waitForURL('**/login');
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await snap(page, 'login-desktop');
  await context.close();
});

test('an unknown path shows the not-found screen with a way home', async () => {
  const { context, page } = await openPage(PHONE);
  await page.goto('/no/such/page');
  await page.getByText('Oops! Error: 404 This page does not exist!').waitFor();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  // Back to Home goes to the dashboard, which sends a visitor without a session to /login.
  await page.waitForURL('**/login');
  await snap(page, 'not-found-phone');
  await context.close();
});
