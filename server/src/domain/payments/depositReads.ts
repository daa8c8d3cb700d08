import type { Db } from '../../db/connection';
import type { Executor } from '../../db/prepared';
import type { DepositStatus, StrayFlag } from '../../db/schema';
import { OPERATIONAL_WALLET_NEEDS_GAS } from '../../signer/client/protocol';
import { NATIVE_LOG_INDEX } from '../chain/adapter';
import { NotFoundError } from '../errors';
import { unitsToDecimal } from '../money';

// Deposits as the gateway shows them: read by the watcher's events, the completion, the gateway's
// handlers and anything else that announces a deposit (an invoice's credit), apart from the
// watcher's writing side (deposits.ts).

/** Rows read per statement. */
const BATCH = 1_000;

export interface GatewayDeposit {
  id: string;
  uniqueId: string;
  methodCode: string;
  chainId: number;
  address: string;
  txHash: string;
  /** The Transfer log's index in its transaction; null for a native transfer (no log). */
  logIndex: number | null;
  blockNumber: number;
  /** Exact, in the token's units. */
  amount: string;
  status: DepositStatus;
  failureReason: string | null;
  createdAt: string;
  creditedAt: string | null;
  /** Why a credited deposit waits, while it waits for something the merchant can end. */
  waiting: { code: typeof OPERATIONAL_WALLET_NEEDS_GAS; message: string } | null;
  /** Paid in another method than its account's: on another chain, or in another token. */
  flag: StrayFlag | null;
}

/** The watcher's rows of an app (rows from before the gateway carry no chain position). */
export function depositRows(db: Executor, appId: string) {
  return everyAppsDepositRows(db).where('receive_transactions.app_id', '=', appId);
}

/** The watcher's rows of every app, each with its app. */
function everyAppsDepositRows(db: Executor) {
  return db
    .selectFrom('receive_transactions')
    .innerJoin('payment_methods', 'payment_methods.id', 'receive_transactions.payment_method_id')
    .select([
      'receive_transactions.id',
      'receive_transactions.app_id',
      'receive_transactions.unique_id',
      'receive_transactions.chain_id',
      'receive_transactions.address',
      'receive_transactions.tx_hash',
      'receive_transactions.log_index',
      'receive_transactions.block_number',
      'receive_transactions.amount_raw',
      'receive_transactions.deposit_status',
      'receive_transactions.failure_reason',
      'receive_transactions.created_at',
      'receive_transactions.credited_at',
      'receive_transactions.waiting_reason',
      'receive_transactions.waiting_message',
      'receive_transactions.flag',
      'payment_methods.code',
      'payment_methods.decimals',
    ])
    .where('receive_transactions.tx_hash', 'is not', null);
}

type DepositRow = Awaited<ReturnType<ReturnType<typeof depositRows>['execute']>>[number];

export function depositView(row: DepositRow): GatewayDeposit {
  return {
    id: row.id,
    uniqueId: row.unique_id,
    methodCode: row.code ?? '',
    chainId: row.chain_id ?? 0,
    address: row.address ?? '',
    txHash: row.tx_hash ?? '',
    logIndex: row.log_index === null || row.log_index === NATIVE_LOG_INDEX ? null : row.log_index,
    blockNumber: row.block_number ?? 0,
    amount: unitsToDecimal(BigInt(row.amount_raw ?? '0'), row.decimals),
    status: row.deposit_status,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    creditedAt: row.credited_at,
    waiting:
      row.waiting_reason === OPERATIONAL_WALLET_NEEDS_GAS && row.waiting_message !== null
        ? { code: OPERATIONAL_WALLET_NEEDS_GAS, message: row.waiting_message }
        : null,
    flag: row.flag,
  };
}

/** The deposits `ids` as the gateway shows them, with their apps, in the order given. */
export async function depositsOf(
  db: Db,
  ids: { id: string; appId: string }[],
): Promise<{ appId: string; deposit: GatewayDeposit }[]> {
  // Every app's at once: a block pays many apps, and each statement is a round trip.
  const found = new Map<string, { appId: string; deposit: GatewayDeposit }>();
  for (let from = 0; from < ids.length; from += BATCH) {
    const part = ids.slice(from, from + BATCH).map((i) => i.id);
    const rows = await everyAppsDepositRows(db)
      .where('receive_transactions.id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.id, { appId: row.app_id, deposit: depositView(row) });
  }
  return ids.flatMap(({ id, appId }) => {
    const row = found.get(id);
    return row?.appId === appId ? [{ appId, deposit: row.deposit }] : [];
  });
}

export async function getDeposit(db: Db, appId: string, id: string): Promise<GatewayDeposit> {
  const row = await depositRows(db, appId)
    .where('receive_transactions.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(`No deposit ${id}.`);
  return depositView(row);
}
