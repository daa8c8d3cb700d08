import type { DepositStatus } from '../../db/schema';
import { sumMicro } from '../../db/sums';
import { sql } from 'kysely';
import { engineOf, type Db } from '../../db/connection';
import { prepared, type Executor } from '../../db/prepared';
import { creditTermsOfApps } from '../apps/plan';
import { afterCursor, pageOf } from '../cursor';
import type { ChainAdapter } from '../chain/adapter';
import { addressKey, type SpecChainId } from '../chain/specChains';
import { depositRows, depositsOf, depositView, type GatewayDeposit } from './depositReads';
import { scanChain, watchedMethods, type FoundTransfer, type WatchedMethod } from './depositScan';
import { advanceInvoicePayments, recordInvoiceTransfers } from '../invoices/payments';
import { newId } from '../ids';
import { chainAmountToMicro, microToString, storedMicro } from '../money';
import { emitDepositEvents } from '../webhooks/events';

// The gateway's chain watcher: finds the transfers to the apps' deposit accounts (depositScan.ts
// reads them: token Transfer logs and top-level native transfers) and moves each receive row
// through the spec's statuses as the chain does:
//   0 Pending            seen, short of the method's confirmations;
//   2 Queued for Verif.  deep enough: its receipt is read again and must still hold it;
//   3 Hash Verified      credited to the app (awaiting gas: sweeps come with withdrawals);
//   5 Failed             below the method's minimum, or gone after a reorg (the portal's
//                        Re-initiate puts it back to 2, and it is verified again).
// Exactly once: a transfer is one row, keyed by (chain, tx hash, log index), a native transfer
// with NATIVE_LOG_INDEX, and every status change is a compare-and-set on the status it leaves,
// so an overlapping run (after a lost lease) changes nothing twice. The watcher runs as one
// recurring job per chain id of the spec, once across processes, on the local chain or over
// the chain's RPC.

/** The recurring job that runs `watchDeposits` on one chain (jobs/index.ts). */
export const watcherKind = (chainId: SpecChainId): string => `deposits.watch:${chainId}`;

export interface WatchResult {
  head: number;
  /** Transfers recorded for the first time. */
  seen: number;
  credited: number;
  failed: number;
  /** Payments to invoices recorded for the first time (invoices/payments.ts). */
  invoicePayments: number;
}

/** micro-USDT for the portal's figures; dust below a micro-unit shows as 0 (amount_raw is exact). */
function displayMicro(raw: bigint, decimals: number): number {
  const micro = chainAmountToMicro(raw, decimals);
  return micro <= 0n ? 0 : storedMicro(micro);
}

/** One pass on the adapter's chain: read new blocks, record new transfers, credit deep ones. */
export async function watchDeposits(
  db: Db,
  adapter: ChainAdapter,
  now: Date,
): Promise<WatchResult> {
  const methods = await watchedMethods(db, adapter);
  if (methods.length === 0) {
    return {
      head: await adapter.latestBlock(),
      seen: 0,
      credited: 0,
      failed: 0,
      invoicePayments: 0,
    };
  }
  const chainId = adapter.chainId;
  const scan = await scanChain(db, adapter, methods, now);
  const head = scan.head;
  const seen = await recordTransfers(db, scan.found, now);
  const invoicePayments = await recordInvoiceTransfers(db, scan.invoiceTransfers, head, now);
  await scan.advance();
  await advanceInvoicePayments(db, adapter, methods, head, now);
  await queueDeepDeposits(db, chainId, methods, head);
  const byId = new Map(methods.map((m) => [m.id, m]));
  const queued = await db
    .selectFrom('receive_transactions')
    .select([
      'id',
      'app_id',
      'payment_method_id',
      'address',
      'tx_hash',
      'log_index',
      'block_number',
      'amount_raw',
    ])
    .where('chain_id', '=', chainId)
    .where('deposit_status', '=', 2)
    .execute();
  // The receipts are read a few at a time, and every verdict is settled in one transaction: a
  // block that confirms fifty payments sends their fifty webhooks at once, not one by one.
  const verdicts: (Settlement | null)[] = [];
  for (let from = 0; from < queued.length; from += RECEIPT_READS) {
    verdicts.push(
      ...(await Promise.all(
        queued.slice(from, from + RECEIPT_READS).map(async (row): Promise<Settlement | null> => {
          const method = byId.get(row.payment_method_id);
          if (!method || row.tx_hash === null || row.log_index === null) return null;
          const amount = BigInt(row.amount_raw ?? '0');
          // The receipt, read again: the transfer must still be in the canonical chain, as
          // recorded.
          const onChain = await adapter.transferNow({
            txHash: row.tx_hash,
            logIndex: row.log_index,
            token: method.contract,
          });
          const still =
            onChain !== null &&
            row.address !== null &&
            addressKey(onChain.to) === addressKey(row.address) &&
            onChain.amount === amount;
          if (still && onChain.blockNumber !== row.block_number) {
            // Re-mined in another block: it waits there for its confirmations, still queued.
            await db
              .updateTable('receive_transactions')
              .set({ block_number: onChain.blockNumber })
              .where('id', '=', row.id)
              .where('deposit_status', '=', 2)
              .execute();
            if (onChain.blockNumber > head - method.confirmations + 1) return null;
          }
          const reason = !still ? 'reorged' : amount < method.minimum ? 'below_minimum' : null;
          return { id: row.id, appId: row.app_id, amountRaw: amount, reason };
        }),
      )),
    );
  }
  const { credited, failed } = await settleDeposits(
    db,
    verdicts.filter((v): v is Settlement => v !== null),
    now,
  );
  return { head, seen, credited, failed, invoicePayments };
}

