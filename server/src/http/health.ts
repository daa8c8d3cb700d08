import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connection';
import { pingDatabase } from '../domain/health';
import { chainLags } from '../domain/payments/depositScan';
import { PAYMENT_METHODS } from '../domain/chain/paymentMethods';
import type { Clock } from '../domain/time';
import { TimeoutError, withTimeout } from './timeout';

/**
 * Below the usual probe timeouts (Kubernetes: 1 s by default), so a hanging database answers 503
 * rather than a timed-out probe, and far above a healthy `select 1`.
 */
export const HEALTH_TIMEOUT_MS = 800;

/** A chain whose watcher has read nothing newer than the degraded threshold. */
interface LaggingChain {
  chain_id: number;
  /** The chain's network name, e.g. BNB Smart Chain. */
  name: string;
  /** How long ago the last block the watcher read was mined. */
  lag_seconds: number;
  /** Blocks between the head the watcher saw last and the last block it read. */
  lag_blocks: number;
}

interface Health {
  status: 'ok' | 'degraded' | 'unavailable';
  /** Only when unavailable: why, without details (the log has them). */
  database?: 'error' | 'timeout';
  /** Only when degraded: the chains whose deposits and payments are not being read. */
  chains?: LaggingChain[];
}

const networkName = (chainId: number) =>
  PAYMENT_METHODS.find((m) => m.chain_id === chainId)?.network_name ?? `chain ${chainId}`;

/**
 * GET /healthz for load balancers: 200 while this process can reach the database, else 503.
 * A chain whose watcher lags more than `lagDegradedSeconds` (its providers down, its watcher
 * stuck) makes it `degraded`, naming the chain, still 200: the process serves, and the other
 * chains are read. Outside /api, so neither rate-limited nor the SPA shell; `warn` keeps the
 * polls out of the log.
 */
export function registerHealth(
  app: FastifyInstance,
  db: Db,
  options: { lagDegradedSeconds: number; clock: Clock },
): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/healthz',
    logLevel: 'warn',
    handler: async (request, reply): Promise<Health> => {
      void reply.header('cache-control', 'no-store');
      try {
        const lags = await withTimeout(
          pingDatabase(db).then(() => chainLags(db, options.clock())),
          HEALTH_TIMEOUT_MS,
        );
        const chains = lags
          .filter((lag) => lag.seconds !== null && lag.seconds > options.lagDegradedSeconds)
          .map((lag) => ({
            chain_id: lag.chainId,
            name: networkName(lag.chainId),
            lag_seconds: lag.seconds ?? 0,
            lag_blocks: lag.blocks,
          }));
        return chains.length > 0 ? { status: 'degraded', chains } : { status: 'ok' };
      } catch (err) {
        request.log.warn({ err }, 'Health check failed: the database did not answer');
        void reply.code(503);
        return {
          status: 'unavailable',
          database: err instanceof TimeoutError ? 'timeout' : 'error',
        };
      }
    },
  });
}
