import { createHash } from 'node:crypto';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import type { Address } from 'viem';
import type { Db } from '../../db/connection';
import { prepared, type Executor } from '../../db/prepared';
import { BRANCH_PATHS, nextIndexOf, type AddressBranch } from './derivationCounters';
import { deriveEvmAddress } from './hdWallet';

// Deriving an address costs about a millisecond of CPU (secp256k1 in JavaScript): derived on
// demand, it is most of a creation's work. So a job derives the next addresses of each branch
// ahead of need (address_pool), and a creation takes the one at the index it hands out. The pool
// is a cache, never a limit: an index it lacks (a burst that emptied it, a fresh start) is
// derived on the spot. Which index goes to whom is decided by the branch's counter
// (derivationCounters.ts): the pool only remembers what an index derives to, so it can never hand
// an address out twice.

/** A branch of the wallet's addresses that the pool keeps ahead. */
export interface PooledBranch {
  branch: AddressBranch;
  /** Its path under WALLET_XPUB (ACCOUNT_BRANCH, INVOICE_BRANCH). */
  path: number;
}

/** The branches kept ahead: deposit accounts' and invoices'. */
export const POOLED_BRANCHES: readonly PooledBranch[] = [
  { branch: 'accounts', path: BRANCH_PATHS.accounts },
  { branch: 'invoices', path: BRANCH_PATHS.invoices },
];

/** The xpub and branch an address is derived from, as a pool row names it (a hash, not the key). */
export function poolParent(xpub: string, path: number): string {
  return createHash('sha256').update(`${xpub}/${path}`).digest('hex').slice(0, 32);
}

const takeQuery = prepared({ parent: '', index: 0 }, (db, p) =>
  db
    .deleteFrom('address_pool')
    .where('parent', '=', p.parent)
    .where('derivation_index', '=', p.index)
    .returning('address'),
);

/**
 * The EVM address at `index` of the branch at `path`, an index the caller was handed
 * (takeIndex): the pool's (its row taken) or, when the pool lacks it, derived now.
 */
export async function takeAddress(
  db: Executor,
  xpub: string,
  path: number,
  index: number,
): Promise<Address> {
  const [row] = await takeQuery(db, { parent: poolParent(xpub, path), index });
  return (row?.address as Address | undefined) ?? deriveEvmAddress(xpub, index, [path]);
}

/** Addresses derived between two turns of the event loop: a few milliseconds of CPU. */
const CHUNK = 8;
/** How long a fill waits before it looks again whether a burst of creations is on. */
const PAUSE_MS = 50;
/** Indexes a branch hands out per second above which a fill takes it for a burst. */
const BURST_PER_SECOND = 50;

/**
 * Fills each branch's pool up to `size` addresses past the next index it hands out, and drops the
 * rows no creation can take any more (below that index, or of another xpub). Derives a few at a
 * time and lets the event loop turn in between, so requests in this process wait at most a few
 * milliseconds for it; writes with ON CONFLICT, so a row another process wrote stays as it is.
 * It leaves a burst of creations its CPU: while the branch hands out more than BURST_PER_SECOND
 * indexes a second, the fill waits, unless less than a quarter of `size` is ready (a creation
 * that finds no address derives its own, which costs the burst more).
 */
export async function fillAddressPool(
  db: Db,
  xpub: string,
  branches: readonly PooledBranch[],
  size: number,
): Promise<void> {
  const parents = branches.map(({ path }) => poolParent(xpub, path));
  await db.deleteFrom('address_pool').where('parent', 'not in', parents).execute();
  for (const { branch, path } of branches) {
    const parent = poolParent(xpub, path);
    const next = await nextIndexOf(db, branch);
    await db
      .deleteFrom('address_pool')
      .where('parent', '=', parent)
      .where('derivation_index', '<', next)
      .execute();
    const top = await db
      .selectFrom('address_pool')
      .select((eb) => eb.fn.max('derivation_index').as('top'))
      .where('parent', '=', parent)
      .executeTakeFirst();
    const end = next + size;
    let look = { at: performance.now(), next };
    for (let from = Math.max(next, top?.top == null ? 0 : Number(top.top) + 1); from < end;) {
      const upTo = Math.min(from + CHUNK, end);
      const rows = [];
      for (let index = from; index < upTo; index += 1) {
        rows.push({
          parent,
          derivation_index: index,
          address: deriveEvmAddress(xpub, index, [path]),
        });
      }
      await db
        .insertInto('address_pool')
        .values(rows)
        .onConflict((oc) => oc.columns(['parent', 'derivation_index']).doNothing())
        .execute();
      from = upTo;
      await turn();
      for (;;) {
        const now = { at: performance.now(), next: await nextIndexOf(db, branch) };
        const perSecond = ((now.next - look.next) * 1000) / Math.max(now.at - look.at, 1);
        look = now;
        if (perSecond <= BURST_PER_SECOND || from - now.next < size / 4) break;
        await sleep(PAUSE_MS);
      }
    }
  }
}

/** How many addresses each branch has ready, for the metrics. */
export async function pooledCounts(
  db: Db,
  xpub: string,
  branches: readonly PooledBranch[],
): Promise<Record<AddressBranch, number>> {
  const counts: Record<AddressBranch, number> = { accounts: 0, invoices: 0 };
  for (const { branch, path } of branches) {
    const row = await db
      .selectFrom('address_pool')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('parent', '=', poolParent(xpub, path))
      .executeTakeFirst();
    counts[branch] = Number(row?.n ?? 0);
  }
  return counts;
}
