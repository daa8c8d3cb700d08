import type { Db } from '../../db/connection';
import type { SendStatus } from '../../db/schema';
import { afterCursor, pageOf } from '../cursor';
import { NotFoundError } from '../errors';
import { codedMessages } from '../messageCodes';
import { unitsToDecimal } from '../money';
import { HELD_FOR_APPROVAL } from '../../signer/client/protocol';

/** A withdrawal id the app does not have (the id is a value); the others are withdrawals.ts'. */
const WITHDRAWAL_READ_MSG = codedMessages('withdrawal', {
  notFound: (id: string) => `No withdrawal ${id}.`,
} as const);

// The gateway's reads of withdrawals: one by id, and an app's list, newest first by cursor.

export interface Withdrawal {
  id: string;
  uniqueId: string;
  methodCode: string;
  chainId: number;
  fromAddress: string;
  toAddress: string;
  /** Exact, in the token's units. */
  amount: string;
  status: SendStatus;
  txHash: string | null;
  failureReason: string | null;
  /** Why it waits in Processing Transfer, for a person to end: beyond the app's daily cap. */
  waiting: { code: typeof HELD_FOR_APPROVAL; message: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** The gateway's withdrawal rows of an app (rows from before the gateway have no chain). */
export function withdrawalRows(db: Db, appId: string) {
  return (
    db
      .selectFrom('send_transactions')
      .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
      .select([
        'send_transactions.id',
        'send_transactions.unique_id',
        'send_transactions.chain_id',
        'send_transactions.from_address',
        'send_transactions.to_address',
        'send_transactions.amount_raw',
        'send_transactions.status',
        'send_transactions.tx_hash',
        'send_transactions.failure_reason',
        'send_transactions.waiting_reason',
        'send_transactions.waiting_message',
        'send_transactions.created_at',
        'send_transactions.updated_at',
        'payment_methods.code',
        'payment_methods.decimals',
      ])
      .where('send_transactions.app_id', '=', appId)
      .where('send_transactions.amount_raw', 'is not', null)
      // A refund's send is the refund's (domain/refunds/): listed and reported as the refund.
      .where('send_transactions.refund_id', 'is', null)
  );
}

type WithdrawalRow = Awaited<ReturnType<ReturnType<typeof withdrawalRows>['execute']>>[number];

export function withdrawalOf(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    uniqueId: row.unique_id ?? '',
    methodCode: row.code ?? '',
    chainId: row.chain_id ?? 0,
    fromAddress: row.from_address ?? '',
    toAddress: row.to_address,
    amount: unitsToDecimal(BigInt(row.amount_raw ?? '0'), row.decimals),
    status: row.status,
    txHash: row.tx_hash,
    failureReason: row.failure_reason,
    waiting:
      row.waiting_reason === HELD_FOR_APPROVAL && row.waiting_message !== null
        ? { code: HELD_FOR_APPROVAL, message: row.waiting_message }
        : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? row.created_at,
  };
}

export async function getWithdrawal(db: Db, appId: string, id: string): Promise<Withdrawal> {
  const row = await withdrawalRows(db, appId)
    .where('send_transactions.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(WITHDRAWAL_READ_MSG.notFound(id));
  return withdrawalOf(row);
}

interface WithdrawalFilter {
  uniqueId?: string;
  methodCode?: string;
  status?: SendStatus;
}

/** A page of the app's withdrawals, newest first, by (created_at, id) cursor. */
export async function listWithdrawals(
  db: Db,
  appId: string,
  filter: WithdrawalFilter,
  page: { cursor: string | undefined; limit: number },
): Promise<{ withdrawals: Withdrawal[]; nextCursor: string | null }> {
  const rows = await withdrawalRows(db, appId)
    .$if(filter.uniqueId !== undefined, (q) =>
      q.where('send_transactions.unique_id', '=', filter.uniqueId ?? ''),
    )
    .$if(filter.methodCode !== undefined, (q) =>
      q.where('payment_methods.code', '=', filter.methodCode ?? ''),
    )
    .$if(filter.status !== undefined, (q) =>
      q.where('send_transactions.status', '=', filter.status ?? 0),
    )
    .$if(page.cursor !== undefined, (q) =>
      q.where(afterCursor('send_transactions', page.cursor ?? '')),
    )
    .orderBy('send_transactions.created_at', 'desc')
    .orderBy('send_transactions.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, nextCursor } = pageOf('send_transactions', rows, page.limit);
  return { withdrawals: shown.map(withdrawalOf), nextCursor };
}
