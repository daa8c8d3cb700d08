import type { Transaction } from 'kysely';
import type { Executor } from '../../db/prepared';
import type { Database } from '../../db/schema';

// Addresses of deposit accounts and invoices are derived by index, each the one after the largest
// in its table. Deleting rows (Delete test data) would lower that largest one: derivation_floors
// keeps the lowest index each branch may still hand out, so no address is ever handed out twice.

export type AddressBranch = 'accounts' | 'invoices';

/** Each branch's path under WALLET_XPUB: account/<path>/0/<index>. */
export const BRANCH_PATHS: Readonly<Record<AddressBranch, number>> = { accounts: 2, invoices: 3 };

/** The index to hand out next: after the largest in use, and never below the branch's floor. */
export function nextIndex(largest: number | string | null, floor: number | string | null): number {
  const after = largest === null ? 0 : Number(largest) + 1;
  return Math.max(after, floor === null ? 0 : Number(floor));
}

/** The index `branch` hands out next: after the largest its table holds, never below its floor. */
export async function nextIndexOf(db: Executor, branch: AddressBranch): Promise<number> {
  const table = branch === 'accounts' ? 'app_accounts' : 'invoices';
  const row = await db
    .selectFrom(table)
    .select((eb) => [
      eb.fn.max('derivation_index').as('largest'),
      eb
        .selectFrom('derivation_floors')
        .select('next_index')
        .where('branch', '=', branch)
        .as('floor'),
    ])
    .executeTakeFirst();
  return nextIndex(row?.largest ?? null, row?.floor ?? null);
}

/**
 * Raises `branch`'s floor past every index its table holds now; the caller holds the branch's
 * index lock, and deletes its rows after, in the same transaction.
 */
export async function raiseFloor(trx: Transaction<Database>, branch: AddressBranch): Promise<void> {
  const next = await nextIndexOf(trx, branch);
  await trx
    .insertInto('derivation_floors')
    .values({ branch, next_index: next })
    // `next` counts the floor already: never lower.
    .onConflict((oc) => oc.column('branch').doUpdateSet({ next_index: next }))
    .execute();
}
