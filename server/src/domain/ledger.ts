import type { Kysely, Transaction } from 'kysely';
import type { Database, LedgerType } from '../db/schema';
import { newId } from './ids';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The wallet ledger: the balance is always derived from the entries (credits minus debits),
 * never stored or edited in place. Writers call postEntry inside their own database transaction.
 */
export async function balanceMicro(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => [
      eb.fn
        .sum<number>(
          eb.case().when('type', '=', 'credit').then(eb.ref('amount_micro')).else(0).end(),
        )
        .as('credits'),
      eb.fn
        .sum<number>(
          eb.case().when('type', '=', 'debit').then(eb.ref('amount_micro')).else(0).end(),
        )
        .as('debits'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.credits ?? 0) - Number(row?.debits ?? 0);
}

export interface NewLedgerEntry {
  userId: string;
  tnx: string;
  amountMicro: number;
  type: LedgerType;
  source: string;
  note?: string | null;
  createdAt: string;
}

export async function postEntry(db: Executor, entry: NewLedgerEntry): Promise<string> {
  if (!Number.isSafeInteger(entry.amountMicro) || entry.amountMicro <= 0) {
    throw new RangeError(`A ledger amount must be a positive integer of micro-USDT`);
  }
  const id = newId('led');
  await db
    .insertInto('ledger_entries')
    .values({
      id,
      user_id: entry.userId,
      tnx: entry.tnx,
      amount_micro: entry.amountMicro,
      type: entry.type,
      source: entry.source,
      note: entry.note ?? null,
      created_at: entry.createdAt,
    })
    .execute();
  return id;
}

/**
 * Posts a debit only if the balance covers it, as ONE statement (INSERT ... SELECT ... WHERE
 * balance >= amount): the check and the write cannot be split by another writer, so concurrent
 * purchases never overspend. Returns false (and writes nothing) when the balance is short.
 */
export async function postDebitIfCovered(
  db: Executor,
  entry: Omit<NewLedgerEntry, 'type'>,
): Promise<boolean> {
  if (!Number.isSafeInteger(entry.amountMicro) || entry.amountMicro <= 0) {
    throw new RangeError(`A ledger amount must be a positive integer of micro-USDT`);
  }
  const balance = db
    .selectFrom('ledger_entries')
    .select((eb) =>
      eb.fn
        .coalesce(
          eb.fn.sum<number>(
            eb
              .case()
              .when('type', '=', 'credit')
              .then(eb.ref('amount_micro'))
              .else(eb.neg(eb.ref('amount_micro')))
              .end(),
          ),
          eb.lit(0),
        )
        .as('balance'),
    )
    .where('user_id', '=', entry.userId);
  const result = await db
    .insertInto('ledger_entries')
    .columns(['id', 'user_id', 'tnx', 'amount_micro', 'type', 'source', 'note', 'created_at'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(newId('led')).as('id'),
          eb.val(entry.userId).as('user_id'),
          eb.val(entry.tnx).as('tnx'),
          eb.val(entry.amountMicro).as('amount_micro'),
          eb.val<LedgerType>('debit').as('type'),
          eb.val(entry.source).as('source'),
          eb.val(entry.note ?? null).as('note'),
          eb.val(entry.createdAt).as('created_at'),
        ])
        .where((eb) => eb(balance, '>=', entry.amountMicro)),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
