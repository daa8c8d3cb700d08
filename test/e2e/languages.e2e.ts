import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO } from './journeys';
import { freshServer } from './server';

freshServer();
freshBrowser();

// The language a merchant picks on /login is the one the signed-in portal opens in, with its
// dates; the settings panel changes it at once, and the choice survives a reload.

test.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])(
  'Japanese on /login, signed in in Japanese with Japanese dates, Turkish from the settings panel (%s)',
  async (name, viewport) => {
    const { context, page } = await openPage(viewport);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitemradio', { name: 'Japanese' }).click();
    await page.getByRole('heading', { name: 'サインイン' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('ja');
    await snap(page, `login-ja-${name}`);

    await page.getByLabel('ユーザー名またはメールアドレス').fill(DEMO.username);
    await page.getByLabel('パスワード', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'サインイン' }).click();
    await page.getByLabel('4桁のPIN', { exact: true }).fill(DEMO.pin);
    await page.getByRole('button', { name: 'サインイン' }).click();
    await page.waitForURL('**/app/dashboard');
    await page.waitForFunction(() => document.title === 'ホーム | CryptoSafeLock 加盟店ポータル');
    // moment's Japanese locale: the demo's recent activity is dated 2026年11月30日 14:05.
    await page
      .getByText(/\d{4}年\d{1,2}月\d{1,2}日/)
      .first()
      .waitFor();
    await snap(page, `dashboard-ja-${name}`);

    await page.getByRole('button', { name: '設定' }).click();
    await page.getByRole('button', { name: /^言語/ }).click();
    await page.getByRole('button', { name: 'Türkçe' }).click();
    // At once, without a reload.
    await page.getByRole('button', { name: 'Ayarlar' }).waitFor();
    await page.waitForFunction(
      () => document.title === 'Ana Sayfa | CryptoSafeLock Üye İşyeri Portalı',
    );
    await page.reload();
    await page.getByRole('button', { name: 'Ayarlar' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('tr');
    await snap(page, `dashboard-tr-${name}`);
    await context.close();
  },
);
