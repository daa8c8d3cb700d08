import { createHash } from 'node:crypto';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import type { Address } from 'viem';
import { engineOf, type Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { BRANCH_PATHS, nextIndexOf, takeIndexes, type AddressBranch } from './derivationCounters';
import { deriveEvmAddress } from './hdWallet';

// Deriving an address costs about a millisecond of CPU (secp256k1 in JavaScript): derived on
// demand, it is most of a creation's work. So a job derives the next addresses of each branch
// ahead of need (address_pool), and a creation takes the one at the index it hands out. The pool
// is a cache, never a limit: an index it lacks (a burst that emptied it, a fresh start) is
// derived on the spot. Which index goes to whom is decided by the branch's counter
// (derivationCounters.ts): the pool only remembers what an index derives to, so it can never hand
// an address out twice, and a creation only reads it (a fill drops the rows behind the counter).

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

/** Pool parents by xpub and path: a creation needs its branch's, hashed once per process. */
const parents = new Map<string, string>();

/** The xpub and branch an address is derived from, as a pool row names it (a hash, not the key). */
export function poolParent(xpub: string, path: number): string {
  const source = `${xpub}/${path}`;
  let parent = parents.get(source);
  if (parent === undefined) {
    parent = createHash('sha256').update(source).digest('hex').slice(0, 32);
    parents.set(source, parent);
  }
  return parent;
}

const poolRange = prepared({ parent: '', from: 0, to: 0 }, (db, p) =>
  db
    .selectFrom('address_pool')
    .select(['derivation_index', 'address'])
    .where('parent', '=', p.parent)
    .where('derivation_index', '>=', p.from)
    .where('derivation_index', '<', p.to),
);

/**
 * PostgreSQL: takeIndexes and poolRange as one statement, one round trip where they were two.
 * The counter's raise commits on its own as before (a statement is its own transaction); the
 * pool's rows are read as they stood when the statement began, and one a fill wrote meanwhile
 * is derived on the spot, as any row the pool lacks.
 */
const takeWithPool = prepared({ branch: '' as AddressBranch, count: 0, parent: '' }, (db, p) =>
  db
    .with('raised', (q) =>
      q
        .insertInto('derivation_counters')
        .values({ branch: p.branch, next_index: p.count })
        .onConflict((oc) =>
          oc.column('branch').doUpdateSet((eb) => ({
            next_index: eb('derivation_counters.next_index', '+', p.count),
          })),
        )
        .returning('next_index'),
    )
    .selectFrom('raised')
    .leftJoin('address_pool as pool', (join) =>
      join
        .on('pool.parent', '=', p.parent)
        .on((eb) =>
          eb.and([
            eb('pool.derivation_index', '>=', eb('raised.next_index', '-', p.count)),
            eb('pool.derivation_index', '<', eb.ref('raised.next_index')),
          ]),
        ),
    )
    .select(['raised.next_index', 'pool.derivation_index', 'pool.address']),
);

/** Takes `count` indexes of `branch` and reads their pooled addresses: the first and the rows. */
async function takeFromPool(
  db: Db,
  branch: AddressBranch,
  parent: string,
  count: number,
): Promise<{ from: number; rows: readonly { derivation_index: number; address: string }[] }> {
  if (engineOf(db) !== 'postgres') {
    const from = await takeIndexes(db, branch, count);
    return { from, rows: await poolRange(db, { parent, from, to: from + count }) };
  }
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`Bad index count ${count}`);
  const rows = await takeWithPool(db, { branch, count, parent });
  const [first] = rows;
  if (!first) throw new Error(`No derivation counter for ${branch}`);
  return {
    from: Number(first.next_index) - count,
    rows: rows.flatMap(({ derivation_index: index, address }) =>
      index === null || address === null ? [] : [{ derivation_index: index, address }],
    ),
  };
}

/** An index of a branch, handed to one creation, and the EVM address it derives to. */
export interface HandedAddress {
  index: number;
  evm: Address;
}

interface Waiter {
  resolve(handed: HandedAddress): void;
  reject(error: unknown): void;
}

/** An index taken and not handed out yet, with its pooled address if the pool had it. */
interface Spare {
  index: number;
  evm: Address | undefined;
}

