import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp, insertReceive, insertSend } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { derivedDailyUsage, storedDailyUsage } from '../../domain/apps/usage';
import { down, up } from './0410_invoice_counts_once';

// Migration 0410 on rows already there: an invoice settled in two methods before it (two credited
// rows, two transactions) counts once after it, deposits and withdrawals as they were; down
// gives back 0230's counts and triggers.

describe('migration 0410: an invoice counts once', () => {
  const t = testAppPerBlock();
  const at = '2026-11-20T10:00:00.000Z';
  const appId = 'app_m0410';
  // Migrations take the untyped database they run on.
  const untyped = () => t.db as unknown as Kysely<unknown>;

  beforeAll(async () => {
    const userId = await addUser(t, 'm0410_owner');
    await insertApp(t, { id: appId, user_id: userId, created_at: at });
  });

  /** The app's daily totals by method: transactions, credited rows, amounts. */
  const days = async () =>
    (await storedDailyUsage(t.db, appId)).map((d) => [
      d.paymentMethodId,
      d.deposit_count,
      d.depositRows,
      d.deposit_micro,
      d.withdraw_count,
    ]);

  /** deposit_count by method, as 0230 keeps it. */
  const oldCounts = async () =>
    (
      await t.db
        .selectFrom('app_daily_usage')
        .select(['payment_method_id', 'deposit_count'])
        .where('app_id', '=', appId)
        .orderBy('payment_method_id')
        .execute()
    ).map((d) => [d.payment_method_id, Number(d.deposit_count)]);

  it('counts an invoice settled in two methods once, and gives 0230’s counts back on down', async () => {
    // As the database was before the migration.
    await down(untyped());
    await t.db
      .insertInto('invoices')
      .values({
        id: 'inv_m0410',
        app_id: appId,
        order_id: null,
        amount: '49.90',
        currency: 'EUR',
        status: 'settled',
        invalid_reason: null,
        mark_reason: null,
        description: null,
        buyer_email: null,
        metadata: null,
        redirect_url: null,
        checkout_url: 'https://pay.example.com/pay/inv_m0410',
        underpayment_tolerance: '0',
        late_window_minutes: 60,
        derivation_index: 410,
        created_at: at,
        expires_at: at,
        updated_at: at,
        settled_at: at,
      })
      .execute();
    const address = '0x1111111111111111111111111111111111111111';
    const option = (payment_method_id: string, position: number) => ({
      invoice_id: 'inv_m0410',
      payment_method_id,
      position,
      chain_id: 56,
      address,
      token_contract: null,
      amount_due_raw: '1',
      rate: '1',
      rate_source: 'peg:USDT/USD',
      rate_at: at,
    });
    await t.db
      .insertInto('invoice_payment_options')
      .values([option('pm_usdt_bsc', 0), option('pm_bnb', 1)])
      .execute();
    const credited = (id: string, method: string, uniqueId: string, micro: number) =>
      insertReceive(t, {
        id,
        app_id: appId,
        payment_method_id: method,
        unique_id: uniqueId,
        amount_micro: micro,
        deposit_status: 3,
        created_at: at,
        credited_at: at,
        address,
      });
    // The invoice's two deposits (the BNB one listed first), and a deposit to an account.
    await credited('rcv_m0410_bnb', 'pm_bnb', 'inv_m0410', 50_000);
    await credited('rcv_m0410_usdt', 'pm_usdt_bsc', 'inv_m0410', 20_000_000);
    await credited('rcv_m0410_account', 'pm_bnb', 'customer-1', 1_000_000);
    await insertSend(t, {
      id: 'snd_m0410',
      app_id: appId,
      amount_micro: 3_000_000,
      to_address: address,
      status: 1,
      created_at: at,
    });
    // A transaction per credited row (deposit_rows is not there yet).
    expect(await oldCounts()).toEqual([
      ['pm_bnb', 2],
      ['pm_usdt_bsc', 1],
    ]);

    await up(untyped());
    const rows = await t.db
      .selectFrom('receive_transactions')
      .select(['id', 'tnx_count'])
      .where('app_id', '=', appId)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'rcv_m0410_account', tnx_count: 1 },
      { id: 'rcv_m0410_bnb', tnx_count: 0 },
      { id: 'rcv_m0410_usdt', tnx_count: 1 },
    ]);
    expect(await days()).toEqual([
      ['pm_bnb', 1, 2, 1_050_000n, 0],
      ['pm_usdt_bsc', 1, 1, 20_000_000n, 1],
    ]);
    expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));

    // The new triggers keep them: the account's deposit goes, the invoice's BNB day stays.
    await t.db.deleteFrom('receive_transactions').where('id', '=', 'rcv_m0410_account').execute();
    expect(await days()).toEqual([
      ['pm_bnb', 0, 1, 50_000n, 0],
      ['pm_usdt_bsc', 1, 1, 20_000_000n, 1],
    ]);
    expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));

    await down(untyped());
    const columns = await t.db.introspection.getTables();
    const columnsOf = (table: string) =>
      columns.find((c) => c.name === table)?.columns.map((c) => c.name) ?? [];
    expect(columnsOf('receive_transactions')).not.toContain('tnx_count');
    expect(columnsOf('app_daily_usage')).not.toContain('deposit_rows');
    // 0230's counts (a transaction per credited row), kept by 0230's triggers again.
    await insertReceive(t, {
      id: 'rcv_m0410_later',
      app_id: appId,
      payment_method_id: 'pm_bnb',
      unique_id: 'customer-2',
      amount_micro: 1_000_000,
      deposit_status: 3,
      created_at: at,
      credited_at: at,
    });
    expect(await oldCounts()).toEqual([
      ['pm_bnb', 2],
      ['pm_usdt_bsc', 1],
    ]);

    // And up again, as a migration run would.
    await up(untyped());
    expect(await days()).toEqual([
      ['pm_bnb', 1, 2, 1_050_000n, 0],
      ['pm_usdt_bsc', 1, 1, 20_000_000n, 1],
    ]);
    expect(await storedDailyUsage(t.db, appId)).toEqual(await derivedDailyUsage(t.db, appId));
  });
});
