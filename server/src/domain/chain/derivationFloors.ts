import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';

// Addresses of deposit accounts and invoices are derived by index, each the one after the largest
// in its table. Deleting rows (Delete test data) would lower that largest one: derivation_floors
// keeps the lowest index each branch may still hand out, so no address is ever handed out twice.

export type AddressBranch = 'accounts' | 'invoices';

/** The index to hand out next: after the largest in use, and never below the branch's floor. */
export function nextIndex(largest: number | string | null, floor: number | string | null): number {
  const after = largest === null ? 0 : Number(largest) + 1;
  return Math.max(after, floor === null ? 0 : Number(floor));
}

/**
 * Raises `branch`'s floor past every index its table holds now; the caller holds the branch's
 * index lock, and deletes its rows after, in the same transaction.
 */
export async function raiseFloor(trx: Transaction<Database>, branch: AddressBranch): Promise<void> {
  const table = branch === 'accounts' ? 'app_accounts' : 'invoices';
  const row = await trx
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
  const next = nextIndex(row?.largest ?? null, row?.floor ?? null);
  await trx
    .insertInto('derivation_floors')
    .values({ branch, next_index: next })
    // `next` counts the floor already: never lower.
    .onConflict((oc) => oc.column('branch').doUpdateSet({ next_index: next }))
    .execute();
}