/**
 * Creations of one process waiting for an index of one branch, whether a take is on, the indexes
 * taken ahead of them, and when the counter was last raised (performance.now()).
 */
interface Queue {
  waiting: Waiter[];
  taking: boolean;
  spare: Spare[];
  lastTakeAt: number;
}

/** Most creations one take serves: the pool's rows of a take are read in one query. */
const MOST_AT_ONCE = 64;
/**
 * Indexes a take adds for the creations to come, in a burst: those creations then cost no
 * statement for their index. A process that stops leaves those it had not handed out unused:
 * after the first index of a take, which always goes to a creation, so at most this many in a
 * row, whatever the number of processes (wallets that scan stop after 20 unused).
 */
export const TAKEN_AHEAD = 7;
/** Takes this close together make a burst: the next take adds TAKEN_AHEAD. */
const BURST_GAP_MS = 1000;

const queues = new WeakMap<Db, Map<string, Queue>>();

/**
 * The next index of `branch` for one creation, and its address: the pool's, or derived now when
 * the pool lacks it. Creations that ask while a take is on wait for the next one, which hands out
 * an index to each of them in one raise of the counter and reads their addresses in one query:
 * a burst costs a statement or two per turn, not two per creation. In a burst (takes less than a
 * second apart) a take also raises the counter TAKEN_AHEAD further, and the next creations are
 * served from those with no statement at all; a lone creation takes its one index.
 */
export function handOutAddress(
  db: Db,
  xpub: string,
  branch: AddressBranch,
): Promise<HandedAddress> {
  let byBranch = queues.get(db);
  if (!byBranch) {
    byBranch = new Map();
    queues.set(db, byBranch);
  }
  const id = `${xpub}/${branch}`;
  let queue = byBranch.get(id);
  if (!queue) {
    queue = { waiting: [], taking: false, spare: [], lastTakeAt: -Infinity };
    byBranch.set(id, queue);
  }
  const mine = new Promise<HandedAddress>((resolve, reject) => {
    queue.waiting.push({ resolve, reject });
  });
  if (!queue.taking) void takeForWaiting(db, xpub, branch, queue);
  return mine;
}

/**
 * Returns an index handed out by handOutAddress that its creation surely did not use (its
 * customer had an account): the next creation of this process gets it, before any taken later,
 * so no index is left unused for it.
 */
export function giveBackAddress(
  db: Db,
  xpub: string,
  branch: AddressBranch,
  handed: HandedAddress,
): void {
  const queue = queues.get(db)?.get(`${xpub}/${branch}`);
  if (!queue) return;
  // A take under way serves its waiters from the spares first (takeForWaiting).
  const at = queue.spare.findIndex((spare) => spare.index > handed.index);
  queue.spare.splice(at === -1 ? queue.spare.length : at, 0, { ...handed });
}

/** Takes indexes for the queue's waiters, turn after turn, until none waits. */
async function takeForWaiting(
  db: Db,
  xpub: string,
  branch: AddressBranch,
  queue: Queue,
): Promise<void> {
  queue.taking = true;
  const path = BRANCH_PATHS[branch];
  const parent = poolParent(xpub, path);
  while (queue.waiting.length > 0) {
    const turn = queue.waiting.splice(0, MOST_AT_ONCE);
    try {
      const short = turn.length - queue.spare.length;
      if (short > 0) {
        const now = performance.now();
        const count = short + (now - queue.lastTakeAt < BURST_GAP_MS ? TAKEN_AHEAD : 0);
        queue.lastTakeAt = now;
        const { from, rows } = await takeFromPool(db, branch, parent, count);
        const pooled = new Map(rows.map((row) => [Number(row.derivation_index), row.address]));
        for (let index = from; index < from + count; index += 1) {
          queue.spare.push({ index, evm: pooled.get(index) as Address | undefined });
        }
      }
      for (const [i, { index, evm }] of queue.spare.splice(0, turn.length).entries()) {
        turn[i]?.resolve({ index, evm: evm ?? deriveEvmAddress(xpub, index, [path]) });
      }
    } catch (error) {
      for (const waiter of turn) waiter.reject(error);
    }
  }
  queue.taking = false;
}

