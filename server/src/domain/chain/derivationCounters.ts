import type { Executor } from '../../db/prepared';
import { prepared } from '../../db/prepared';

// Addresses of deposit accounts and invoices are derived by index, one index per address, and an
// index handed out once is never handed out again: a payer may still send to its address. Each
// branch's next index is a counter (derivation_counters) raised by one atomic statement of its
// own, outside any lock or transaction, for as many creations as wait for an index at that moment
// (addressPool.ts): two processes' creations run side by side, a creation that fails after it
// leaves a gap (never a repeat), and deleting rows (Delete test data) cannot lower it.

export type AddressBranch = 'accounts' | 'invoices';

/** Each branch's path under WALLET_XPUB: account/<path>/0/<index>. */
export const BRANCH_PATHS: Readonly<Record<AddressBranch, number>> = { accounts: 2, invoices: 3 };

const counterOf = prepared({ branch: '' as AddressBranch }, (db, p) =>
  db.selectFrom('derivation_counters').select('next_index').where('branch', '=', p.branch),
);

// A branch's first indexes make its row (a fresh database has none).
const raise = prepared({ branch: '' as AddressBranch, count: 0 }, (db, p) =>
  db
    .insertInto('derivation_counters')
    .values({ branch: p.branch, next_index: p.count })
    .onConflict((oc) =>
      oc
        .column('branch')
        .doUpdateSet((eb) => ({ next_index: eb('derivation_counters.next_index', '+', p.count) })),
    )
    .returning('next_index'),
);

/** The index `branch` hands out next (what the address pool derives from). */
export async function nextIndexOf(db: Executor, branch: AddressBranch): Promise<number> {
  const [row] = await counterOf(db, { branch });
  return row ? Number(row.next_index) : 0;
}

/**
 * Hands out `count` consecutive indexes of `branch` and answers the first: one statement raises
 * the counter and returns it. Run it on the database, not inside a transaction: on PostgreSQL a
 * transaction would hold the counter's row until its commit, and every other creation would wait
 * for it.
 */
export async function takeIndexes(
  db: Executor,
  branch: AddressBranch,
  count: number,
): Promise<number> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`Bad index count ${count}`);
  const [row] = await raise(db, { branch, count });
  if (!row) throw new Error(`No derivation counter for ${branch}`);
  return Number(row.next_index) - count;
}
