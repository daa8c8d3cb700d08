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
