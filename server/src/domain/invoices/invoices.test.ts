import { insertMerchantApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf, openDb } from '../../db/connection';
import { chainAdapterFor } from '../chain';
import { resolveWalletXpub } from '../chain/walletKey';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { deliverJobKey } from '../webhooks/events';
import { createInvoice } from './invoices';

// A flash sale's invoices: those one process creates together are stored in one transaction (on
// PostgreSQL one statement), and each is still whole: its own address, its options, its
// `invoice.created` event and that event's delivery, numbered in the app's order of events.

const t = testAppPerBlock();

beforeAll(async () => {
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
});

/** A merchant's app that may create invoices and takes webhooks; answers its id. */
async function appTakingWebhooks(name: string): Promise<string> {
  const { appId } = await insertMerchantApp(t, name, ['invoices:write']);
  await t.db
    .updateTable('apps')
    .set({ callback_url: 'https://shop.example.com/hooks' })
    .where('id', '=', appId)
    .execute();
  return appId;
}

/** Creates `appId`'s invoices through a database of its own that notes each statement. */
function tracedCreation(appId: string) {
  const statements: string[] = [];
  const db = openDb(
    { dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL },
    { log: (event) => void statements.push(event.query.sql) },
  );
  const rates = new RateBook({ db, config: t.config });
  const create = (orderId: string) =>
    createInvoice(db, rates, resolveWalletXpub(t.config), {
      appId,
      amount: '49.90',
      currency: 'EUR',
      orderId,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chainAdapterFor(t.config, db).tokenContract(listed),
    });
  return { db, statements, create };
}

it('stores invoices created together in one write, each with its event', async () => {
  const appId = await appTakingWebhooks('sale');
  const { db, statements, create } = tracedCreation(appId);
  try {
    const orders = Array.from({ length: 8 }, (_, i) => `ORD-${i}`);
    const created = await Promise.all(orders.map(create));

    // On SQLite the reads before the store answer at once, so all eight reach it in one turn,
    // one transaction; on PostgreSQL they reach it as their round trips come back, the later ones
    // together, each group one statement with no transaction around it.
    if (engineOf(db) === 'sqlite') {
      expect(statements.filter((q) => /^insert into "invoices"/.test(q))).toHaveLength(1);
    } else {
      const stores = statements.filter((q) =>
        /^with "?stored"? as \(insert into "invoices"/.test(q),
      );
      expect(stores.length).toBeGreaterThan(0);
      expect(stores.length).toBeLessThan(orders.length);
      expect(statements).not.toContain('begin');
    }

    const addresses = created.map((invoice) => invoice.payment_options[0]?.address);
    expect(new Set(addresses).size).toBe(orders.length);
    const rows = await t.db
      .selectFrom('invoices as i')
      .innerJoin('invoice_payment_options as o', 'o.invoice_id', 'i.id')
      .select(['i.id', 'i.order_id', 'o.address', 'o.amount_due_raw'])
      .where('i.app_id', '=', appId)
      .orderBy('i.order_id')
      .execute();
    expect(rows).toEqual(
      created.map((invoice) => ({
        id: invoice.id,
        order_id: invoice.order_id,
        address: invoice.payment_options[0]?.address,
        amount_due_raw: '53900000000000000000',
      })),
    );

    const events = await t.db
      .selectFrom('webhook_events as e')
      .innerJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
      .select(['e.type', 'e.resource_id', 'e.seq', 'e.body'])
      .where('e.app_id', '=', appId)
      .orderBy('e.seq')
      .execute();
    // One event each, with its delivery, numbered 1 to 8 in the order they were stored.
    expect(events.map((e) => Number(e.seq))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.every((e) => e.type === 'invoice.created')).toBe(true);
    // Each body is stored as the compact JSON that is signed and sent, on either engine.
    for (const e of events) expect(e.body).toBe(JSON.stringify(JSON.parse(e.body)));
    const bodies = new Map(events.map((e) => [e.resource_id, JSON.parse(e.body)]));
    for (const invoice of created) {
      expect(bodies.get(invoice.id)?.data).toMatchObject({
        id: invoice.id,
        order_id: invoice.order_id,
        status: 'new',
        payment_options: [
          expect.objectContaining({ address: invoice.payment_options[0]?.address }),
        ],
      });
    }
  } finally {
    await db.destroy();
  }
});

it('numbers an invoice, its event, its delivery and its job in the order they were made', async () => {
  const appId = await appTakingWebhooks('ordered');
  const rates = new RateBook({ db: t.db, config: t.config });
  const start = t.clock().getTime();
  // Made one after another, each a millisecond later than the last: their ids sort the same way,
  // so the tables' indexes grow at their ends.
  const made: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const invoice = await createInvoice(t.db, rates, resolveWalletXpub(t.config), {
      appId,
      amount: '10',
      currency: 'EUR',
      orderId: `LATER-${i}`,
      checkoutOrigin: 'https://pay.example.com',
      now: new Date(start + i),
      tokenOnChain: (_chainId, listed) => chainAdapterFor(t.config, t.db).tokenContract(listed),
    });
    made.push(invoice.id);
  }
  expect([...made].sort()).toEqual(made);
  const rows = await t.db
    .selectFrom('webhook_events as e')
    .innerJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
    .select(['e.resource_id', 'e.id as event', 'd.id as delivery'])
    .where('e.app_id', '=', appId)
    .orderBy('e.seq')
    .execute();
  expect(rows.map((row) => row.resource_id)).toEqual(made);
  // Each delivery's job, keyed by the delivery and its first wake.
  const jobs = await t.db
    .selectFrom('jobs')
    .select(['id', 'key', 'payload'])
    .where(
      'key',
      'in',
      rows.map((row) => deliverJobKey(row.delivery, 1)),
    )
    .execute();
  const jobOf = new Map(jobs.map((job) => [job.key, job.id]));
  const ordered = {
    event: rows.map((row) => row.event),
    delivery: rows.map((row) => row.delivery),
    job: rows.map((row) => jobOf.get(deliverJobKey(row.delivery, 1))),
  };
  expect(ordered.job).not.toContain(undefined);
  for (const ids of Object.values(ordered)) expect([...ids].sort()).toEqual(ids);
  // What the worker reads to know which delivery to make.
  const payloads = new Map(jobs.map((job) => [job.key, JSON.parse(job.payload) as unknown]));
  for (const row of rows) {
    expect(payloads.get(deliverJobKey(row.delivery, 1))).toEqual({
      deliveryId: row.delivery,
      wake: 1,
    });
  }
});

