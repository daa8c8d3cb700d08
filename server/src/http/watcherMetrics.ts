import type { Db } from '../db/connection';
import { specChainAdapters, type ChainConfig } from '../domain/chain';
import { watcherLag } from '../domain/payments/depositScan';
import type { Metrics } from './metrics';

/**
 * How far the gateway's deposit watcher is behind each chain: blocks between the head and the
 * last block it read (watch_cursors). The local chain's head is read live from the database, so
 * a watcher that stopped shows a growing lag; a JSON-RPC chain's is the head the watcher saw at
 * its last pass (a scrape makes no RPC call: a stopped watcher shows in portal_jobs_* instead).
 * A chain appears once its watcher has run there.
 */
export function registerWatcherGauges(metrics: Metrics, db: Db, config: ChainConfig): void {
  const chains = specChainAdapters(config, db);
  metrics.gauge({
    name: 'portal_chain_watcher_lag_blocks',
    help: 'Blocks between a chain head and the last block the deposit watcher read, by chain id.',
    labelNames: ['chain_id', 'source'],
    collect: async (set) => {
      for (const { chainId, kind, lag } of await watcherLag(db, chains)) {
        set({ chain_id: chainId, source: kind }, lag);
      }
    },
  });
}
