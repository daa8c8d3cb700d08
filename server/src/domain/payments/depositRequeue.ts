import type { Db } from '../../db/connection';
import { ConflictError, NotFoundError } from '../errors';
import { codedMessages } from '../messageCodes';

// Transaction state rules: which statuses a deposit can be moved from, and to (a withdrawal's
// Cancel and Reinitiate are domain/payments/withdrawals.ts's: they hold reservations).

/**
 * Only a Failed (5) deposit can be re-initiated. One that failed before its credit goes back to
 * Queued for Verification (2); one that failed moving its money out (gas or sweep, after its
 * credit) goes back to 3 and on from there, the signer reading the chain first.
 */
const DEPOSIT_REQUEUE = { from: [5], to: 2 } as const;
const FAILED_AFTER_CREDIT = ['gas_failed', 'sweep_failed'];

const STATE_MSG = codedMessages('depositRequeue', {
  depositNotFailed: 'Only a Failed deposit can be re-initiated.',
} as const);

/** Re-initiates a Failed deposit; the status guard in the update makes it race-free. */
export async function requeueDeposit(db: Db, userId: string, id: string): Promise<void> {
  const row = await db
    .selectFrom('receive_transactions')
    .innerJoin('apps', 'apps.id', 'receive_transactions.app_id')
    .select([
      'receive_transactions.id',
      'receive_transactions.deposit_status',
      'receive_transactions.failure_reason',
    ])
    .where('receive_transactions.id', '=', id)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError();
  const from: readonly number[] = DEPOSIT_REQUEUE.from;
  if (!from.includes(row.deposit_status)) throw new ConflictError(STATE_MSG.depositNotFailed);
  const afterCredit = FAILED_AFTER_CREDIT.includes(row.failure_reason ?? '');
  const result = await db
    .updateTable('receive_transactions')
    .set(
      afterCredit
        ? // process_datetime: the signer reads a revert older than this as history.
          { deposit_status: 3, failure_reason: null, process_datetime: new Date().toISOString() }
        : { deposit_status: DEPOSIT_REQUEUE.to, process_datetime: null },
    )
    .where('id', '=', row.id)
    .where('deposit_status', 'in', DEPOSIT_REQUEUE.from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ConflictError(STATE_MSG.depositNotFailed);
}
