import { sql, type Kysely } from 'kysely';
import { insertMerchantApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0670_app_event_seqs';

// Migration 0670 on a gateway already in use: each app's event counter starts at its last event,
// so the next event takes the number after it.

const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });

it("starts each app's counter at its last event number", async () => {
  const { appId, key } = await insertMerchantApp(t, 'numbered', ['invoices:write']);
  const create = async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/gateway/v1/invoices',
      headers: { authorization: `Bearer ${key}` },
      payload: { amount: '10.00', currency: 'USD', methods: ['USDT-BEP20'] },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  };
  for (let n = 0; n < 3; n += 1) await create();
  // As before the migration: no counters.
  await sql`drop table app_event_seqs`.execute(t.db);

  await up(t.db as unknown as Kysely<unknown>);

  const invoice = await create();
  const events = await t.db
    .selectFrom('webhook_events')
    .select(['resource_id', 'seq'])
    .where('app_id', '=', appId)
    .orderBy('seq')
    .execute();
  expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  expect(events.at(-1)?.resource_id).toBe(invoice);
});
