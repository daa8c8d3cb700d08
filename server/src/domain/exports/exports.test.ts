import { parse } from 'csv-parse/sync';
import { insertMerchantApp, insertReceive, insertSend } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { EXPORT_KINDS, type ExportKindName } from './kinds';
import { exportCsv, planExport } from './stream';

// Every kind, read from a store holding what a shopper, an integrator or an operator could type
// into its text columns: no cell of the CSV starts a formula.

const t = testAppPerBlock();

/** The start of each formula a spreadsheet would run, in a value somebody else chose. */
const HOSTILE = ['=HYPERLINK("http://evil.test")', '+1+cmd', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'];
const hostile = (i: number): string => HOSTILE[i % HOSTILE.length] ?? '=1';

async function csvOf(
  kind: ExportKindName,
  ownerId: string,
  version?: number,
  range: { from?: string; to?: string } = {},
): Promise<string> {
  const plan = planExport({ kind, version, ...range });
  let text = '';
  for await (const piece of exportCsv({ db: t.db, ownerId, feeLeg: false }, plan, { bom: false })) {
    text += piece;
  }
  return text;
}

let appId = '';
let userId = '';

beforeAll(async () => {
  ({ appId, userId } = await insertMerchantApp(t, 'csv', []));
  const at = t.clock().toISOString();
  // Operator data too (a method's or a package's name): every text a kind shows.
  await t.db
    .updateTable('payment_methods')
    .set({ name: hostile(0), network_name: hostile(1) })
    .where('id', '=', 'pm_usdt_bsc')
    .execute();
  await t.db
    .updateTable('packages')
    .set({ name: hostile(2) })
    .where('id', '=', 'pkg_starter')
    .execute();
  await insertReceive(t, {
    id: 'rcv_csv',
    app_id: appId,
    unique_id: hostile(0),
    amount_micro: 25_000_000,
    deposit_status: 1,
    created_at: at,
    failure_reason: hostile(1),
    address: hostile(2),
    thash: hostile(3),
    gas_transfer_txid: hostile(4),
    collect_txid: hostile(5),
    credited_at: at,
  });
  await insertSend(t, {
    id: 'wd_csv',
    app_id: appId,
    amount_micro: 10_000_000,
    to_address: hostile(0),
    status: 6,
    created_at: at,
    unique_id: hostile(1),
    failure_reason: hostile(2),
    thash: hostile(3),
  });
  await t.db
    .insertInto('app_accounts')
    .values({
      id: 'acc_csv',
      app_id: appId,
      payment_method_id: null,
      unique_id: hostile(4),
      address: hostile(5),
      created_at: at,
    })
    .execute();
  await t.db
    .insertInto('api_logs')
    .values({
      id: 'log_csv',
      app_id: appId,
      method: 'POST',
      route: hostile(0),
      ip: hostile(1),
      status: 200,
      created_at: at,
    })
    .execute();
  await t.db
    .insertInto('webhook_events')
    .values({
      id: 'evt_csv',
      app_id: appId,
      type: hostile(2),
      resource_id: hostile(3),
      resource_seq: 1,
      unique_id: hostile(4),
      body: '{}',
      created_at: at,
      seq: 1,
      pruned_at: null,
    })
    .execute();
  await t.db
    .insertInto('webhook_deliveries')
    .values({
      id: 'whd_csv',
      event_id: 'evt_csv',
      app_id: appId,
      resource_id: hostile(3),
      resource_seq: 1,
      redelivery_of: null,
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
      wake_seq: 0,
      last_status_code: 500,
      last_error: hostile(0),
      created_at: at,
      updated_at: at,
    })
    .execute();
  await t.db
    .insertInto('payment_links')
    .values({
      id: 'pl_csv',
      app_id: appId,
      slug: hostile(0),
      title: hostile(1),
      description: hostile(2),
      amount: '5',
      amount_min: null,
      amount_max: null,
      currency: 'USD',
      methods: null,
      redirect_url: null,
      expires_at: null,
      max_uses: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await t.db
    .insertInto('invoices')
    .values({
      id: 'inv_csv',
      app_id: appId,
      order_id: hostile(0),
      amount: '12.5',
      currency: 'USD',
      status: 'new',
      invalid_reason: null,
      mark_reason: hostile(1),
      description: hostile(2),
      buyer_email: hostile(3),
      metadata: null,
      redirect_url: null,
      checkout_url: 'https://pay.test/inv_csv',
      underpayment_tolerance: '0',
      late_window_minutes: 60,
      derivation_index: 987_654,
      created_at: at,
      expires_at: at,
      updated_at: at,
      settled_at: null,
      payment_link_id: 'pl_csv',
    })
    .execute();
  await t.db
    .insertInto('invoice_payments')
    .values({
      id: 'ipay_csv',
      invoice_id: 'inv_csv',
      app_id: appId,
      payment_method_id: 'pm_usdt_bsc',
      chain_id: 56,
      tx_hash: hostile(5),
      log_index: 0,
      block_number: 1,
      amount_raw: '12500000000000000000',
      value: '12.5',
      confirmations: 1,
      status: 'pending',
      late: 0,
      created_at: at,
      seen_at: at,
      flag: null,
      accepted_at: null,
      paid_to: null,
    })
    .execute();
  await t.db
    .insertInto('refunds')
    .values({
      id: 'ref_csv',
      app_id: appId,
      invoice_id: 'inv_csv',
      payment_method_id: 'pm_usdt_bsc',
      status: 'failed',
      amount_raw: '1000000000000000000',
      amount_kind: 'custom',
      requested_amount: null,
      requested_currency: null,
      rate_kind: 'original',
      rate: null,
      reason: hostile(0),
      paid_to: hostile(1),
      from_address: hostile(2),
      address: hostile(3),
      address_source: 'merchant',
      claim_token_hash: null,
      claim_token_sealed: null,
      claim_expires_at: null,
      claimed_at: null,
      request_mac: null,
      send_id: null,
      waiting_message: null,
      failure_reason: hostile(5),
      created_at: at,
      updated_at: at,
    })
    .execute();
  await t.db
    .insertInto('ledger_entries')
    .values({
      id: 'le_csv',
      user_id: userId,
      tnx: hostile(0),
      amount_micro: 1_000_000,
      type: 'debit',
      source: hostile(1),
      note: hostile(2),
      created_at: at,
    })
    .execute();
  await t.db
    .insertInto('deposits')
    .values({
      id: 'top_csv',
      user_id: userId,
      tx_hash: hostile(3),
      amount_micro: 1_000_000,
      status: 1,
      created_at: at,
    })
    .execute();
});

describe('CSV injection', () => {
  it.each(Object.keys(EXPORT_KINDS) as ExportKindName[])(
    'makes every cell of %s inert',
    async (kind) => {
      const ownerId = EXPORT_KINDS[kind].owner === 'app' ? appId : userId;
      const records = parse(await csvOf(kind, ownerId)) as string[][];
      // A header and at least one row, so the check below has cells to look at.
      expect(records.length).toBeGreaterThan(1);
      const cells = records.flat();
      expect(
        cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell)),
      ).toEqual([]);
      // The hostile values are there, one apostrophe in front.
      expect(cells.some((cell) => HOSTILE.some((value) => cell === `'${value}`))).toBe(true);
    },
  );
});

describe('an export', () => {
  it('lists the rows newest first with exact amounts and its token in a column of its own', async () => {
    const later = new Date(t.clock().getTime() + 1000).toISOString();
    await insertReceive(t, {
      id: 'rcv_csv2',
      app_id: appId,
      unique_id: 'cust-2',
      amount_micro: 1_234_567,
      deposit_status: 0,
      created_at: later,
    });
    const [header, first] = parse(await csvOf('deposits', appId)) as string[][];
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
    expect(first?.slice(0, 9)).toEqual([
      'rcv_csv2',
      later,
      'cust-2',
      'USDT-BEP20',
      `'${hostile(0)}`,
      `'${hostile(1)}`,
      '56',
      '1.234567',
      'pending',
    ]);
  });

  it('reads in chunks without losing or repeating a row, rows of one time included', async () => {
    const at = new Date(t.clock().getTime() + 5000).toISOString();
    for (let i = 0; i < 7; i++) {
      await insertReceive(t, {
        id: `rcv_chunk${i}`,
        app_id: appId,
        unique_id: `c${i}`,
        amount_micro: 1,
        deposit_status: 0,
        created_at: at,
      });
    }
    const plan = planExport({ kind: 'deposits', from: at });
    const ids: string[] = [];
    for await (const piece of exportCsv({ db: t.db, ownerId: appId, feeLeg: false }, plan, {
      bom: true,
      chunkSize: 3,
    })) {
      ids.push(...(parse(piece.replace(/^\ufeff/, '')) as string[][]).map((r) => r[0] ?? ''));
    }
    expect(ids).toEqual([
      'id',
      'rcv_chunk6',
      'rcv_chunk5',
      'rcv_chunk4',
      'rcv_chunk3',
      'rcv_chunk2',
      'rcv_chunk1',
      'rcv_chunk0',
    ]);
  });

  it('sums the Daily Logs per method for Usage, over the UTC days the range touches', async () => {
    const { appId: usageApp } = await insertMerchantApp(t, 'csv_usage', []);
    const day = 86_400_000;
    // Noon, so the minute after the third day's first deposit is the same day.
    const start = Date.parse('2026-10-01T12:00:00.000Z');
    for (const [i, offset] of [0, 2 * day, 2 * day + 60_000].entries()) {
      const at = new Date(start + offset).toISOString();
      await insertReceive(t, {
        id: `rcv_usage${i}`,
        app_id: usageApp,
        unique_id: `u${i}`,
        amount_micro: 1_500_000 * (i + 1),
        deposit_status: 1,
        created_at: at,
        credited_at: at,
      });
    }
    const records = async (from?: string, to?: string) => {
      const text = await csvOf('usage', usageApp, undefined, { from, to });
      const [header = [], ...rows] = parse(text) as string[][];
      return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
    };
    // The Daily Logs' days, as that export reads them.
    const days = (parse(await csvOf('daily_logs', usageApp)) as string[][])
      .slice(1)
      .map((row) => row[0] ?? '');
    expect(days).toEqual(['2026-10-03', '2026-10-01']);
    const [last = '', first = ''] = days;
    expect(await records()).toEqual([
      expect.objectContaining({
        method: 'pm_usdt_bsc',
        first_day: first,
        last_day: last,
        deposit_count: '3',
        deposit_volume: '9',
        payout_volume: '9',
      }),
    ]);
    // From noon of the last day: that whole day counts (a day's figures are not split).
    expect(await records(`${last}T12:00:00.000Z`)).toEqual([
      expect.objectContaining({ first_day: last, last_day: last, deposit_volume: '7.5' }),
    ]);
    // To the last day's start, left out: the first day only.
    expect(await records(undefined, `${last}T00:00:00.000Z`)).toEqual([
      expect.objectContaining({ first_day: first, last_day: first, deposit_volume: '1.5' }),
    ]);
    expect(await records(`${last}T00:00:00.001Z`, `${last}T00:00:00.002Z`)).toHaveLength(1);
    // The Daily Logs take the range the same way, a day each row.
    const logs = await csvOf('daily_logs', usageApp, undefined, { from: `${last}T12:00:00.000Z` });
    expect((parse(logs) as string[][]).slice(1).map((row) => row[0])).toEqual([last]);
  });

  it('refuses an unknown kind or version and a range that ends before it starts', () => {
    expect(() => planExport({ kind: 'secrets' })).toThrow("There is no export 'secrets'");
    expect(() => planExport({ kind: 'deposits', version: 9 })).toThrow(
      'The deposits export has versions 1 to 1, not 9.',
    );
    expect(() =>
      planExport({ kind: 'deposits', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
    ).toThrow('to must not be before from.');
  });
});
