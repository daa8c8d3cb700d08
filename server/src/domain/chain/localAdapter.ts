import { randomBytes } from 'node:crypto';
import { getAddress, zeroAddress } from 'viem';
import type { Db } from '../../db/connection';
import { newId } from '../ids';
import { microToChainAmount } from '../money';
import type { ChainAdapter, TokenTransfer } from './adapter';
import { lockForTransaction } from '../../db/locks';

/** BEP20 USDT has 18 decimals; the local chain mimics it. */
export const LOCAL_TOKEN_DECIMALS = 18;

/**
 * The chain when no RPC is configured: the chain_transfers table, written by
 * `npm run admin -- deposit`. Each recorded transfer is its own block, final at once.
 */
export class LocalChainAdapter implements ChainAdapter {
  readonly kind = 'local';
  readonly confirmations = 1;

  constructor(private readonly db: Db) {}

  async latestBlock(): Promise<number> {
    const row = await this.db
      .selectFrom('chain_transfers')
      .select((eb) => eb.fn.max('block_number').as('latest'))
      .executeTakeFirst();
    return Number(row?.latest ?? 0);
  }

  async tokenDecimals(): Promise<number> {
    return LOCAL_TOKEN_DECIMALS;
  }

  async transfersTo(address: string, fromBlock: number, toBlock: number): Promise<TokenTransfer[]> {
    const rows = await this.db
      .selectFrom('chain_transfers')
      .selectAll()
      .where('to_address', '=', getAddress(address))
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

/** A USDT transfer on the local chain (from the zero address, as a mint) in a new block. */
export async function recordLocalTransfer(
  db: Db,
  transfer: { to: string; amountMicro: number; createdAt: string },
): Promise<TokenTransfer> {
  return db.transaction().execute(async (trx) => {
    // One block at a time, whichever process records it.
    await lockForTransaction(trx, 'local_chain');
    const row = await trx
      .selectFrom('chain_transfers')
      .select((eb) => eb.fn.max('block_number').as('latest'))
      .executeTakeFirst();
    const recorded: TokenTransfer = {
      txHash: `0x${randomBytes(32).toString('hex')}`,
      logIndex: 0,
      from: zeroAddress,
      to: getAddress(transfer.to),
      amount: microToChainAmount(transfer.amountMicro, LOCAL_TOKEN_DECIMALS),
      blockNumber: Number(row?.latest ?? 0) + 1,
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