it('numbers the events of an app without webhooks and queues no delivery for them', async () => {
  const { appId } = await insertMerchantApp(t, 'quiet', ['invoices:write']);
  const off = await appTakingWebhooks('switched off');
  // Switched off, as after its endpoint answered 410 Gone.
  await t.db
    .insertInto('app_webhooks')
    .values({
      app_id: off,
      secret_enc: 'sealed',
      secret_created_at: t.clock().toISOString(),
      disabled_at: t.clock().toISOString(),
    })
    .execute();
  for (const id of [appId, off]) {
    const { db, create } = tracedCreation(id);
    try {
      await Promise.all(['A', 'B', 'C'].map(create));
    } finally {
      await db.destroy();
    }
    const events = await t.db
      .selectFrom('webhook_events as e')
      .leftJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
      .select(['e.seq', 'd.id as delivery'])
      .where('e.app_id', '=', id)
      .orderBy('e.seq')
      .execute();
    expect(events).toEqual([1, 2, 3].map((seq) => ({ seq, delivery: null })));
  }
});

it('queues the deliveries of an app that takes webhooks since its last invoice, whoever set them', async () => {
  const { appId } = await insertMerchantApp(t, 'late hooks', ['invoices:write']);
  const { db, statements, create } = tracedCreation(appId);
  const stores = () => statements.filter((q) => /^with "?stored"? as/.test(q));
  const delivering = (q: string) => q.includes('insert into webhook_deliveries');
  try {
    await create('FIRST');
    await create('SECOND');
    if (engineOf(db) === 'postgres') {
      // The first statement finds that the app takes no webhooks; the second leaves their
      // inserts out.
      expect(stores().map(delivering)).toEqual([true, false]);
    }
    // Set through another connection, as another process would: this one hears nothing of it.
    await t.db
      .updateTable('apps')
      .set({ callback_url: 'https://shop.example.com/hooks' })
      .where('id', '=', appId)
      .execute();
    await create('THIRD');
    await create('FOURTH');
    if (engineOf(db) === 'postgres') {
      // The third is refused without the deliveries and made again with them.
      expect(stores().map(delivering)).toEqual([true, false, false, true, true]);
    }
  } finally {
    await db.destroy();
  }
  const events = await t.db
    .selectFrom('webhook_events as e')
    .innerJoin('invoices as i', 'i.id', 'e.resource_id')
    .leftJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
    .select(['e.seq', 'i.order_id', 'd.id as delivery'])
    .where('e.app_id', '=', appId)
    .orderBy('e.seq')
    .execute();
  expect(events.map((e) => [Number(e.seq), e.order_id, e.delivery !== null])).toEqual([
    [1, 'FIRST', false],
    [2, 'SECOND', false],
    [3, 'THIRD', true],
    [4, 'FOURTH', true],
  ]);
});
