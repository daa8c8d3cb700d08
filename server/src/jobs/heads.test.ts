import {
  LocalChainAdapter,
  localHead,
  mineLocalBlocks,
  setLocalHead,
} from '../domain/chain/localAdapter';
import { SPEC_CHAIN_IDS, type SpecChainId } from '../domain/chain/specChains';
import { watcherKind } from '../domain/payments/deposits';
import { until } from '../../test/until';
import { testAppPerBlock } from '../../test/withTestApp';
import { followHeads } from './heads';
import { ensureRecurring } from './queue';

// The head follower: a block mined on one chain makes that chain's watcher due at once, and no
// other chain's; a block its watcher has already read wakes it no more.

const t = testAppPerBlock();

/** When the chain's watcher is due next. */
async function runAt(chainId: SpecChainId): Promise<number> {
  const job = await t.db
    .selectFrom('jobs')
    .select('run_at')
    .where('kind', '=', watcherKind(chainId))
    .executeTakeFirstOrThrow();
  return job.run_at;
}

it("wakes the watcher of the chain whose head moved, and only that chain's", async () => {
  const [mined, quiet] = SPEC_CHAIN_IDS;
  if (mined === undefined || quiet === undefined) throw new Error('Two spec chains expected');
  const now = t.clock().getTime();
  const later = now + 60_000;
  for (const chainId of [mined, quiet]) {
    await ensureRecurring(t.db, watcherKind(chainId), 60_000, now);
  }
  await t.db.updateTable('jobs').set({ run_at: later }).execute();
  const heads = followHeads(
    t.db,
    [new LocalChainAdapter(t.db, mined), new LocalChainAdapter(t.db, quiet)],
    { pollMs: 5, clock: t.clock },
  );
  try {
    // Its first read only notes where each chain is.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await runAt(mined)).toBe(later);
    await mineLocalBlocks(t.db, 1, mined);
    await until(async () => (await runAt(mined)) === now, 'the watcher to be due');
    expect(await runAt(quiet)).toBe(later);
  } finally {
    await heads.stop();
  }
});

it('leaves alone a watcher that has already read the new head', async () => {
  const [chainId] = SPEC_CHAIN_IDS;
  if (chainId === undefined) throw new Error('A spec chain expected');
  const now = t.clock().getTime();
  const later = now + 60_000;
  await ensureRecurring(t.db, watcherKind(chainId), 60_000, now);
  await t.db.updateTable('jobs').set({ run_at: later }).execute();
  /** A block mined and its watcher's pass reading it, at once (one transaction). */
  const minedAndWatched = () =>
    t.db.transaction().execute(async (trx) => {
      const head = (await localHead(trx, chainId)) + 1;
      await setLocalHead(trx, chainId, head);
      await trx
        .insertInto('watch_cursors')
        .values({ chain_id: chainId, scanned_block: head, head_block: head })
        .onConflict((oc) => oc.column('chain_id').doUpdateSet({ head_block: head }))
        .execute();
    });

  const heads = followHeads(t.db, [new LocalChainAdapter(t.db, chainId)], {
    pollMs: 100,
    clock: t.clock,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A block its watcher has read by the follower's next poll: nothing to wake it for.
    await minedAndWatched();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await runAt(chainId)).toBe(later);
    // A block its watcher has not read wakes it.
    await mineLocalBlocks(t.db, 1, chainId);
    await until(async () => (await runAt(chainId)) === now, 'the watcher to be due');
  } finally {
    await heads.stop();
  }
});