/** Addresses derived between two turns of the event loop: a few milliseconds of CPU. */
const CHUNK = 8;
/** How long a fill waits before it looks again whether a burst of creations is on. */
const PAUSE_MS = 50;
/** Indexes a branch hands out per second above which a fill takes it for a burst. */
const BURST_PER_SECOND = 50;
/**
 * The shortest time over which a fill judges the rate: two creations at BURST_PER_SECOND. Over
 * less, a burst may not have handed out a single index (a few milliseconds between chunks).
 */
const RATE_WINDOW_MS = 2000 / BURST_PER_SECOND;
/**
 * Once a fill waits, the time over which it judges whether the burst is over: creations arrive
 * unevenly (a busy event loop, a client's pauses), and a few quiet milliseconds in a burst must
 * not end the wait.
 */
const RESUME_WINDOW_MS = 500;

/**
 * Fills each branch's pool up to `size` addresses past the next index it hands out, and drops the
 * rows no creation can take any more (below that index, or of another xpub). Derives a few at a
 * time and lets the event loop turn in between, so requests in this process wait at most a few
 * milliseconds for it; writes with ON CONFLICT, so a row another process wrote stays as it is.
 * It leaves a burst of creations its CPU: while the branch hands out more than BURST_PER_SECOND
 * indexes a second (judged over RATE_WINDOW_MS, then over RESUME_WINDOW_MS while it waits), the
 * fill waits, unless less than a quarter of `size` is ready (a creation that finds no address
 * derives its own, which costs the burst more).
 */
export async function fillAddressPool(
  db: Db,
  xpub: string,
  branches: readonly PooledBranch[],
  size: number,
): Promise<void> {
  // Another xpub's rows: those before, between and after this one's parents, as ranges of the
  // primary key. NOT IN would read the whole pool on every pass (25 ms for 80,000 rows, against
  // 0.2 ms).
  const bounds = [
    undefined,
    ...branches.map(({ path }) => poolParent(xpub, path)).sort(),
    undefined,
  ];
  await db
    .deleteFrom('address_pool')
    .where((eb) =>
      eb.or(
        bounds.slice(1).map((upper, i) => {
          const lower = bounds[i];
          return eb.and([
            ...(lower === undefined ? [] : [eb('parent', '>', lower)]),
            ...(upper === undefined ? [] : [eb('parent', '<', upper)]),
          ]);
        }),
      ),
    )
    .execute();
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
      if (performance.now() - look.at < RATE_WINDOW_MS) continue;
      // A burst on: wait while it lasts, looking every PAUSE_MS whether a quarter is still ready.
      for (let window = RATE_WINDOW_MS; ;) {
        const now = { at: performance.now(), next: await nextIndexOf(db, branch) };
        if (from - now.next < size / 4) {
          look = now;
          break;
        }
        if (now.at - look.at >= window) {
          const perSecond = ((now.next - look.next) * 1000) / (now.at - look.at);
          look = now;
          if (perSecond <= BURST_PER_SECOND) break;
          window = RESUME_WINDOW_MS;
        }
        await sleep(PAUSE_MS);
      }
    }
  }
}

/**
 * How many addresses each branch has ready (at or past its next index), for the metrics. A fill
 * writes each branch's rows from its highest index on and drops only those below the next index,
 * so those ready run without a gap from the next index to the highest: the count is their
 * difference, read in the primary key, where COUNT(*) read every row (2 ms for 40,000).
 */
export async function pooledCounts(
  db: Db,
  xpub: string,
  branches: readonly PooledBranch[],
): Promise<Record<AddressBranch, number>> {
  const counts: Record<AddressBranch, number> = { accounts: 0, invoices: 0 };
  for (const { branch, path } of branches) {
    const row = await db
      .selectFrom('address_pool')
      .select((eb) => eb.fn.max('derivation_index').as('top'))
      .where('parent', '=', poolParent(xpub, path))
      .executeTakeFirst();
    const top = row?.top == null ? -1 : Number(row.top);
    counts[branch] = Math.max(0, top + 1 - (await nextIndexOf(db, branch)));
  }
  return counts;
}
