import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { ChainAdapter, TokenTransfer } from '../chain/adapter';
import { deriveEvmAddress } from '../chain/hdWallet';
import { newId } from '../ids';
import { postEntry } from './ledger';
import { chainAmountToMicro, storedMicro } from '../money';
import { lockForTransaction } from '../../db/locks';
import { sumMicro } from '../../db/sums';

// Wallet top-ups: a merchant's own USDT (BEP20) sent to their deposit address to fund the wallet
// that pays for packages. The portal's Wallet screen calls them deposits, as the spec does, and
// the table is `deposits`; the code says top-up so they are never confused with what the gateway
// receives for an app (domain/payments/deposits.ts).

type Executor = Kysely<Database> | Transaction<Database>;

/** The recent-deposits table of the wallet shows this many (contract: at most 20). */
export const RECENT_TOP_UPS = 20;
/**
 * A deposit address whose scan cursor could not be set when it was handed out (RPC down) is
 * scanned from this many blocks before the chain head on its first sync (about a day on BSC).
 */
export const FIRST_SCAN_LOOKBACK = 100_000;

export interface TopUpAddress {
  address: string;
  index: number;
}

/** The deposit address the user already has, if any. */
async function storedDepositAddress(
  db: Executor,
  userId: string,
): Promise<TopUpAddress | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['deposit_address', 'deposit_index'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (row.deposit_address === null || row.deposit_index === null) return undefined;
  return { address: row.deposit_address, index: row.deposit_index };
}

/**
 * The user's deposit address, deriving the next child of the xpub on first use. The scan cursor
 * starts at the chain head of that moment: nobody can have paid to an address not handed out yet.
 */
export async function ensureTopUpAddress(
  db: Kysely<Database>,
  userId: string,
  xpub: string,
  adapter: ChainAdapter,
): Promise<TopUpAddress> {
  const existing = await storedDepositAddress(db, userId);
  if (existing) return existing;
  // An unreachable RPC must not hide the address; the first sync then looks back instead.
  const head = await adapter.latestBlock().catch(() => null);
  return db.transaction().execute(async (trx) => {
    // The next index is max + 1: taken one account at a time, or two accounts share an address.
    await lockForTransaction(trx, 'deposit_index');
    const again = await storedDepositAddress(trx, userId);
    if (again) return again;
    const { max } = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.max('deposit_index').as('max'))
      .executeTakeFirstOrThrow();
    const index = max === null ? 0 : Number(max) + 1;
    const address = deriveEvmAddress(xpub, index);
    await trx
      .updateTable('users')
      .set({ deposit_index: index, deposit_address: address, deposit_scanned_block: head })
      .where('id', '=', userId)
      .execute();
    return { address, index };
  });
}

export interface TopUpSyncResult {
  /** Deposits credited by this sync (new and confirmed, or pending until now). */
  credited: number;
  /** Deposits first seen by this sync and still short of confirmations. */
  newPending: number;
  /** All deposits still waiting for confirmations after this sync. */
  pending: number;
}

/**
 * Reads the chain for transfers to the user's deposit address from the block after the cursor
 * and credits the confirmed ones. Each transfer (tx hash, log index) is credited exactly once:
 * the deposit row and its ledger credit are written in one transaction, and a transfer already
 * credited is skipped. Transfers short of confirmations are kept as pending deposits and credited
 * by a later sync; a pending one that is gone from the chain (reorganisation) is dropped.
 */
