import { sql, type Kysely } from 'kysely';
import { insertMerchantApp } from '../../../test/appRows';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0620_derivation_counters';

// Migration 0620 on a wallet already in use: each branch's counter starts after the largest index
// its table holds, and never below the floor Delete test data raised before it (an address
// deleted with a test app's data is never handed out again).

const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });

it('starts each counter after the indexes in use, and never below a floor', async () => {
  const { key } = await insertMerchantApp(t, 'counters', ['accounts:write', 'invoices:write']);
  const create = async (kind: 'accounts' | 'invoices', n: number, app: TestApp = t) => {
    const res = await app.inject({
      method: 'POST',
      url: `/gateway/v1/${kind}`,
      headers: { authorization: `Bearer ${key}` },
      payload:
        kind === 'accounts'
          ? { unique_id: `customer-${n}`, method: 'USDT-BEP20' }
          : { amount: '10.00', currency: 'USD', methods: ['USDT-BEP20'] },
    });
    expect(res.statusCode).toBe(201);
  };
  const largest = async (table: 'app_accounts' | 'invoices') =>
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.max('derivation_index').as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  for (let n = 0; n < 3; n += 1) await create('accounts', n);
  for (let n = 0; n < 2; n += 1) await create('invoices', n);
  const accounts = Number(await largest('app_accounts'));
  const floor = Number(await largest('invoices')) + 10;
  // As before the migration: the floors' table, and a floor for invoices past every one in use.
  await sql`alter table derivation_counters rename to derivation_floors`.execute(t.db);
  await sql`delete from derivation_floors`.execute(t.db);
  await sql`insert into derivation_floors (branch, next_index) values ('invoices', ${floor})`.execute(
    t.db,
  );

  await up(t.db as unknown as Kysely<unknown>);

  const counters = await t.db
    .selectFrom('derivation_counters')
    .select(['branch', 'next_index'])
    .orderBy('branch')
    .execute();
  expect(counters).toEqual([
    { branch: 'accounts', next_index: accounts + 1 },
    { branch: 'invoices', next_index: floor },
  ]);
  // The server that runs a migration is one that starts: a process with no index taken ahead.
  const restarted = await createTestApp({ beside: t, env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  try {
    await create('accounts', 3, restarted);
    await create('invoices', 2, restarted);
  } finally {
    await restarted.close();
  }
  expect(await largest('app_accounts')).toBe(accounts + 1);
  expect(await largest('invoices')).toBe(floor);
});
