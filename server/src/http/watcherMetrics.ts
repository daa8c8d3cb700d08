import type { Db } from '../db/connection';
import { specChainAdapters, type ChainConfig } from '../domain/chain';
import { onProviderEvent, type ProviderEvent } from '../domain/chain/rpc';
import { chainLags, watcherLag } from '../domain/payments/depositScan';
import type { Clock } from '../domain/time';
import type { Metrics } from './metrics';

/**
 * How far the gateway's deposit watcher is behind each chain: blocks between the head and the
 * last block it read (watch_cursors), and seconds since that block was mined. The local chain's head is read live from the database, so
 * a watcher that stopped shows a growing lag; a JSON-RPC chain's is the head the watcher saw at
 * its last pass (a scrape makes no RPC call: a stopped watcher shows in portal_jobs_* instead).
 * A chain appears once its watcher has run there.
 */
export function registerWatcherGauges(
  metrics: Metrics,
  db: Db,
  config: ChainConfig,
  clock: Clock,
): void {
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
  metrics.gauge({
    name: 'portal_chain_watcher_lag_seconds',
    help: 'Seconds since the last block the deposit watcher read was mined, by chain id.',
    labelNames: ['chain_id'],
    collect: async (set) => {
      for (const { chainId, seconds } of await chainLags(db, clock())) {
        if (seconds !== null) set({ chain_id: chainId }, seconds);
      }
    },
  });
}

/**
 * Per chain and provider (named by its place and host, never its URL's path: API keys), as this
 * process saw them (summed over the processes of a cluster):
 * - portal_rpc_errors_total: calls that failed on a provider;
 * - portal_rpc_failovers_total: requests a provider could not answer while another could be
 *   asked (failing, set aside, lagging or of another chain);
 * - portal_rpc_range_refusals_total: log ranges a provider refused as too wide or too large
 *   (each asked again in halves).
 * Answers how to stop counting (the app's close).
 */
export function registerProviderCounters(metrics: Metrics): () => void {
  const labelNames = ['chain_id', 'provider'] as const;
  const counters: Record<ProviderEvent, (labels: Record<'chain_id' | 'provider', string>) => void> =
    {
      error: metrics.counter({
        name: 'portal_rpc_errors_total',
        help: 'JSON-RPC calls that failed on a provider, by chain id and provider.',
        labelNames,
      }),
      failover: metrics.counter({
        name: 'portal_rpc_failovers_total',
        help: 'Requests a provider could not answer while the chain had another provider to ask.',
        labelNames,
      }),
      range_refused: metrics.counter({
        name: 'portal_rpc_range_refusals_total',
        help: 'eth_getLogs ranges a provider refused as too wide or too large (asked again in halves).',
        labelNames,
      }),
    };
  return onProviderEvent((event, chainId, provider) =>
    counters[event]({ chain_id: String(chainId), provider }),
  );
}
