import type { Db } from '../db/connection';
import type { ChainAdapter } from '../domain/chain/adapter';
import { LocalChainAdapter, localHeads, type FollowedHead } from '../domain/chain/localAdapter';
import type { SpecChainId } from '../domain/chain/specChains';
import { watcherKind } from '../domain/payments/deposits';
import type { Clock } from '../domain/time';
import { runNow } from './queue';

export interface HeadFollower {
  stop(): Promise<void>;
}

/**
 * Follows each chain's head (`eth_blockNumber`, or the local chains' head rows, all in one read)
 * every `pollMs` and runs a chain's watcher at once when a new block arrives, instead of at its
 * next turn: a payment's confirming block reaches the watcher within one poll. Every server
 * process follows; the watcher still runs once across them (a recurring job claimed under a
 * lease), and its own interval stays as the safety net. A local chain's watcher that has already
 * read the new head (woken as the block was mined) is left alone: a block costs one pass, not
 * one more per process. A failed read is quiet: the watcher's own pass reports a chain it
 * cannot read.
 */
export function followHeads(
  db: Db,
  chains: readonly ChainAdapter[],
  options: { pollMs: number; clock: Clock },
): HeadFollower {
  let stopped = false;
  const wakers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(wake, ms);
      timer.unref();
      function wake() {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      }
      wakers.add(wake);
    });

  /**
   * Polls `read` (some chains' heads) and wakes the watcher of each chain whose head moved,
   * unless its watcher has already read that head (a local chain's block wakes its watcher as it
   * is mined, and every process follows).
   */
  async function follow(read: () => Promise<Map<SpecChainId, FollowedHead>>): Promise<void> {
    const seen = new Map<SpecChainId, number>();
    while (!stopped) {
      // Chains that cannot be read now are looked at again at the next poll.
      const heads = await read().catch(() => new Map<SpecChainId, FollowedHead>());
      for (const [chainId, { head, watched }] of heads) {
        const before = seen.get(chainId);
        const unread = watched === null || watched < head;
        if (before !== undefined && head > before && unread && !stopped) {
          await runNow(db, watcherKind(chainId), options.clock().getTime());
        }
        seen.set(chainId, head);
      }
      if (!stopped) await pause(options.pollMs);
    }
  }

  const local = chains.filter((chain) => chain instanceof LocalChainAdapter).map((c) => c.chainId);
  const reads = [
    ...chains
      .filter((chain) => !(chain instanceof LocalChainAdapter))
      .map(
        (chain) => async () =>
          new Map([[chain.chainId, { head: await chain.latestBlock(), watched: null }]]),
      ),
    ...(local.length > 0 ? [() => localHeads(db, local)] : []),
  ];
  const loops = options.pollMs > 0 ? reads.map((read) => follow(read)) : [];
  return {
    async stop() {
      stopped = true;
      for (const wake of wakers) wake();
      await Promise.all(loops);
    },
  };
}
