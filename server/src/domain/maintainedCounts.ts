import type { Kysely, Transaction } from 'kysely';
import { prepared } from '../db/prepared';
import type { CountedTable, Database } from '../db/schema';

// The lists' totals (`total`, `last_page`) without a COUNT(*) over a million rows: row_counts
// holds the rows per owner and table, kept by triggers in the transaction that inserts or
// deletes a row (migration 0230), so a count is never ahead of or behind the rows it counts.

type Executor = Kysely<Database> | Transaction<Database>;

/** Whose rows a table's count is kept for: the ledger's are a user's, the others an app's. */
const OWNER = {
  ledger_entries: 'user_id',
  receive_transactions: 'app_id',
  send_transactions: 'app_id',
  app_accounts: 'app_id',
  api_logs: 'app_id',
  webhook_deliveries: 'app_id',
} as const satisfies Record<CountedTable, string>;

export const COUNTED_TABLES = Object.keys(OWNER) as CountedTable[];

/** Rows of `kind` owned by `ownerId`, as kept (0 when it never had any). */
export async function rowCount(db: Executor, kind: CountedTable, ownerId: string): Promise<number> {
  const [row] = await keptCount(db, { ownerId, kind });
  return Number(row?.n ?? 0);
}

const keptCount = prepared(
  { ownerId: '', kind: 'api_logs' as CountedTable },
  (db, p) =>
    db
      .selectFrom('row_counts')
      .select('n')
      .where('owner_id', '=', p.ownerId)
      .where('kind', '=', p.kind),
  { ownerOf: (p) => p.ownerId },
);

// Every kind the owner has (a handful): one query whatever the kinds asked.
const keptCounts = prepared(
  { ownerId: '' },
  (db, p) => db.selectFrom('row_counts').select(['kind', 'n']).where('owner_id', '=', p.ownerId),
  { ownerOf: (p) => p.ownerId },
);

/** Several kinds of rows owned by `ownerId`, as kept, in one query (0 for a kind it never had). */
export async function rowCounts<K extends CountedTable>(
  db: Executor,
  kinds: readonly K[],
  ownerId: string,
): Promise<Record<K, number>> {
  const counts = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<K, number>;
  for (const row of await keptCounts(db, { ownerId })) {
    if (row.kind in counts) counts[row.kind as K] = Number(row.n);
  }
  return counts;
}

/** The same count read from the rows themselves (COUNT(*)): what rowCount must equal. */
export async function derivedRowCount(
  db: Executor,
  kind: CountedTable,
  ownerId: string,
): Promise<number> {
  const row = await db
    .selectFrom(kind)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(OWNER[kind], '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