/**
 * Deep enough: queue for verification (the lowest block with the method's confirmations, its
 * own block counted). One statement for all the chain's methods: every pass runs it, mostly on
 * no row, and on PostgreSQL each run fires the table's statement triggers.
 */
export async function queueDeepDeposits(
  db: Db,
  chainId: number,
  methods: WatchedMethod[],
  head: number,
): Promise<void> {
  if (methods.length === 0) return;
  await db
    .updateTable('receive_transactions')
    .set({ deposit_status: 2 })
    .where('chain_id', '=', chainId)
    .where('deposit_status', '=', 0)
    .where((eb) =>
      eb.or(
        methods.map((method) =>
          eb.and([
            eb('payment_method_id', '=', method.id),
            eb('block_number', '<=', head - method.confirmations + 1),
          ]),
        ),
      ),
    )
    .execute();
}

/** Receipts the watcher reads at once when it verifies queued deposits. */
const RECEIPT_READS = 8;

/** Rows written (or settled) per transaction by the bulk paths below. */
const BATCH = 1_000;

function batches<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let from = 0; from < items.length; from += size) out.push(items.slice(from, from + size));
  return out;
}

/** A queued deposit's verdict: still on chain as recorded (credited), or why it failed. */
export interface Settlement {
  id: string;
  appId: string;
  amountRaw: bigint;
  reason: 'reorged' | 'below_minimum' | null;
}

/**
 * Moves queued deposits (2) to Hash Verified (3, credited: time, the package's fee) or Failed (5,
 * with the reason), each with its event, a batch per transaction; a deposit no longer queued
 * (an overlapping run settled it) changes nothing. The watcher settles a pass's deposits
 * together, and so does a bulk load (`npm run admin -- bench large-data`).
 */
