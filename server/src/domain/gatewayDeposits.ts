import type { Db } from '../db/connection';
import type { ChainAdapter, TokenTransfer } from './chain/adapter';
import { newId } from './ids';
import { chainAmountToMicro, decimalToMicro, microToChainAmount, storedMicro } from './money';
import type { Task } from './jobs/worker';

// The gateway's chain watcher: finds the token transfers to the apps' deposit accounts and moves
// each receive row through the spec's statuses as the chain does:
//   0 Pending            seen, short of the method's confirmations;
//   2 Queued for Verif.  deep enough: the transfer is read again and must still be there;
//   3 Hash Verified      credited to the app (awaiting gas: sweeps come with withdrawals);
//   5 Failed             below the method's minimum, or gone after a reorg (the portal's
//                        Re-initiate puts it back to 2, and it is verified again).
// Exactly once: a transfer is one row, keyed by (chain, tx hash, log index), and every status
// change is a compare-and-set on the status it leaves, so an overlapping run (after a lost lease)
// changes nothing twice. The watcher runs as a recurring job, once across processes.
//
// Today it watches the method the chain adapter reads: USDT (BEP20), on the local chain or on
// CHAIN_RPC_URL/USDT_CONTRACT. Native coins and the other chains come with their adapters.

export const WATCHED_METHOD = 'USDT-BEP20';
/** On its first run on a chain, the watcher reads this many blocks back from the head. */
const FIRST_SCAN_LOOKBACK = 5_000;
const WATCH_EVERY_MS = 2_000;

export interface WatchResult {
  head: number;
  /** Transfers recorded for the first time. */
  seen: number;
  credited: number;
  failed: number;
}

/** micro-USDT for the portal's figures; dust below a micro-unit shows as 0 (amount_raw is exact). */
function displayMicro(raw: bigint, decimals: number): number {
  const micro = chainAmountToMicro(raw, decimals);
  return micro <= 0n ? 0 : storedMicro(micro);
}

/** One pass: read new blocks, record new transfers, verify and credit those deep enough. */
export async function watchDeposits(
  db: Db,
  adapter: ChainAdapter,
  now: Date,
): Promise<WatchResult> {
  const method = await db
    .selectFrom('payment_methods')
    .select(['id', 'chain_id', 'decimals', 'confirmations', 'min_deposit'])
    .where('code', '=', WATCHED_METHOD)
    .executeTakeFirst();
  const head = await adapter.latestBlock();
  if (!method) return { head, seen: 0, credited: 0, failed: 0 };
  const chainId = method.chain_id;
  const minimum = microToChainAmount(decimalToMicro(method.min_deposit), method.decimals);

  const cursor = await db
    .selectFrom('watch_cursors')
    .select('scanned_block')
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  const from = cursor ? cursor.scanned_block + 1 : Math.max(0, head - FIRST_SCAN_LOOKBACK);
  let seen = 0;
  if (from <= head) {
    const accounts = await db
      .selectFrom('app_accounts')
      .select(['app_id', 'unique_id', 'address'])
      .where('chain_id', '=', chainId)
      .where('payment_method_id', 'is not', null)
      .execute();
    const byAddress = new Map(accounts.map((a) => [a.address.toLowerCase(), a]));
    const transfers = await adapter.transfersToAny(
      accounts.map((a) => a.address),
      from,
      head,
    );
    for (const transfer of transfers) {
      const account = byAddress.get(transfer.to.toLowerCase());
      if (!account) continue;
      const target = { chainId, methodId: method.id, decimals: method.decimals, minimum };
      if (await recordTransfer(db, target, account, transfer)) seen += 1;
    }
    await db
      .insertInto('watch_cursors')
      .values({ chain_id: chainId, scanned_block: head })
      .onConflict((oc) => oc.column('chain_id').doUpdateSet({ scanned_block: head }))
      .execute();
  }

  // Deep enough: queue for verification (the lowest block with the method's confirmations,
  // its own block counted).
  await db
    .updateTable('receive_transactions')
    .set({ deposit_status: 2 })
    .where('chain_id', '=', chainId)
    .where('deposit_status', '=', 0)
    .where('block_number', '<=', head - method.confirmations + 1)
    .execute();
  const queued = await db
    .selectFrom('receive_transactions')
    .select(['id', 'address', 'tx_hash', 'log_index', 'block_number', 'amount_raw'])
    .where('chain_id', '=', chainId)
    .where('deposit_status', '=', 2)
    .execute();
  let credited = 0;
  let failed = 0;
  for (const row of queued) {
    const amount = BigInt(row.amount_raw ?? '0');
    const still =
      row.address !== null &&
      row.block_number !== null &&
      (await adapter.transfersToAny([row.address], row.block_number, row.block_number)).some(
        (t) => t.txHash === row.tx_hash && t.logIndex === row.log_index && t.amount === amount,
      );
    const reason = !still ? 'reorged' : amount < minimum ? 'below_minimum' : null;
    const changed = await db
      .updateTable('receive_transactions')
      .set(
        reason === null
          ? {
              deposit_status: 3,
              credited_at: now.toISOString(),
              process_datetime: now.toISOString(),
            }
          : { deposit_status: 5, failure_reason: reason, process_datetime: now.toISOString() },
      )
      .where('id', '=', row.id)
      .where('deposit_status', '=', 2)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) continue;
    if (reason === null) credited += 1;
    else failed += 1;
  }
  return { head, seen, credited, failed };
}

/**
 * Records a transfer once; answers whether it was new. Seen again in another block (a reorg
 * re-mined it), a row still pending takes the new block.
 */
async function recordTransfer(
  db: Db,
  method: { chainId: number; methodId: string; decimals: number; minimum: bigint },
  account: { app_id: string; unique_id: string; address: string },
  transfer: TokenTransfer,
): Promise<boolean> {
  const existing = await db
    .selectFrom('receive_transactions')
    .select(['id', 'block_number'])
    .where('chain_id', '=', method.chainId)
    .where('tx_hash', '=', transfer.txHash)
    .where('log_index', '=', transfer.logIndex)
    .executeTakeFirst();
  if (existing) {
    if (existing.block_number !== transfer.blockNumber) {
      await db
        .updateTable('receive_transactions')
        .set({ block_number: transfer.blockNumber })
        .where('id', '=', existing.id)
        .where('deposit_status', '=', 0)
        .execute();
    }
    return false;
  }
  const below = transfer.amount < method.minimum;
  const inserted = await db
    .insertInto('receive_transactions')
    .values({
      id: newId('rcv'),
      app_id: account.app_id,
      payment_method_id: method.methodId,
      unique_id: account.unique_id,
      amount_micro: displayMicro(transfer.amount, method.decimals),
      deposit_status: below ? 5 : 0,
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
    })
    // A concurrent run that recorded it first wins; this one changes nothing.
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The recurring watcher job (domain/jobs: once across processes). */
export function depositWatcherTask(db: Db, adapter: ChainAdapter, clock: () => Date): Task {
  return {
    kind: 'deposits.watch',
    everyMs: WATCH_EVERY_MS,
    async run() {
      await watchDeposits(db, adapter, clock());
    },
  };
}
