import { randomBytes } from 'node:crypto';
import { getAddress, zeroAddress } from 'viem';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import { InvalidError } from '../errors';
import { newId } from '../ids';
import { creditsMicro } from '../ledger';
import { chainAmountToMicro, MAX_TOTAL_MICRO, microToChainAmount, microToString } from '../money';
import type { ChainAdapter, TokenTransfer } from './adapter';
import { lockForTransaction } from '../../db/locks';

/** BEP20 USDT has 18 decimals; the local chain mimics it. */
export const LOCAL_TOKEN_DECIMALS = 18;

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The chain when no RPC is configured: the chain_transfers table, written by
 * `npm run admin -- deposit` (each recorded transfer is its own block), and empty blocks mined
 * on top (`mineLocalBlocks`), which give the gateway's deposits their confirmations. A user's
 * own wallet deposit is final at once (confirmations 1).
 */

export class LocalChainAdapter implements ChainAdapter {
  readonly kind = 'local';
  readonly confirmations = 1;

  constructor(private readonly db: Db) {}

  async latestBlock(): Promise<number> {
    return localHead(this.db);
  }

  async tokenDecimals(): Promise<number> {
    return LOCAL_TOKEN_DECIMALS;
  }

  async transfersToAny(
    addresses: readonly string[],
    fromBlock: number,
    toBlock: number,
  ): Promise<TokenTransfer[]> {
    if (addresses.length === 0) return [];
    const rows = await this.db
      .selectFrom('chain_transfers')
      .selectAll()
      .where(
        'to_address',
        'in',
        addresses.map((a) => getAddress(a)),
      )
      .where('block_number', '>=', fromBlock)
      .where('block_number', '<=', toBlock)
      .orderBy('block_number')
      .orderBy('log_index')
      .execute();
    return rows.map((row) => ({
      txHash: row.tx_hash,
      logIndex: row.log_index,
      from: row.from_address,
      to: row.to_address,
      amount: BigInt(row.amount_raw),
      blockNumber: row.block_number,
      timestamp: row.created_at,
    }));
  }
}

/**
 * A USDT transfer on the local chain (from the zero address, as a mint) in a new block. With
 * `payee`, refused (InvalidError) when that wallet would take in more than MAX_TOTAL_MICRO in
 * all, counting what it was credited and the transfers to it not credited yet.
 */
export async function recordLocalTransfer(
  db: Db,
  transfer: { to: string; amountMicro: bigint; createdAt: string },
  payee?: { userId: string; username: string },
): Promise<TokenTransfer> {
  return db.transaction().execute(async (trx) => {
    // One block at a time, whichever process records it.
    await lockForTransaction(trx, 'local_chain');
    if (payee) {
      // Uncredited transfers first, credits second: a sync committing in between is counted
      // twice (a stricter check), never missed.
      const onTheWay = await uncreditedMicro(trx, transfer.to);
      const incoming = onTheWay + (await creditsMicro(trx, payee.userId));
      if (incoming + transfer.amountMicro > MAX_TOTAL_MICRO) {
        const room = MAX_TOTAL_MICRO - incoming;
        throw new InvalidError(
          `Refused: ${payee.username}'s wallet would take in more than ` +
            `${microToString(MAX_TOTAL_MICRO)} USDT in all, the most one wallet can hold ` +
            `(${microToString(incoming)} USDT credited or on the way; at most ` +
            `${microToString(room > 0n ? room : 0n)} more).`,
        );
      }
    }
    const blockNumber = (await localHead(trx)) + 1;
    await setLocalHead(trx, blockNumber);
    const recorded: TokenTransfer = {
      txHash: `0x${randomBytes(32).toString('hex')}`,
      logIndex: 0,
      from: zeroAddress,
      to: getAddress(transfer.to),
      amount: microToChainAmount(transfer.amountMicro, LOCAL_TOKEN_DECIMALS),
      blockNumber,
      timestamp: transfer.createdAt,
    };
    await trx
      .insertInto('chain_transfers')
      .values({
        id: newId('ctx'),
        tx_hash: recorded.txHash,
        log_index: recorded.logIndex,
        from_address: recorded.from,
        to_address: recorded.to,
        amount_raw: recorded.amount.toString(),
        block_number: recorded.blockNumber,
        created_at: transfer.createdAt,
      })
      .execute();
    return recorded;
  });
}

/** Transfers to `address` on the local chain that no credited deposit records yet. */
async function uncreditedMicro(db: Executor, address: string): Promise<bigint> {
  const rows = await db
    .selectFrom('chain_transfers')
    .select(['tx_hash', 'log_index', 'amount_raw'])
    .where('to_address', '=', getAddress(address))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('deposits')
            .select('deposits.id')
            .whereRef('deposits.tx_hash', '=', 'chain_transfers.tx_hash')
            .whereRef('deposits.log_index', '=', 'chain_transfers.log_index')
            .where('deposits.status', '=', 1),
        ),
      ),
    )
    .execute();
  return rows.reduce(
    (sum, row) => sum + chainAmountToMicro(BigInt(row.amount_raw), LOCAL_TOKEN_DECIMALS),
    0n,
  );
}

/** The local chain's id: it stands in for BNB Smart Chain (USDT BEP20). */
const LOCAL_CHAIN_ID = 56;

/** The newest block: the last transfer's, or later when empty blocks were mined since. */
export async function localHead(db: Executor): Promise<number> {
  const transfers = await db
    .selectFrom('chain_transfers')
    .select((eb) => eb.fn.max('block_number').as('latest'))
    .executeTakeFirst();
  const mined = await db
    .selectFrom('chain_heads')
    .select('block_number')
    .where('chain_id', '=', LOCAL_CHAIN_ID)
    .executeTakeFirst();
  return Math.max(Number(transfers?.latest ?? 0), mined?.block_number ?? 0);
}

async function setLocalHead(db: Executor, blockNumber: number): Promise<void> {
  await db
    .insertInto('chain_heads')
    .values({ chain_id: LOCAL_CHAIN_ID, block_number: blockNumber })
    .onConflict((oc) => oc.column('chain_id').doUpdateSet({ block_number: blockNumber }))
    .execute();
}

/** Mines `count` empty blocks on the local chain (confirmations for what it holds); the new head. */
export async function mineLocalBlocks(db: Db, count: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'local_chain');
    const head = (await localHead(trx)) + count;
    await setLocalHead(trx, head);
    return head;
  });
}
