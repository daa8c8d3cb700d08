import { addUser } from '../../test/accounts';
import { insertApp, insertReceive, insertSend } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import type { DepositStatus, SendStatus } from '../db/schema';
import { planTransactionCounts } from './apps/plan';
import { dailyLogs, derivedDailyUsage, storedDailyUsage } from './apps/usage';
import type { FoundTransfer, WatchedMethod } from './payments/depositScan';
import { queueDeepDeposits, recordTransfers, settleDeposits } from './payments/deposits';
import { postEntries, postEntry } from './billing/ledger';
import { COUNTED_TABLES, derivedRowCount, rowCount, rowCounts } from './maintainedCounts';
import { chainAmountToMicro } from './money';

// The kept counts (row_counts) and daily totals (app_daily_usage) against the rows they are
// kept for: whatever writes the rows (one at a time, many per statement, status changes,
// deletes such as a retention would make), rebuilding them from the rows gives the same.

describe('counts and daily totals kept by the writing transactions', () => {
  const t = testAppPerBlock();
  const APP = 'app_counts';
  const OTHER = 'app_counts_other';
  let userId = '';

  async function expectKeptEqualsRows() {
    for (const kind of COUNTED_TABLES) {
      for (const owner of kind === 'ledger_entries' ? [userId] : [APP, OTHER]) {
        expect({ kind, owner, n: await rowCount(t.db, kind, owner) }).toEqual({
          kind,
          owner,
          n: await derivedRowCount(t.db, kind, owner),
        });
      }
    }
    for (const app of [APP, OTHER]) {
      expect(await storedDailyUsage(t.db, app)).toEqual(await derivedDailyUsage(t.db, app));
      // Several kinds in one query read what one kind at a time does (0 for a kind never had).
      const kinds = COUNTED_TABLES.filter((kind) => kind !== 'ledger_entries');
      const one = Object.fromEntries(
        await Promise.all(kinds.map(async (kind) => [kind, await rowCount(t.db, kind, app)])),
      );
      expect(await rowCounts(t.db, kinds, app)).toEqual(one);
    }
    await expectSplitEqualsRows();
  }

  /**
   * The kept fee and net amounts per app and method equal each credited row's fee_raw and
   * amount_raw less it, truncated to micro here in BigInt (rows without amount_raw: amount_micro,
   * no fee), whatever their size: the SQL truncates text, never casts raw amounts to int64.
   */
  async function expectSplitEqualsRows() {
    const rows = await t.db
      .selectFrom('receive_transactions as r')
      .innerJoin('payment_methods as pm', 'pm.id', 'r.payment_method_id')
      .select([
        'r.app_id',
        'r.payment_method_id',
        'r.amount_micro',
        'r.amount_raw',
        'r.fee_raw',
        'pm.decimals',
      ])
      .where('r.app_id', 'in', [APP, OTHER])
      .where('r.deposit_status', 'in', [1, 3, 4])
      .execute();
    const expected = new Map<string, { fee: bigint; net: bigint }>();
    for (const row of rows) {
      const key = `${row.app_id} ${row.payment_method_id}`;
      const sum = expected.get(key) ?? { fee: 0n, net: 0n };
      if (row.amount_raw === null) {
        sum.net += BigInt(row.amount_micro);
      } else {
        const fee = chainAmountToMicro(BigInt(row.fee_raw ?? '0'), row.decimals);
        sum.fee += fee;
        sum.net += chainAmountToMicro(BigInt(row.amount_raw), row.decimals) - fee;
      }
      expected.set(key, sum);
    }
    const kept = new Map<string, { fee: bigint; net: bigint }>();
    for (const app of [APP, OTHER]) {
      for (const day of await storedDailyUsage(t.db, app)) {
        const key = `${app} ${day.paymentMethodId}`;
        const sum = kept.get(key) ?? { fee: 0n, net: 0n };
        sum.fee += day.fee_micro;
        sum.net += day.net_micro;
        if (day.deposit_count > 0) kept.set(key, sum);
      }
    }
    expect(kept).toEqual(expected);
    // Some raw amounts of the walk are past int64 (18 decimals), and some rows carry a fee.
    expect(rows.some((r) => BigInt(r.amount_raw ?? '0') > 2n ** 63n)).toBe(true);
    expect([...expected.values()].some((v) => v.fee > 0n)).toBe(true);
  }

  /**
   * The plan's counts from the kept days (and the rows of a window's first, partial day) equal
   * the rule applied to every row: credited deposits by the time they were credited (recorded,
   * for rows without one), withdrawals by creation unless cancelled.
   */
  async function expectPlanCountsEqualRows() {
    const receiveRows = await t.db
      .selectFrom('receive_transactions')
      .select(['deposit_status', 'credited_at', 'created_at'])
      .where('app_id', 'in', [APP, OTHER])
      .execute();
    const sendRows = await t.db
      .selectFrom('send_transactions')
      .select(['status', 'created_at'])
      .where('app_id', 'in', [APP, OTHER])
      .execute();
    const at = (instant: string) => new Date(instant).getTime();
    const since = (start: string) =>
      receiveRows.filter(
        (r) =>
          [1, 3, 4].includes(r.deposit_status) && at(r.credited_at ?? r.created_at) >= at(start),
      ).length + sendRows.filter((r) => r.status !== 7 && at(r.created_at) >= at(start)).length;
    const windows = {
      all: '2026-01-01T00:00:00.000Z',
      midnight: '2026-11-12T00:00:00.000Z',
      midday: '2026-11-12T13:00:00.000Z',
      lastDay: '2026-11-14T05:00:00.000Z',
    };
    const expected = Object.fromEntries(
      Object.entries(windows).map(([name, start]) => [name, since(start)]),
    );
    expect(expected.all).toBeGreaterThan(0);
    expect(await planTransactionCounts(t.db, userId, windows)).toEqual(expected);
  }

  beforeAll(async () => {
    userId = await addUser(t, 'counted');
    await insertApp(t, { id: APP, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
    await insertApp(t, { id: OTHER, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
  });

  it('follows inserts, status changes and deletes, one row or many at a time', async () => {
    // A fixed pseudo-random walk, so a failure can be replayed.
    // Exact in BigInt (a float product past 2^53 loses the low bits and the walk degenerates),
    // scaled from the high bits (an LCG's low bits repeat with a short period).
    let seed = 7n;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245n + 12_345n) % 2n ** 31n;
      return Math.floor((Number(seed) / 2 ** 31) * n);
    };
    const day = () =>
      `2026-11-${String(10 + random(5)).padStart(2, '0')}T${String(random(24)).padStart(2, '0')}:00:00.000Z`;
    const receives: string[] = [];
    const sends: string[] = [];
    for (let step = 0; step < 300; step += 1) {
      const app = random(3) === 0 ? OTHER : APP;
      const method = random(2) === 0 ? 'pm_usdt_bsc' : 'pm_trx';
      switch (random(7)) {
        case 0: {
          const id = `rcv_walk_${step}`;
          const status = random(6) as DepositStatus;
          const micro = 1 + random(50_000_000);
          // From the watcher (raw base units, with dust below a micro-unit and sometimes up to
          // ~2,000 tokens: past int64 at 18 decimals) or from before it (amount_micro only).
          const raw =
            random(4) === 0
              ? null
              : BigInt(micro) *
                  BigInt(random(40_000) + 1) *
                  (method === 'pm_trx' ? 1n : 10n ** 12n) +
                (method === 'pm_trx' ? 0n : BigInt(random(1_000_000_000)));
          await insertReceive(t, {
            id,
            app_id: app,
            payment_method_id: method,
            unique_id: `c${step}`,
            amount_micro: micro,
            amount_raw: raw?.toString() ?? null,
            fee_raw: raw !== null && random(4) > 0 ? ((raw * 75n) / 10_000n).toString() : null,
            deposit_status: status,
            created_at: day(),
            credited_at: [1, 3, 4].includes(status) && random(4) > 0 ? day() : null,
          });
          receives.push(id);
          break;
        }
        case 1: {
          const id = `snd_walk_${step}`;
          await insertSend(t, {
            id,
            app_id: app,
            payment_method_id: method,
            amount_micro: 1 + random(50_000_000),
            to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
            status: random(8) as SendStatus,
            // Some pay a refund: counted apart among the withdrawals.
            refund_id: random(3) === 0 ? `rf_walk_${step}` : null,
            created_at: day(),
          });
          sends.push(id);
          break;
        }
        case 2: {
          // A status change, and sometimes the credit time with it.
          const id = receives[random(receives.length || 1)];
          if (!id) break;
          const status = random(6) as DepositStatus;
          await t.db
            .updateTable('receive_transactions')
            .set({
              deposit_status: status,
              ...([1, 3, 4].includes(status) && random(2) === 0 ? { credited_at: day() } : {}),
              // Credited again under another package: another fee.
              ...(random(4) === 0 ? { fee_raw: String(random(2_000_000_000)) } : {}),
            })
            .where('id', '=', id)
            .execute();
          break;
        }
        case 3: {
          const id = sends[random(sends.length || 1)];
          if (!id) break;
          await t.db
            .updateTable('send_transactions')
            .set({ status: random(8) as SendStatus, amount_micro: 1 + random(9_000_000) })
            .where('id', '=', id)
            .execute();
          break;
        }
        case 4: {
          // Several rows in one statement: a whole day of an app's receives changes status.
          await t.db
            .updateTable('receive_transactions')
            .set({ deposit_status: random(2) === 0 ? 1 : 5 })
            .where('app_id', '=', app)
            .where('created_at', '<', day())
            .execute();
          break;
        }
        case 5: {
          // Deletes, one row or many per statement (a retention job's kind of write).
          const [table, ids] =
            random(2) === 0
              ? (['receive_transactions', receives] as const)
              : (['send_transactions', sends] as const);
          const gone = ids.splice(random(ids.length || 1), 1 + random(3));
          if (gone.length > 0) await t.db.deleteFrom(table).where('id', 'in', gone).execute();
          break;
        }
        default: {
          await t.db
            .insertInto('api_logs')
            .values(
              Array.from({ length: 1 + random(3) }, (_, i) => ({
                id: `log_walk_${step}_${i}`,
                app_id: app,
                method: 'GET',
                route: '/gateway/v1/deposits',
                ip: '127.0.0.1',
                status: 200,
                created_at: day(),
              })),
            )
            .execute();
          if (random(4) === 0) {
            await t.db
              .deleteFrom('api_logs')
              .where('app_id', '=', app)
              .where('created_at', '<', day())
              .execute();
          }
        }
      }
    }
    await postEntry(t.db, {
      userId,
      tnx: 'one',
      amountMicro: 5_000_000n,
      type: 'credit',
      source: 'deposit',
      createdAt: day(),
    });
    await postEntries(
      t.db,
      Array.from({ length: 2_500 }, (_, i) => ({
        userId,
        tnx: `bulk${i}`,
        amountMicro: 1_000_000n,
        type: 'credit' as const,
        source: 'deposit',
        createdAt: day(),
      })),
    );
    await t.db.deleteFrom('ledger_entries').where('tnx', 'like', 'bulk1%').execute();
    await expectKeptEqualsRows();
    // Daily Logs' total is the days with something in them; a day holding only withdrawals not
    // completed yet counts for the plan, not in the logs.
    const page = await dailyLogs(t.db, APP, { limit: 10, offset: 0 }, { feeLeg: true });
    const logged = (await derivedDailyUsage(t.db, APP)).filter(
      (d) => d.deposit_count > 0 || d.withdraw_count > 0,
    );
    expect(page.total).toBe(logged.length);

    await expectPlanCountsEqualRows();
  });

  it("the watcher's bulk paths record, credit and count as one at a time does", async () => {
    const method: WatchedMethod = {
      id: 'pm_usdt_bsc',
      chainId: 56,
      asset: 'USDT',
      contract: '0x55d398326f99059fF775485246999027B3197955',
      decimals: 18,
      confirmations: 3,
      minimum: 10n ** 18n,
    };
    const account = { app_id: OTHER, unique_id: 'bulk-customer', address: '0x' + 'ab'.repeat(20) };
    const found: FoundTransfer[] = Array.from({ length: 2_100 }, (_, i) => ({
      method,
      account,
      flag: null,
      transfer: {
        txHash: `0x${i.toString(16).padStart(64, '0')}`,
        logIndex: 0,
        from: '0x' + 'cd'.repeat(20),
        to: account.address,
        // Every 100th below the minimum: recorded Failed, as the watcher does.
        amount: i % 100 === 0 ? 10n ** 17n : BigInt(1 + (i % 7)) * 10n ** 18n,
        blockNumber: 5_000 + i,
        timestamp: `2026-11-12T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
        token: method.contract,
      },
    }));
    const now = new Date('2026-11-13T00:00:00.000Z');
    expect(await recordTransfers(t.db, found, now)).toBe(2_100);
    // Seen again: nothing new.
    expect(await recordTransfers(t.db, found.slice(0, 1_500), now)).toBe(0);
    await queueDeepDeposits(t.db, 56, [method], 5_000 + 2_100 + 3);
    const queued = await t.db
      .selectFrom('receive_transactions')
      .select(['id', 'app_id', 'amount_raw'])
      .where('app_id', '=', OTHER)
      .where('unique_id', '=', account.unique_id)
      .where('deposit_status', '=', 2)
      .execute();
    expect(queued).toHaveLength(2_079);
    const settled = await settleDeposits(
      t.db,
      queued.map((row, i) => ({
        id: row.id,
        appId: row.app_id,
        amountRaw: BigInt(row.amount_raw ?? '0'),
        reason: i % 500 === 0 ? ('reorged' as const) : null,
      })),
      now,
    );
    expect(settled).toEqual({ credited: 2_074, failed: 5 });
    // Settled twice: nothing changes the second time.
    expect(
      await settleDeposits(
        t.db,
        queued.map((row) => ({ id: row.id, appId: row.app_id, amountRaw: 1n, reason: null })),
        now,
      ),
    ).toEqual({ credited: 0, failed: 0 });
    // Each deposit has its events in order: pending then confirmed (or failed), as one at a time.
    const events = await t.db
      .selectFrom('webhook_events')
      .select(['type', 'resource_seq'])
      .where('app_id', '=', OTHER)
      .where('resource_id', 'like', 'rcv%')
      .execute();
    const tally = (type: string, seq: number) =>
      events.filter((e) => e.type === type && Number(e.resource_seq) === seq).length;
    expect(tally('deposit.pending', 1)).toBe(2_079);
    expect(tally('deposit.failed', 1)).toBe(21);
    expect(tally('deposit.confirmed', 2)).toBe(2_074);
    expect(tally('deposit.failed', 2)).toBe(5);
    // The events API's cursor: the app's events numbered 1, 2, … with no gap or repeat, in the
    // order they were written (each deposit's pending before its confirmed or failed).
    const feed = await t.db
      .selectFrom('webhook_events')
      .select(['seq', 'resource_id', 'resource_seq'])
      .where('app_id', '=', OTHER)
      .orderBy('seq')
      .execute();
    expect(feed.map((e) => Number(e.seq))).toEqual(feed.map((_, i) => i + 1));
    const firstSeq = new Map<string, number>();
    for (const e of feed) {
      const before = firstSeq.get(e.resource_id);
      if (Number(e.resource_seq) === 1) firstSeq.set(e.resource_id, Number(e.seq));
      else expect(before).toBeLessThan(Number(e.seq));
    }
    await expectKeptEqualsRows();
    await expectPlanCountsEqualRows();
  });
});
