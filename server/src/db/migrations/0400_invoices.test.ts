import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0400_invoices';

describe('migration 0400: invoices', () => {
  const t = testAppPerBlock();
  const at = '2026-11-01T09:00:00.000Z';
  let appId = '';

  beforeAll(async () => {
    const userId = await addUser(t, 'invoice_owner');
    appId = 'app_inv_m';
    await insertApp(t, { id: appId, user_id: userId, created_at: at });
  });

  const invoice = (id: string, derivationIndex: number) => ({
    id,
    app_id: appId,
    order_id: 'order-1',
    amount: '49.90',
    currency: 'EUR',
    status: 'new' as const,
    invalid_reason: null,
    mark_reason: null,
    description: null,
    buyer_email: null,
    metadata: '{"z":1,"a":[true,null],"é":"ü"}',
    redirect_url: null,
    checkout_url: `https://pay.example.com/pay/${id}`,
    underpayment_tolerance: '0.5',
    late_window_minutes: 60,
    derivation_index: derivationIndex,
    created_at: at,
    expires_at: '2026-11-01T09:15:00.000Z',
    updated_at: at,
    settled_at: null,
  });

  const payment = (id: string, invoiceId: string) => ({
    id,
    invoice_id: invoiceId,
    app_id: appId,
    payment_method_id: 'pm_usdt_bsc',
    chain_id: 56,
    tx_hash: '0xabc',
    log_index: 0,
    block_number: 1042,
    amount_raw: '123456789012345678901234567890',
    value: '114311841678097850834476451.75',
    confirmations: 1,
    status: 'pending' as const,
    late: 0 as const,
    created_at: at,
    seen_at: at,
  });

  it('keeps prices, amounts, rates and metadata exactly as written, on both engines', async () => {
    // Address indices far above the demo store's invoices'.
    await t.db.insertInto('invoices').values(invoice('inv_m1', 1_000_001)).execute();
    await t.db
      .insertInto('invoice_payment_options')
      .values({
        invoice_id: 'inv_m1',
        payment_method_id: 'pm_usdt_bsc',
        position: 1,
        chain_id: 56,
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        token_contract: '0x55d398326f99059fF775485246999027B3197955',
        amount_due_raw: '53900000000000000000',
        rate: '0.925925925925925926',
        rate_source: 'peg:USDT/USD+table:EUR/USD',
        rate_at: at,
      })
      .execute();
    await t.db.insertInto('invoice_payments').values(payment('ipay_m1', 'inv_m1')).execute();

    const stored = await t.db
      .selectFrom('invoices')
      .innerJoin('invoice_payment_options as o', 'o.invoice_id', 'invoices.id')
      .innerJoin('invoice_payments as p', 'p.invoice_id', 'invoices.id')
      .select([
        'invoices.amount',
        'invoices.metadata',
        'invoices.paid_partial',
        'invoices.paid_over',
        'invoices.paid_late',
        'invoices.marked',
        'invoices.expires_at',
        'o.amount_due_raw',
        'o.rate',
        'p.amount_raw',
        'p.value',
        'p.block_number',
      ])
      .where('invoices.id', '=', 'inv_m1')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      amount: '49.90',
      metadata: '{"z":1,"a":[true,null],"é":"ü"}',
      paid_partial: 0,
      paid_over: 0,
      paid_late: 0,
      marked: 0,
      expires_at: '2026-11-01T09:15:00.000Z',
      amount_due_raw: '53900000000000000000',
      rate: '0.925925925925925926',
      amount_raw: '123456789012345678901234567890',
      value: '114311841678097850834476451.75',
      block_number: 1042,
    });
  });

  // The driver's errors come from outside Jest's sandbox, where toThrow does not always know
  // them for errors: their messages are matched instead.
  const refused = { message: expect.stringMatching(/unique|duplicate/i) };

  it('records a transfer once, and gives each invoice an address index of its own', async () => {
    await t.db.insertInto('invoices').values(invoice('inv_m2', 1_000_002)).execute();
    await expect(
      t.db.insertInto('invoice_payments').values(payment('ipay_m2', 'inv_m2')).execute(),
    ).rejects.toMatchObject(refused);
    await expect(
      t.db.insertInto('invoices').values(invoice('inv_m3', 1_000_002)).execute(),
    ).rejects.toMatchObject(refused);
  });

  it('gives the apps there are the default invoice settings: no tolerance, a 60-minute late window', async () => {
    // As the database was before the migration: no invoice tables (nor a later table that refers
    // to them), no settings on apps.
    for (const table of [
      'refunds',
      'payment_link_visits',
      'invoice_payments',
      'invoice_payment_options',
      'invoices',
      'rate_table',
    ]) {
      await t.db.schema.dropTable(table).execute();
    }
    for (const column of ['invoice_underpayment_tolerance', 'invoice_late_window_minutes']) {
      await t.db.schema.alterTable('apps').dropColumn(column).execute();
    }
    // Migrations take the untyped database they run on.
    await up(t.db as unknown as Kysely<unknown>);

    const app = await t.db
      .selectFrom('apps')
      .select(['invoice_underpayment_tolerance', 'invoice_late_window_minutes'])
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(app).toEqual({ invoice_underpayment_tolerance: '0', invoice_late_window_minutes: 60 });
  });
});
