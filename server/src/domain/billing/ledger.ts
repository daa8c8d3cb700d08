import type { Kysely, Transaction } from 'kysely';
import type { Database, LedgerType } from '../../db/schema';
import { sumMicro } from '../../db/sums';
import { newId } from '../ids';
import { storedMicro } from '../money';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The wallet ledger: the balance is always derived from the entries (credits minus debits),
 * never stored or edited in place. Writers call postEntry inside their own database transaction.
 */
export async function balanceMicro(db: Executor, userId: string): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => [
      sumMicro(eb.case().when('type', '=', 'credit').then(eb.ref('amount_micro')).else(0).end()).as(
        'credits',
      ),
      sumMicro(eb.case().when('type', '=', 'debit').then(eb.ref('amount_micro')).else(0).end()).as(
        'debits',
      ),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return BigInt(row.credits) - BigInt(row.debits);
}

/** Everything credited to the wallet so far: what `MAX_TOTAL_MICRO` bounds. */
export async function creditsMicro(db: Executor, userId: string): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => sumMicro(eb.ref('amount_micro')).as('credits'))
    .where('user_id', '=', userId)
    .where('type', '=', 'credit')
    .executeTakeFirstOrThrow();
  return BigInt(row.credits);
}

export interface NewLedgerEntry {
  userId: string;
  tnx: string;
  amountMicro: bigint;
  type: LedgerType;
  source: string;
  note?: string | null;
  createdAt: string;
}

export async function postEntry(db: Executor, entry: NewLedgerEntry): Promise<string> {
  const [id] = await postEntries(db, [entry]);
  if (id === undefined) throw new Error('postEntries posted nothing');
  return id;
}

/** Entries are written this many to a statement (8 parameters each). */
const ENTRY_BATCH = 1_000;

/**
 * postEntry for many entries (e.g. a bulk load), a statement per ENTRY_BATCH: the same rows,
 * checks and counts (row_counts' trigger) as one at a time. Returns their ids, in order.
 */
export async function postEntries(db: Executor, entries: NewLedgerEntry[]): Promise<string[]> {
  const rows = entries.map((entry) => ({
    id: newId('led'),
    user_id: entry.userId,
    tnx: entry.tnx,
    amount_micro: storedMicro(entry.amountMicro),
    type: entry.type,
    source: entry.source,
    note: entry.note ?? null,
    created_at: entry.createdAt,
  }));
  for (let from = 0; from < rows.length; from += ENTRY_BATCH) {
    await db
      .insertInto('ledger_entries')
      .values(rows.slice(from, from + ENTRY_BATCH))
      .execute();
  }
  return rows.map((row) => row.id);
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
  const amount = storedMicro(entry.amountMicro);
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
          eb.val(amount).as('amount_micro'),
          eb.val<LedgerType>('debit').as('type'),
          eb.val(entry.source).as('source'),
          eb.val(entry.note ?? null).as('note'),
          eb.val(entry.createdAt).as('created_at'),
        ])
        .where((eb) => eb(balance, '>=', amount)),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
