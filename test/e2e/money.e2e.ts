import type { Page } from 'playwright-core';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { admin, freshServer } from './server';

// Money end to end: a deposit made with the admin command (the local chain) is found by
// 'Check Balance', pays for a plan, which shows in the history with its invoice, then is
// cancelled. The demo account starts with the seeded Starter plan.

jest.setTimeout(120_000);

const server = freshServer();

const demo = { username: DEMO.username, password: DEMO.password, code: DEMO.pin };

const balanceOf = async (page: Page) =>
  Number((await page.getByTestId('wallet-balance').innerText()).replace(/[^\d.]/g, ''));

/** Cancels the demo's seeded Starter plan, so every card offers 'Choose Plan'. */
async function cancelStarterPlan(page: Page) {
  await page.getByRole('article', { name: 'Starter plan' }).getByText('Current Plan').waitFor();
  await page.getByRole('button', { name: 'Cancel Subscription' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
  await dialog.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
  await page.getByText('Subscription canceled successfully').waitFor();
  await dialog.waitFor({ state: 'hidden' });
}

/** Waits for the open modal's fade-in to end (so a screenshot shows it, not half of it). */
async function shown(page: Page) {
  await page.waitForFunction(() => {
    const modal = document.querySelector('.modal.show');
    return modal !== null && getComputedStyle(modal).opacity === '1';
  });
}

freshBrowser();

test('a deposit is found by Check Balance, pays a plan, shows in the history, then is cancelled', async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, demo);

  await page.goto('/app/wallet');
  await page.getByRole('heading', { name: 'Wallet', level: 1 }).waitFor();
  const before = await balanceOf(page);
  const sent = admin(server.dataDir, 'deposit', 'demo', '60.25');
  expect(sent).toContain('Sent 60.250000 USDT to demo');

  await page.getByRole('button', { name: 'Check Balance' }).click();
  await page.getByText('New Deposit Found !!').waitFor();
  await page.getByRole('cell', { name: '60.2500 USDT' }).waitFor();
  await page
    .getByTestId('wallet-balance')
    .filter({ hasText: `$${(before + 60.25).toFixed(2)}` })
    .waitFor();
  const row = page.getByRole('row').filter({ hasText: '60.2500 USDT' });
  expect(await row.getByText('Confirmed').count()).toBe(1);
  expect(await row.getByRole('link').getAttribute('href')).toMatch(
    /^https:\/\/bscscan\.com\/tx\/0x[0-9a-f]{64}$/,
  );
  await snap(page, 'money-wallet-desktop');

  await page.goto('/app/subscriptions');
  await page.getByRole('heading', { name: 'My Subscriptions' }).waitFor();
  await page.getByRole('article', { name: 'Business plan' }).waitFor();
  await cancelStarterPlan(page);
  const business = page.getByRole('article', { name: 'Business plan' });
  await business.getByRole('button', { name: 'Choose Plan' }).click();
  // The canceled Starter's unused days are credited: the dialog prices it before paying.
  const pay = page.getByRole('dialog', { name: 'Choose Plan' });
  await pay.getByText(/^Credit for \d+ unused days of Starter$/).waitFor();
  const payButton = pay.getByRole('button', { name: /^Pay \$\d+\.\d\d$/ });
  const due = (await payButton.innerText()).replace('Pay $', '');
  expect(Number(due)).toBeLessThan(49);
  await payButton.click();
  await page.getByText('Package purchased successfully').waitFor();
  await business.getByText('Current Plan').waitFor();
  await business.getByRole('button', { name: 'Cancel Subscription' }).waitFor();
  await snap(page, 'money-packages-desktop');

  await page.goto('/app/history');
  const newest = page.getByRole('row').nth(1);
  await newest.getByRole('cell', { name: 'Business' }).waitFor();
  expect(await newest.getByText('Active').count()).toBe(1);
  await newest.getByRole('button', { name: /^Invoice INV-/ }).click();
  const invoice = page.getByRole('dialog', { name: 'Invoice' });
  await invoice.getByText('49.00 USD').first().waitFor();
  await invoice.getByText(`${due} USD`).waitFor();
  await shown(page);
  await snap(page, 'money-invoice-desktop');
  await invoice.getByText('Close', { exact: true }).click();
  await invoice.waitFor({ state: 'hidden' });
  await snap(page, 'money-history-desktop');

  await page.goto('/app/subscriptions');
  await business.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel Subscription' });
  await confirm.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
  await page.getByText('Subscription canceled successfully').waitFor();
  await page.getByRole('button', { name: 'Choose Plan' }).nth(2).waitFor();
  expect(await page.getByRole('button', { name: 'Choose Plan' }).count()).toBe(3);
  expect(await page.getByText('Current Plan').count()).toBe(0);
  await page.getByText(/subscription is canceled: access continues until/).waitFor();

  await page.goto('/app/history');
  await page.getByRole('row').nth(1).getByText('Canceled').waitFor();
  await context.close();
});

test('the money screens fit a phone', async () => {
  const { context, page } = await openPage(PHONE);
  await signIn(page, demo);
  await page.goto('/app/wallet');
  await page.getByTestId('wallet-balance').waitFor();
  await snap(page, 'money-wallet-phone');
  await page.goto('/app/subscriptions');
  await page.getByRole('article', { name: 'Enterprise plan' }).waitFor();
  await snap(page, 'money-packages-phone');
  await page.goto('/app/history');
  await page
    .getByRole('button', { name: /^Invoice INV-/ })
    .first()
    .waitFor();
  await snap(page, 'money-history-phone');
  await page
    .getByRole('button', { name: /^Invoice INV-/ })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'Invoice' }).waitFor();
  await shown(page);
  // snap() fails on sideways scrolling of the page itself (wide tables scroll in their own box).
  await snap(page, 'money-invoice-phone');
  await context.close();
});
