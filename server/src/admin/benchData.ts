import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { engineOf, type Db } from '../db/connection';
import { derivedDailyUsage, storedDailyUsage } from '../domain/apps/usage';
import { LocalChainAdapter } from '../domain/chain/localAdapter';
import { watchedMethods, type FoundTransfer } from '../domain/payments/depositScan';
import {
  queueDeepDeposits,
  recordTransfers,
  settleDeposits,
  type Settlement,
} from '../domain/payments/deposits';
import { postEntries, type NewLedgerEntry } from '../domain/billing/ledger';
import { recordEvent } from '../domain/webhooks/events';
import { COUNTED_TABLES, derivedRowCount, rowCount } from '../domain/maintainedCounts';
import { printTable, UsageError, userNamed, type AdminCommand } from './command';

// Large data for `npm run bench:api`: a year of wallet entries and gateway deposits
// for one merchant, written by the domain's own bulk paths (ledger postEntries; the watcher's
// recordTransfers, queueDeepDeposits and settleDeposits), so the counts, daily totals, events and
// indexes those paths maintain are maintained. Not part of any seed. The deposits are made-up
// transfers on BNB Smart Chain's local stand-in that the command, playing the chain, declares
// still there when they are settled: run it with the server stopped, or its watcher would read
// the local chain, find none of them and fail them.

const DAYS = 365;
const DAY_MS = 86_400_000;
const USDT_BEP20 = 'USDT-BEP20';

/** Random hex of `bytes` bytes, from one buffer drawn per day (many small draws cost more). */
function randomHex(count: number, bytes: number): () => string {
  const pool = randomBytes(count * bytes).toString('hex');
  let next = 0;
  return () => {
    const hex = pool.slice(next * bytes * 2, (next + 1) * bytes * 2);
    next += 1;
    return `0x${hex}`;
  };
}

/** The user's app that takes USDT (BEP20) and has a deposit account on BNB Smart Chain. */
async function benchApp(db: Db, userId: string) {
  const row = await db
    .selectFrom('apps')
    .innerJoin('app_payment_methods as upm', 'upm.app_id', 'apps.id')
    .innerJoin('payment_methods as pm', 'pm.id', 'upm.payment_method_id')
    .select(['apps.id', 'apps.callback_url', 'pm.id as method_id'])
    .where('apps.user_id', '=', userId)
    .where('pm.code', '=', USDT_BEP20)
    .orderBy('apps.created_at')
    .executeTakeFirst();
  if (!row) return undefined;
  const accounts = await db
    .selectFrom('app_accounts')
    .select(['app_id', 'unique_id', 'address'])
    .where('app_id', '=', row.id)
    .where('chain_id', '=', 56)
    .orderBy('created_at')
    .limit(100)
    .execute();
  return { ...row, accounts };
}

