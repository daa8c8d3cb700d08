import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connection';
import { pingDatabase } from '../domain/health';
import { TimeoutError, withTimeout } from './timeout';

/**
 * Below the usual probe timeouts (Kubernetes: 1 s by default), so a hanging database answers 503
 * rather than a timed-out probe, and far above a healthy `select 1`.
 */
export const HEALTH_TIMEOUT_MS = 800;

interface Health {
  status: 'ok' | 'unavailable';
  /** Only when unavailable: why, without details (the log has them). */
  database?: 'error' | 'timeout';
}

/**
 * GET /healthz for load balancers: 200 while this process can reach the database, else 503.
 * Outside /api, so neither rate-limited nor the SPA shell; `warn` keeps the polls out of the log.
 */
export function registerHealth(app: FastifyInstance, db: Db): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/healthz',
    logLevel: 'warn',
    handler: async (request, reply): Promise<Health> => {
      void reply.header('cache-control', 'no-store');
      try {
        await withTimeout(pingDatabase(db), HEALTH_TIMEOUT_MS);
        return { status: 'ok' };
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
