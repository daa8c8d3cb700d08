import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { DESKTOP, freshBrowser, openPage, PHONE, snap } from './browser';
import { DEMO, signIn } from './journeys';
import { freshServer } from './server';

// Download CSV on the Receive list: the file the browser saves holds the rows the list shows,
// in its order, every one of them (not one page), with exact amounts and the token apart.

jest.setTimeout(180_000);

freshServer();
freshBrowser();

test("the merchant downloads the Receive list as CSV and finds the list's rows in it", async () => {
  const { context, page } = await openPage(DESKTOP);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await snap(page, 'exports-receive');

  // The list's first page: client id and amount ('241.5344 USDT') of each row.
  const shown = await page
    .locator('table tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((td) => td.innerText)),
    );
  expect(shown).toHaveLength(10);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('deposits-v1.csv');
  const file = await download.path();
  const records = parse(fs.readFileSync(file, 'utf8')) as string[][];
  const [header, ...rows] = records;
  expect(header?.slice(0, 9)).toEqual([
    'id',
    'created_at',
    'unique_id',
    'method',
    'asset',
    'network',
    'chain_id',
    'amount',
    'status',
  ]);
  // Every row of the list (21), not only its first page, newest first as the list.
  expect(rows).toHaveLength(21);
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const firstPage = rows.slice(0, 10).map((row) => {
    const amount = row[column('amount')] ?? '';
    const [whole = '', fraction = ''] = amount.split('.');
    return [
      row[column('unique_id')],
      row[column('network')],
      `${whole}.${fraction.padEnd(4, '0').slice(0, 4)} ${row[column('asset')] ?? ''}`,
    ];
  });
  expect(firstPage).toEqual(shown);
  for (const row of rows) {
    expect(row[column('amount')]).toMatch(/^\d+(\.\d+)?$/);
    expect(row[column('created_at')]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
  }
  await context.close();
});

test('Download CSV on a phone', async () => {
  const { context, page } = await openPage(PHONE);
  await signIn(page, { username: DEMO.username, password: DEMO.password, code: DEMO.pin });
  await page.goto('/app/my-app/app_demo_store/transaction?view=receive');
  await page.getByText('Showing 1 to 10 of 21 results').waitFor();
  await page.getByRole('button', { name: 'Download CSV' }).waitFor();
  await snap(page, 'exports-receive-phone');
  await context.close();
});
