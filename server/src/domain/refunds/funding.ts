import type { Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import { ChainUnavailableError } from '../chain/adapter';
import type { GasBalanceReader } from '../chain/balances';
import { newId } from '../ids';
import { chainAmountToMicro, storedMicro } from '../money';
import { gatewayMethods } from '../payments/accounts';
import {
  gasReserve,
  lockMerchant,
  refuseUnlessCovered,
  WalletRefusedError,
  WITHDRAWAL_STATUS,
} from '../payments/withdrawals';
import { emitRefundEvent } from '../webhooks/events';
import { refundRows, refundView } from './views';

// A refund with a destination is paid once its operational wallet covers it: under the
// merchant's lock, as a withdrawal is accepted, its amount and a fee reserve are reserved in the
// wallet by a send of its own (send_transactions.refund_id, status 2 Queued, its MAC the one the
// web process made when the destination became known), and the withdrawals' job and the signer
// take it from there (sendStatus.ts follows it). A wallet short of the token or of the coin for
// the fee leaves the refund `awaiting_funds` with what to send where; the refunds job tries again
// on each pass, so funding the wallet is all the merchant has to do.

/** Where a funding attempt left the refund. */
export type Funded = 'queued' | 'awaiting_funds' | 'unchanged';

/**
 * Reserves and queues refund `refundId` if it is awaiting funds and its wallet covers it; else
 * records what the wallet lacks. Call inside a transaction (it takes the merchant's lock).
 */
export async function fundRefund(
  trx: Transaction<Database>,
  reader: GasBalanceReader,
  refundId: string,
  now: Date,
): Promise<Funded> {
  const refund = await trx
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', refundId)
    .executeTakeFirst();
  if (
    !refund ||
    refund.status !== 'awaiting_funds' ||
    refund.address === null ||
    refund.request_mac === null
  ) {
    return 'unchanged';
  }
  await lockMerchant(trx, refund.app_id);
  const waiting = async (message: string): Promise<Funded> => {
    if (message !== refund.waiting_message) {
      await trx
        .updateTable('refunds')
        .set({ waiting_message: message, updated_at: now.toISOString() })
        .where('id', '=', refund.id)
        .where('status', '=', 'awaiting_funds')
        .execute();
    }
    return 'awaiting_funds';
  };
  const method = (await gatewayMethods(trx, refund.app_id)).find(
    (m) => m.id === refund.payment_method_id,
  );
  const gasRaw = method ? gasReserve(method.chainId) : undefined;
  if (!method || gasRaw === undefined) {
    return waiting(
      `The app no longer has this refund's method enabled: enable it in the portal's Payment Setting tab, or cancel the refund.`,
    );
  }
  const amountRaw = BigInt(refund.amount_raw);
  try {
    await refuseUnlessCovered(trx, reader, {
      method: { ...method, isToken: method.tokenContract !== null },
      fromAddress: refund.from_address,
      amountRaw,
      gasRaw,
    });
  } catch (error) {
    if (error instanceof WalletRefusedError) {
      // What to send where: the gas message names both already.
      return waiting(
        error.code === 'insufficient_balance'
          ? `${error.message} Send ${method.code} to ${refund.from_address}: the refund goes on by itself once it arrives.`
          : error.message,
      );
    }
    throw error;
  }
  const sendId = newId('wd');
  const at = now.toISOString();
  const micro = chainAmountToMicro(amountRaw, method.decimals);
  await trx
    .insertInto('send_transactions')
    .values({
      id: sendId,
      app_id: refund.app_id,
      payment_method_id: refund.payment_method_id,
      thash: null,
      amount_micro: micro <= 0n ? 0 : storedMicro(micro),
      to_address: refund.address,
      status: WITHDRAWAL_STATUS.queued,
      created_at: at,
      unique_id: refund.id,
      chain_id: method.chainId,
      from_address: refund.from_address,
      amount_raw: refund.amount_raw,
      gas_reserve_raw: gasRaw.toString(),
      updated_at: at,
      request_mac: refund.request_mac,
      refund_id: refund.id,
    })
    .execute();
  await trx
    .updateTable('refunds')
    .set({ status: 'queued', send_id: sendId, waiting_message: null, updated_at: at })
    .where('id', '=', refund.id)
    .execute();
  return 'queued';
}

/** Refunds the job looks at per pass, of each kind. */
const BATCH = 50;

/**
 * One pass of the refunds job: unclaimed links past their expiry become `expired` (their amount
 * refundable again), and refunds awaiting funds try their wallet again. Each refund in a
 * transaction of its own, so one wallet that cannot be read holds up no other.
 */
export async function advanceRefunds(
  db: Db,
  readerFor: (db: Db) => GasBalanceReader,
  now: Date,
): Promise<{ expired: number; queued: number }> {
  const result = { expired: 0, queued: 0 };
  const stale = await db
    .selectFrom('refunds')
    .select('id')
    .where('status', '=', 'pending_claim')
    .where('claim_expires_at', '<=', now.toISOString())
    .limit(BATCH)
    .execute();
  for (const { id } of stale) {
    result.expired += await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('refunds')
        .set({ status: 'expired', updated_at: now.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending_claim')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return 0;
      const row = await refundRows(trx).where('refunds.id', '=', id).executeTakeFirstOrThrow();
      await emitRefundEvent(trx, row.app_id, refundView(row, null), 'refund.expired', now);
      return 1;
    });
  }
  const waiting = await db
    .selectFrom('refunds')
    .select('id')
    .where('status', '=', 'awaiting_funds')
    .orderBy('updated_at')
    .limit(BATCH)
    .execute();
  for (const { id } of waiting) {
    try {
      const funded = await db
        .transaction()
        .execute((trx) => fundRefund(trx, readerFor(trx), id, now));
      if (funded === 'queued') result.queued += 1;
    } catch (error) {
      // The wallet's chain could not be read: the next pass tries again.
      if (!(error instanceof ChainUnavailableError)) throw error;
    }
  }
  return result;
}