const largeData: AdminCommand = {
  name: 'bench large-data',
  usage: 'bench large-data <username> <rows>',
  description:
    "Benchmark data: <rows> wallet entries and <rows> credited USDT (BEP20) deposits over a year for the user's first app (server stopped; webhook off).",
  async run(args, { db }, io) {
    const [username, rowsText, extra] = args;
    const rows = Number(rowsText);
    if (!username || !Number.isSafeInteger(rows) || rows < 1 || extra !== undefined) {
      throw new UsageError('Wrong arguments.');
    }
    const user = await userNamed(db, io, username);
    if (!user) return 1;
    const app = await benchApp(db, user.id);
    if (!app || app.accounts.length === 0) {
      io.out(`${username} has no app with USDT (BEP20) in use and a deposit account on it.`);
      return 1;
    }
    if (app.callback_url) {
      // Every deposit would queue deliveries: millions of webhook jobs, not what is measured.
      io.out(`App ${app.id} takes webhooks: clear its Webhook URl first.`);
      return 1;
    }
    const chain = new LocalChainAdapter(db);
    const method = (await watchedMethods(db, chain)).find((m) => m.id === app.method_id);
    if (!method) throw new Error(`${USDT_BEP20} is not watched on the local chain`);

    if (engineOf(db) === 'sqlite') {
      // A load that can be made again: no waiting on the disk at each commit and checkpoint
      // (this connection only; a crash mid-way loses bench data, never a consistent file).
      await sql`PRAGMA synchronous = OFF`.execute(db);
    }
    const started = Date.now();
    const today = Date.UTC(
      new Date().getUTCFullYear(),
      new Date().getUTCMonth(),
      new Date().getUTCDate(),
    );
    let block = 100_000_000;
    let written = 0;
    for (let d = DAYS; d >= 1; d -= 1) {
      const dayStart = today - d * DAY_MS;
      // Spread evenly: the first (rows % DAYS) days take one more.
      const count = Math.floor(rows / DAYS) + (DAYS - d < rows % DAYS ? 1 : 0);
      const at = (i: number) => new Date(dayStart + Math.floor((i * DAY_MS) / count)).toISOString();

      const hash = randomHex(count * 2, 32);
      const address = randomHex(count, 20);
      const entries: NewLedgerEntry[] = [];
      for (let i = 0; i < count; i += 1) {
        entries.push({
          userId: user.id,
          tnx: hash(),
          amountMicro: BigInt(1 + (i % 500)) * 1_000_000n,
          type: 'credit',
          source: 'deposit',
          note: null,
          createdAt: at(i),
        });
      }
      await db.transaction().execute((trx) => postEntries(trx, entries));

      const found: FoundTransfer[] = [];
      for (let i = 0; i < count; i += 1) {
        const account = app.accounts[i % app.accounts.length];
        if (!account) continue;
        block += 1;
        found.push({
          method,
          account,
          flag: null,
          transfer: {
            txHash: hash(),
            logIndex: 0,
            from: address(),
            to: account.address,
            amount: BigInt(1 + (i % 500)) * 10n ** BigInt(method.decimals),
            blockNumber: block,
            timestamp: at(i),
            token: method.contract,
          },
        });
      }
      // As the watcher would have run that day: seen, deep enough, then verified and credited.
      const dayEnd = new Date(dayStart + DAY_MS - 1);
      await recordTransfers(db, found, dayEnd);
      await queueDeepDeposits(db, method.chainId, [method], block + method.confirmations);
      const queued = await db
        .selectFrom('receive_transactions')
        .select(['id', 'app_id', 'amount_raw'])
        .where('chain_id', '=', method.chainId)
        .where('deposit_status', '=', 2)
        .where('app_id', '=', app.id)
        .execute();
      const settlements: Settlement[] = queued.map((row) => ({
        id: row.id,
        appId: row.app_id,
        amountRaw: BigInt(row.amount_raw ?? '0'),
        reason: null,
      }));
      await settleDeposits(db, settlements, dayEnd);
      written += count;
      if (d % 30 === 0 || d === 1) {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        io.out(`${written} of ${rows} entries and deposits written (${seconds} s)`);
      }
    }
    io.out(`App ${app.id}: done in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
    return 0;
  },
};

const check: AdminCommand = {
  name: 'bench check',
  usage: 'bench check <username>',
  description:
    "Compare the user's kept row counts and daily totals with COUNT(*) and the totals derived from the rows.",
  async run(args, { db }, io) {
    const [username, extra] = args;
    if (!username || extra !== undefined) throw new UsageError('Wrong arguments.');
    const user = await userNamed(db, io, username);
    if (!user) return 1;
    const apps = await db.selectFrom('apps').select('id').where('user_id', '=', user.id).execute();
    const lines: Record<string, string>[] = [];
    let same = true;
    for (const kind of COUNTED_TABLES) {
      const owners = kind === 'ledger_entries' ? [user.id] : apps.map((a) => a.id);
      for (const owner of owners) {
        const kept = await rowCount(db, kind, owner);
        const counted = await derivedRowCount(db, kind, owner);
        same &&= kept === counted;
        lines.push({
          table: kind,
          owner,
          kept: String(kept),
          'COUNT(*)': String(counted),
          equal: kept === counted ? 'yes' : 'NO',
        });
      }
    }
    for (const app of apps) {
      const kept = await storedDailyUsage(db, app.id);
      const derived = await derivedDailyUsage(db, app.id);
      const equal = JSON.stringify(kept, jsonBigInt) === JSON.stringify(derived, jsonBigInt);
      same &&= equal;
      lines.push({
        table: 'app_daily_usage (days x methods)',
        owner: app.id,
        kept: String(kept.length),
        'COUNT(*)': `${derived.length} derived`,
        equal: equal ? 'yes' : 'NO',
      });
    }
    printTable(io, lines);
    io.out(same ? 'All kept counts and totals equal the rows.' : 'MISMATCH: see the table.');
    return same ? 0 : 1;
  },
};

const jsonBigInt = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;

/** The steps of one made-up deposit's events in a backlog, in the order they happen. */
const BACKLOG_STEPS = ['deposit.pending', 'deposit.confirmed', 'deposit.completed'] as const;
/** Events recorded per transaction. */
const BACKLOG_BATCH = 1_000;

const backlog: AdminCommand = {
  name: 'bench backlog',
  usage: 'bench backlog <username> <events>',
  description:
    "Benchmark data: <events> webhook events due now for the user's first app with a Webhook URl, as a receiver's outage leaves them (server stopped): each made-up deposit's pending, confirmed and completed, in order.",
  async run(args, { db }, io) {
    const [username, eventsText, extra] = args;
    const events = Number(eventsText);
    if (!username || !Number.isSafeInteger(events) || events < 1 || extra !== undefined) {
      throw new UsageError('Wrong arguments.');
    }
    const user = await userNamed(db, io, username);
    if (!user) return 1;
    const app = await db
      .selectFrom('apps')
      .select('id')
      .where('user_id', '=', user.id)
      .where('callback_url', 'is not', null)
      .orderBy('created_at')
      .executeTakeFirst();
    if (!app) {
      io.out(`${username} has no app with a Webhook URl.`);
      return 1;
    }
    const started = Date.now();
    const now = new Date();
    for (let from = 0; from < events; from += BACKLOG_BATCH) {
      await db.transaction().execute(async (trx) => {
        for (let i = from; i < Math.min(from + BACKLOG_BATCH, events); i += 1) {
          const n = Math.floor(i / BACKLOG_STEPS.length);
          const step = i % BACKLOG_STEPS.length;
          await recordEvent(trx, {
            appId: app.id,
            type: BACKLOG_STEPS[step] ?? 'deposit.pending',
            resourceId: `dep_backlog_${n}`,
            uniqueId: `customer-${n % 100}`,
            data: { id: `dep_backlog_${n}`, step },
            now,
          });
        }
      });
    }
    io.out(
      `${events} events due for ${app.id} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    return 0;
  },
};

export const benchCommands: AdminCommand[] = [largeData, check, backlog];
