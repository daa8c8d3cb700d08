import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { openDb, type Db } from '../db/connection';
import { testAppPerBlock } from '../../test/withTestApp';
import type { TestApp } from '../../test/testApp';
import { specChainAdapters } from '../domain/chain';
import { watchDeposits } from '../domain/payments/deposits';
import { HEALTH_TIMEOUT_MS } from './health';

describe('GET /healthz', () => {
  const t = testAppPerBlock({ env: { RATE_LIMIT_MAX: '2' } });

  it('answers 200 while the database answers and every chain is read, never cached', async () => {
    // The watchers pass on every chain they read before (the demo's seed read them days ago).
    for (const chain of specChainAdapters(t.config, t.db)) {
      await watchDeposits(t.db, chain, t.clock());
    }
    const res = await t.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    const head = await t.inject({ method: 'HEAD', url: '/healthz' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('is not rate-limited (load balancers poll it)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await t.inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['ratelimit-limit']).toBeUndefined();
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  describe('when the database does not answer', () => {
    // An app of its own on a second connection (by default to the test's database), which the
    // test breaks.
    async function withAppOn(
      base: TestApp,
      body: (app: FastifyInstance, db: Db) => Promise<void>,
      databaseUrl = base.config.databaseUrl,
    ): Promise<void> {
      const db = openDb({ dataDir: base.dataDir, databaseUrl });
      const app = await buildApp({ config: base.config, db, logger: false });
      try {
        await body(app, db);
      } finally {
        await app.close();
      }
    }

    it('answers 503 without details once the connection is closed', async () => {
      await withAppOn(t, async (app, db) => {
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        await db.destroy();
        const res = await app.inject({ method: 'GET', url: '/healthz' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ status: 'unavailable', database: 'error' });
        expect(res.headers['cache-control']).toBe('no-store');
      });
    });

    it('answers 503 when the PostgreSQL server refuses connections', async () => {
      // Nothing listens on port 1: the pool's connect fails at once.
      await withAppOn(
        t,
        async (app, db) => {
          try {
            const res = await app.inject({ method: 'GET', url: '/healthz' });
            expect(res.statusCode).toBe(503);
            expect(res.json()).toEqual({ status: 'unavailable', database: 'error' });
          } finally {
            await db.destroy();
          }
        },
        'postgres://portal@127.0.0.1:1/portal',
      );
    });

    it('answers 503 within its timeout while every connection is busy', async () => {
      await withAppOn(t, async (app, db) => {
        // Ten holders: the whole PostgreSQL pool (max 10); SQLite's one connection and a queue.
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const holders = Array.from({ length: 10 }, () => db.connection().execute(() => gate));
        try {
          const started = Date.now();
          const res = await app.inject({ method: 'GET', url: '/healthz' });
          expect(res.statusCode).toBe(503);
          expect(res.json()).toEqual({ status: 'unavailable', database: 'timeout' });
          expect(Date.now() - started).toBeLessThan(HEALTH_TIMEOUT_MS + 1_000);
        } finally {
          release();
          await Promise.all(holders);
          await db.destroy();
        }
      });
    });
  });
});