export async function settleDeposits(
  db: Db,
  settlements: Settlement[],
  now: Date,
): Promise<{ credited: number; failed: number }> {
  const at = now.toISOString();
  const numeric = engineOf(db) === 'postgres' ? sql.raw('numeric(78, 0)') : sql.raw('text');
  let credited = 0;
  let failed = 0;
  for (const batch of batches(settlements)) {
    await db.transaction().execute(async (trx) => {
      const ids: { id: string; appId: string }[] = [];
      const toCredit = batch.filter((s) => s.reason === null);
      if (toCredit.length > 0) {
        const terms = await creditTermsOfApps(trx, [...new Set(toCredit.map((s) => s.appId))], now);
        const values = sql.join(
          toCredit.map((s) => {
            const t = terms.get(s.appId)?.(s.amountRaw);
            return sql`(${s.id}, ${s.appId}, ${t?.fee_percent ?? null}, ${t?.fee_raw ?? null})`;
          }),
        );
        // One statement for the batch, every app's, each row its own fee (UPDATE ... FROM: both
        // engines).
        const result = await sql<{ id: string }>`
          WITH v(id, app_id, fee_percent, fee_raw) AS (VALUES ${values})
          UPDATE receive_transactions
          SET deposit_status = 3, credited_at = ${at}, process_datetime = ${at},
            fee_percent = v.fee_percent, fee_raw = cast(v.fee_raw AS ${numeric})
          FROM v
          WHERE receive_transactions.id = v.id AND receive_transactions.app_id = v.app_id
            AND receive_transactions.deposit_status = 2
          RETURNING receive_transactions.id`.execute(trx);
        // In the order the chain gave them, which their events keep.
        const updated = new Set(result.rows.map((r) => r.id));
        ids.push(
          ...toCredit.filter((s) => updated.has(s.id)).map(({ id, appId }) => ({ id, appId })),
        );
        credited += updated.size;
      }
      for (const reason of ['reorged', 'below_minimum'] as const) {
        const rows = batch.filter((s) => s.reason === reason);
        if (rows.length === 0) continue;
        const result = await trx
          .updateTable('receive_transactions')
          .set({ deposit_status: 5, failure_reason: reason, process_datetime: at })
          .where(
            'id',
            'in',
            rows.map((s) => s.id),
          )
          .where('deposit_status', '=', 2)
          .returning(['id', 'app_id'])
          .execute();
        ids.push(...result.map((r) => ({ id: r.id, appId: r.app_id })));
        failed += result.length;
      }
      await emitDepositEvents(trx, await depositsOf(trx, ids), now);
    });
  }
  return { credited, failed };
}

/**
 * Records each transfer once, with its event, a batch per transaction; answers how many were
 * new. Seen again in another block (a reorg re-mined it), a row still pending takes the new
 * block. The watcher records what one pass found; a bulk load (`npm run admin -- bench
 * large-data`) many more.
 */
