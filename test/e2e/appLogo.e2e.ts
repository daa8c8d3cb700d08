import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { freshServer } from './server';

// An app's logo end to end: the demo merchant uploads one in Merchant Setting (a PNG made here),
// sees its preview, and a checkout page of the app shows it in its header, loaded under the
// page's CSP (the harness fails on a violation), in place of the app's initial.

jest.setTimeout(180_000);

const server = freshServer();
freshBrowser();

/** One PNG chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 96 x 96 RGBA PNG: a teal disc with a white ring on a transparent ground. */
function logoPng(): Buffer {
  const side = 96;
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y += 1) {
    const row = Buffer.alloc(1 + side * 4); // filter byte 0, then RGBA pixels
    for (let x = 0; x < side; x += 1) {
      const r = Math.hypot(x - side / 2 + 0.5, y - side / 2 + 0.5);
      const pixel =
        r < 26
          ? [13, 148, 136, 255]
          : r < 34
            ? [255, 255, 255, 255]
            : r < 46
              ? [15, 118, 110, 255]
              : [0, 0, 0, 0];
      row.set(pixel, 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the merchant uploads a logo in Merchant Setting and the checkout shows it', async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });

  // A key that may create invoices, for the merchant's server (App Keys).
  await page.goto('/app/my-app/app_demo_store/app-keys');
  await page.getByLabel('Key Name').fill('Logo journey');
  await page.getByLabel('Create invoices').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const keyField = page.getByLabel('Your API Key');
  await keyField.waitFor();
  const key = await keyField.inputValue();

  await page.goto('/app/my-app/app_demo_store/merchant-setting');
  await page.getByLabel('Logo', { exact: true }).setInputFiles({
    name: 'store-logo.png',
    mimeType: 'image/png',
    buffer: logoPng(),
  });
  await page.getByText('Logo updated successfully').first().waitFor();
  const preview = page.getByRole('img', { name: /logo$/ });
  await preview.waitFor();
  const logoSrc = (await preview.getAttribute('src')) ?? '';
  expect(logoSrc).toMatch(/\/api\/images\/[0-9a-f]{32}\.png$/);
  await page.getByRole('button', { name: 'Remove' }).waitFor();
  await snap(page, 'app-logo-merchant-setting-desktop');
  await page.setViewportSize(PHONE);
  // The app's menu becomes a select once the page has seen the narrower screen.
  await page.getByRole('combobox', { name: 'App section' }).waitFor();
  await page.getByRole('button', { name: 'Remove' }).waitFor();
  await snap(page, 'app-logo-merchant-setting-phone');
  await context.close();

  // The merchant's server makes an invoice; the shopper's checkout shows the logo.
  const response = await fetch(`${server.baseUrl}/gateway/v1/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '12', currency: 'USD', methods: ['USDT-BEP20'] }),
  });
  expect(response.status).toBe(201);
  const invoice = (await response.json()) as { checkout_url: string };

  const shopper = await openPage(PHONE);
  await shopper.page.goto(new URL(invoice.checkout_url).pathname);
  const logo = shopper.page.locator('header.merchant img.logo-image');
  await logo.waitFor();
  expect(await logo.getAttribute('src')).toBe(new URL(logoSrc).pathname);
  expect(await logo.getAttribute('alt')).toBe('');
  // Loaded (not blocked by the CSP, not broken), drawn at the monogram's size.
  await shopper.page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('header.merchant img.logo-image');
    return img !== null && img.complete && img.naturalWidth === 96;
  });
  expect(await logo.boundingBox()).toMatchObject({ width: 40, height: 40 });
  expect(await shopper.page.locator('header.merchant span.logo').count()).toBe(0);
  await snap(shopper.page, 'app-logo-checkout-phone');
  await shopper.page.locator('header.merchant').screenshot({
    path: path.resolve(__dirname, '../../test-results/app-logo-checkout-header.png'),
  });
  await shopper.context.close();
});
