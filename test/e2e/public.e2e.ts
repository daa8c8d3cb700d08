import { freshBrowser, openPage, PHONE, snap, takeCspViolations } from './browser';
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
  await snap(page, 'not-found-phone');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  // Back to Home goes to the dashboard, which sends a visitor without a session to /login.
  await page.waitForURL('**/login');
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  await context.close();
});

test('the shell runs under a strict CSP that blocks inline code, and the journeys see it', async () => {
  const { context, page } = await openPage();
  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  // What an injection would try: an inline script and an inline <style>.
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.planted = true';
    document.body.append(script);
    const style = document.createElement('style');
    style.textContent = 'body { display: none }';
    document.head.append(style);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return Reflect.get(window, 'planted') === true || getComputedStyle(document.body).display;
  });
  expect(ran).toBe('block');
  // Reports arrive asynchronously; taking them here keeps the shared afterEach check clean.
  const seen: string[] = [];
  const blockedBoth = () =>
    ['script-src', 'style-src'].every((directive) => seen.some((v) => v.includes(directive)));
  for (let tries = 0; tries < 50 && !blockedBoth(); tries++) {
    await page.waitForTimeout(100);
    seen.push(...takeCspViolations());
  }
  expect(seen.join('\n')).toMatch(/script-src/);
  expect(seen.join('\n')).toMatch(/style-src/);
  await context.close();
});

test('the public screens paint from their HTML before any script, then hydrate without an error', async () => {
  const { context, page } = await openPage(PHONE);
  // No script and no stylesheet at all: the prerendered sign-in form is already there, styled by
  // the CSS the page carries inline (Bootstrap's primary button, #2449c9).
  await page.route(/\.(js|css)$/, (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByPlaceholder('Username or Email').isVisible()).resolves.toBe(true);
  const signIn = page.getByRole('button', { name: 'Sign In' });
  await expect(signIn.isVisible()).resolves.toBe(true);
  await expect(signIn.evaluate((button) => getComputedStyle(button).backgroundColor)).resolves.toBe(
    'rgb(36, 73, 201)',
  );
  await page.unroute(/\.(js|css)$/);

  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  for (const screen of ['/register', '/reset', '/login']) {
    await page.goto(screen);
    await page.waitForLoadState('networkidle');
  }
  // Hydrated: React, not the browser, answers the submit with the form's own messages.
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Username is required').waitFor();
  await page.getByPlaceholder('Username or Email').fill('demo');
  await expect(page.getByPlaceholder('Username or Email').inputValue()).resolves.toBe('demo');
  expect(errors).toEqual([]);
  await context.close();
});