export async function recordTransfers(db: Db, found: FoundTransfer[], now: Date): Promise<number> {
  let recorded = 0;
  for (const batch of batches(found)) {
    recorded += await db.transaction().execute(async (trx) => {
      const rows = batch.map(({ method, account, transfer, flag }) => {
        const below = transfer.amount < method.minimum;
        return {
          id: newId('rcv'),
          app_id: account.app_id,
          payment_method_id: method.id,
          unique_id: account.unique_id,
          amount_micro: displayMicro(transfer.amount, method.decimals),
          deposit_status: (below ? 5 : 0) as DepositStatus,
          failure_reason: below ? 'below_minimum' : null,
          thash: transfer.txHash,
          gas_transfer_txid: null,
          collect_txid: null,
          process_datetime: null,
          created_at: transfer.timestamp,
          chain_id: method.chainId,
          tx_hash: transfer.txHash,
          log_index: transfer.logIndex,
          block_number: transfer.blockNumber,
          amount_raw: transfer.amount.toString(),
          address: account.address,
          credited_at: null,
          flag,
        };
      });
      const inserted = new Set(
        (
          await trx
            .insertInto('receive_transactions')
            .values(rows)
            // Recorded before (or by a concurrent run): this one inserts nothing for it.
            .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
      for (const row of rows) {
        if (inserted.has(row.id)) continue;
        await trx
          .updateTable('receive_transactions')
          .set({ block_number: row.block_number })
          .where('chain_id', '=', row.chain_id)
          .where('tx_hash', '=', row.tx_hash)
          .where('log_index', '=', row.log_index)
          .where('block_number', '!=', row.block_number)
          .where('deposit_status', '=', 0)
          .execute();
      }
      const added = rows
        .filter((r) => inserted.has(r.id))
        .map((r) => ({ id: r.id, appId: r.app_id }));
      await emitDepositEvents(trx, await depositsOf(trx, added), now);
      return added.length;
    });
  }
  return recorded;
}

export interface DepositFilter {
  uniqueId?: string;
  methodCode?: string;
  status?: DepositStatus;
  from?: string;
  to?: string;
}

/**
 * Deposits with their method and the app's settings of that method (payout address and its hold,
 * gas wallet): what completing a deposit, and the signer's check of it, read.
 */
export function depositsWithMethod(db: Executor) {
  return db
    .selectFrom('receive_transactions')
    .innerJoin('payment_methods', 'payment_methods.id', 'receive_transactions.payment_method_id')
    .innerJoin('app_payment_methods', (join) =>
      join
        .onRef('app_payment_methods.app_id', '=', 'receive_transactions.app_id')
        .onRef(
          'app_payment_methods.payment_method_id',
          '=',
          'receive_transactions.payment_method_id',
        ),
    );
}

/** The newest page without filters: what an integration polls, kept (below and by the handler). */
export function isPolledPage(filter: DepositFilter, cursor: string | undefined): boolean {
  return cursor === undefined && Object.values(filter).every((value) => value === undefined);
}

/** The tables the polled page reads: what its answer, kept, depends on (http/keptAnswers.ts). */
export function polledPageTables(db: Db): readonly string[] {
  return latestDeposits.tables(db);
}

/** A page of the app's deposits, newest first, by (created_at, id) cursor. */
export async function listDeposits(
  db: Db,
  appId: string,
  filter: DepositFilter,
  page: { cursor: string | undefined; limit: number },
): Promise<{ deposits: GatewayDeposit[]; nextCursor: string | null }> {
  const rows = isPolledPage(filter, page.cursor)
    ? await latestDeposits(db, { appId, limit: page.limit + 1 })
    : await depositRows(db, appId)
        .$if(filter.uniqueId !== undefined, (q) =>
          q.where('receive_transactions.unique_id', '=', filter.uniqueId ?? ''),
        )
        .$if(filter.methodCode !== undefined, (q) =>
          q.where('payment_methods.code', '=', filter.methodCode ?? ''),
        )
        .$if(filter.status !== undefined, (q) =>
          q.where('receive_transactions.deposit_status', '=', filter.status ?? 0),
        )
        .$if(filter.from !== undefined, (q) =>
          q.where(
            'receive_transactions.created_at',
            '>=',
            new Date(filter.from ?? 0).toISOString(),
          ),
        )
        .$if(filter.to !== undefined, (q) =>
          q.where('receive_transactions.created_at', '<', new Date(filter.to ?? 0).toISOString()),
        )
        .$if(page.cursor !== undefined, (q) =>
          q.where(afterCursor('receive_transactions', page.cursor ?? '')),
        )
        .orderBy('receive_transactions.created_at', 'desc')
        .orderBy('receive_transactions.id', 'desc')
        .limit(page.limit + 1)
        .execute();
  const { rows: shown, nextCursor } = pageOf('receive_transactions', rows, page.limit);
  return { deposits: shown.map(depositView), nextCursor };
}

/**
 * The newest page without filters, what an integration polls: prepared and kept under the app
 * until one of its deposits changes (db/ownerChanges.ts).
 */
const latestDeposits = prepared(
  { appId: '', limit: 0 },
  (db, p) =>
    depositRows(db, p.appId)
      .orderBy('receive_transactions.created_at', 'desc')
      .orderBy('receive_transactions.id', 'desc')
      .limit(p.limit),
  { ownerOf: (p) => p.appId },
);

/** Per method the app uses: received (not failed) and credited (3, 4, 1), 6 decimals, exact. */
export async function depositTotals(
  db: Db,
  appId: string,
): Promise<{ methodCode: string; received: string; credited: string }[]> {
  const rows = await db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .leftJoin('receive_transactions', (join) =>
      join
        .onRef('receive_transactions.app_id', '=', 'app_payment_methods.app_id')
        .onRef(
          'receive_transactions.payment_method_id',
          '=',
          'app_payment_methods.payment_method_id',
        )
        .on('receive_transactions.tx_hash', 'is not', null),
    )
    .select((eb) => [
      'payment_methods.code',
      sumMicro(
        eb
          .case()
          .when('receive_transactions.deposit_status', '!=', 5)
          .then(eb.ref('receive_transactions.amount_micro'))
          .else(0)
          .end(),
      ).as('received'),
      sumMicro(
        eb
          .case()
          .when('receive_transactions.deposit_status', 'in', [3, 4, 1])
          .then(eb.ref('receive_transactions.amount_micro'))
          .else(0)
          .end(),
      ).as('credited'),
    ])
    .where('app_payment_methods.app_id', '=', appId)
    .where('payment_methods.code', 'is not', null)
    .groupBy(['payment_methods.code', 'payment_methods.sort_order'])
    .orderBy('payment_methods.sort_order')
    .execute();
  return rows.map((row) => ({
    methodCode: row.code ?? '',
    received: microToString(BigInt(row.received)),
    credited: microToString(BigInt(row.credited)),
  }));
}