export async function syncTopUps(
  db: Kysely<Database>,
  adapter: ChainAdapter,
  userId: string,
): Promise<TopUpSyncResult> {
  const user = await db
    .selectFrom('users')
    .select(['deposit_address', 'deposit_scanned_block'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (user.deposit_address === null) return { credited: 0, newPending: 0, pending: 0 };
  const head = await adapter.latestBlock();
  const from =
    user.deposit_scanned_block === null
      ? Math.max(0, head - FIRST_SCAN_LOOKBACK)
      : user.deposit_scanned_block + 1;
  const transfers =
    from <= head ? await adapter.transfersToAny([user.deposit_address], from, head) : [];
  const decimals = await adapter.tokenDecimals();
  // The newest block with enough confirmations; later blocks are scanned again next time.
  const safe = head - adapter.confirmations + 1;
  const cursor = Math.max(from - 1, Math.min(safe, head));

  return db.transaction().execute(async (trx) => {
    // Two syncs of one account (two tabs, two processes) credit a transfer once between them.
    await lockForTransaction(trx, `deposits:${userId}`);
    let credited = 0;
    let newPending = 0;
    let pending = 0;
    const seen = new Set<string>();
    for (const transfer of transfers) {
      const amountMicro = chainAmountToMicro(transfer.amount, decimals);
      if (amountMicro <= 0n) continue; // dust below 10^-6 USDT is never credited
      seen.add(keyOf(transfer.txHash, transfer.logIndex));
      const confirmed = transfer.blockNumber <= safe;
      const outcome = await recordTransfer(trx, userId, transfer, amountMicro, confirmed);
      if (outcome === 'credited') credited += 1;
      if (outcome === 'new_pending') newPending += 1;
      if (outcome === 'new_pending' || outcome === 'pending') pending += 1;
    }
    const stale = await trx
      .selectFrom('deposits')
      .select(['id', 'tx_hash', 'log_index'])
      .where('user_id', '=', userId)
      .where('status', '=', 0)
      .execute();
    for (const row of stale) {
      if (!seen.has(keyOf(row.tx_hash, row.log_index))) {
        await trx.deleteFrom('deposits').where('id', '=', row.id).where('status', '=', 0).execute();
      }
    }
    await trx
      .updateTable('users')
      .set({ deposit_scanned_block: cursor })
      .where('id', '=', userId)
      .execute();
    return { credited, newPending, pending };
  });
}

function keyOf(txHash: string, logIndex: number): string {
  return `${txHash.toLowerCase()}:${logIndex}`;
}

async function recordTransfer(
  trx: Transaction<Database>,
  userId: string,
  transfer: TokenTransfer,
  amountMicro: bigint,
  confirmed: boolean,
): Promise<'credited' | 'new_pending' | 'pending' | 'known'> {
  const txHash = transfer.txHash.toLowerCase();
  const existing = await trx
    .selectFrom('deposits')
    .select(['id', 'status'])
    .where('tx_hash', '=', txHash)
    .where('log_index', '=', transfer.logIndex)
    .executeTakeFirst();
  if (existing?.status === 1) return 'known';
  const insertDeposit = (status: 0 | 1) =>
    trx
      .insertInto('deposits')
      .values({
        id: newId('dep'),
        user_id: userId,
        tx_hash: txHash,
        log_index: transfer.logIndex,
        amount_micro: storedMicro(amountMicro),
        status,
        created_at: transfer.timestamp,
      })
      .execute();
  if (!confirmed) {
    if (existing) return 'pending';
    await insertDeposit(0);
    return 'new_pending';
  }
  if (existing) {
    const updated = await trx
      .updateTable('deposits')
      .set({ status: 1 })
      .where('id', '=', existing.id)
      .where('status', '=', 0)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return 'known';
  } else {
    await insertDeposit(1);
  }
  await postEntry(trx, {
    userId,
    tnx: txHash,
    amountMicro,
    type: 'credit',
    source: 'deposit',
    note: `USDT (BEP20) deposit from ${transfer.from}`,
    // The deposit's own moment (its block's time), as the wallet lists it: the dashboard's
    // Recent Activity then shows the same minute, not the later minute of the sync.
    createdAt: transfer.timestamp,
  });
  return 'credited';
}

export interface TopUpRow {
  tnx: string;
  amountMicro: bigint;
  status: 0 | 1;
  createdAt: string;
}

/** Count and sum of the credited deposits, and the newest deposits (pending ones included). */
export async function topUpSummary(db: Executor, userId: string) {
  const totals = await db
    .selectFrom('deposits')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      sumMicro(eb.ref('amount_micro')).as('sum'),
    ])
    .where('user_id', '=', userId)
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  const recent = await db
    .selectFrom('deposits')
    .select(['tx_hash', 'amount_micro', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(RECENT_TOP_UPS)
    .execute();
  return {
    count: Number(totals.count),
    totalMicro: BigInt(totals.sum),
    recent: recent.map((row): TopUpRow => ({
      tnx: row.tx_hash,
      amountMicro: BigInt(row.amount_micro),
      status: row.status,
      createdAt: row.created_at,
    })),
  };
}
