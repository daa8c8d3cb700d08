import type { Db } from '../db/connection';
import type { ChainAdapter } from '../domain/chain/adapter';
import { watcherKind } from '../domain/payments/deposits';
import type { Clock } from '../domain/time';
import { runNow } from './queue';

export interface HeadFollower {
  stop(): Promise<void>;
}

/**
 * Follows each chain's head (`eth_blockNumber`, or the local chain's head row) every `pollMs`
 * and runs the chain's watcher at once when a new block arrives, instead of at its next turn:
 * a payment's confirming block reaches the watcher within one poll. Every server process
 * follows; the watcher still runs once across them (a recurring job claimed under a lease), and
 * its own interval stays as the safety net. A failed read is quiet: the watcher's own pass
 * reports a chain it cannot read.
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

  async function follow(chain: ChainAdapter): Promise<void> {
    let seen: number | undefined;
    while (!stopped) {
      // A chain that cannot be read now is looked at again at the next poll.
      const head = await chain.latestBlock().catch(() => undefined);
      if (head !== undefined) {
        if (seen !== undefined && head > seen && !stopped) {
          await runNow(db, watcherKind(chain.chainId), options.clock().getTime());
        }
        seen = head;
      }
      if (!stopped) await pause(options.pollMs);
    }
  }

  const loops = options.pollMs > 0 ? chains.map((chain) => follow(chain)) : [];
  return {
    async stop() {
      stopped = true;
      for (const wake of wakers) wake();
      await Promise.all(loops);
    },
  };
}
