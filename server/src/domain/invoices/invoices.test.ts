import { insertMerchantApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf, openDb } from '../../db/connection';
import { chainAdapterFor } from '../chain';
import { resolveWalletXpub } from '../chain/walletKey';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { createInvoice } from './invoices';

// A flash sale's invoices: those one process creates together are stored in one transaction,
// and each is still whole: its own address, its options, its `invoice.created` event and that
// event's delivery, numbered in the app's order of events.

const t = testAppPerBlock();

beforeAll(async () => {
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
});

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

it('stores invoices created together in one transaction, each with its event', async () => {
  const { appId } = await insertMerchantApp(t, 'sale', ['invoices:write']);
  await t.db
    .updateTable('apps')
    .set({ callback_url: 'https://shop.example.com/hooks' })
    .where('id', '=', appId)
    .execute();
  const { db, statements, create } = tracedCreation(appId);
  try {
    const orders = Array.from({ length: 8 }, (_, i) => `ORD-${i}`);
    const created = await Promise.all(orders.map(create));

    const inserts = statements.filter((q) => /^insert into "invoices"/.test(q));
    // On SQLite the reads before the store answer at once, so all eight reach it in one turn; on
    // PostgreSQL they reach it as their round trips come back, the later ones together.
    if (engineOf(db) === 'sqlite') expect(inserts).toHaveLength(1);
    else expect(inserts.length).toBeLessThan(orders.length);

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
