import type { Transaction } from 'kysely';
import type { Database, RefundStatus, SendStatus } from '../../db/schema';
import { emitRefundEvent, type RefundEventType } from '../webhooks/events';
import { refundRows, refundView } from './views';

// A refund, once it has a destination and its wallet covers it, is paid by a send of its own
// (send_transactions.refund_id): the withdrawals' job, signer and statuses carry it, so it is
// signed, followed, replaced and never paid twice as a withdrawal is. Each move of that send
// (moveWithdrawal, in the same transaction) moves the refund here, and reports its ends as
// refund.* events instead of withdrawal.* ones.

/** The refund's status for each status of its send. */
const OF_SEND: Readonly<Record<SendStatus, RefundStatus>> = {
  0: 'queued',
  2: 'queued',
  3: 'processing',
  4: 'processing',
  5: 'processing',
  1: 'completed',
  6: 'failed',
  7: 'cancelled',
};

const EVENT_OF: Partial<Record<RefundStatus, RefundEventType>> = {
  completed: 'refund.completed',
  failed: 'refund.failed',
  cancelled: 'refund.cancelled',
};

/**
 * Moves refund `refundId` to where its send just went (`to`), with its event; `reorged`: the send
 * went back from 1 to 5 (a reorg took its block), reported as `refund.reorged`.
 */
export async function followSend(
  trx: Transaction<Database>,
  refundId: string,
  to: SendStatus,
  now: Date,
  reorged = false,
): Promise<void> {
  const status = OF_SEND[to];
  const send = await trx
    .selectFrom('send_transactions')
    .select(['failure_reason'])
    .where('refund_id', '=', refundId)
    .executeTakeFirstOrThrow();
  const result = await trx
    .updateTable('refunds')
    .set({
      status,
      failure_reason: status === 'failed' ? send.failure_reason : null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', refundId)
    .where('status', '!=', status)
    .executeTakeFirst();
  const type = reorged ? 'refund.reorged' : EVENT_OF[status];
  if (Number(result.numUpdatedRows) === 0 || !type) return;
  const row = await refundRows(trx).where('refunds.id', '=', refundId).executeTakeFirstOrThrow();
  await emitRefundEvent(trx, row.app_id, refundView(row, null), type, now);
}
