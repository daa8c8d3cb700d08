import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { addJob, claimJob, failJob } from '../jobs/queue';
import { envelope, MSG } from './errors';
import { ProviderPool } from '../domain/chain/rpc';
import { UNMATCHED_ROUTE } from './metrics';
import { signerRefusals } from './signerMetrics';
import type { TestApp } from '../../test/testApp';
import { testAppPerBlock, withTestApp } from '../../test/withTestApp';
import { coded } from '../../test/expectations';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (label values here never hold `"` or `,`). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`Not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1] ?? '', labels, value: Number(m[3]) };
    });
}

/** The values of `name` whose labels include `labels`. */
function valuesOf(text: string, name: string, labels: Record<string, string> = {}): number[] {
  return samples(text)
    .filter((s) => s.name === name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .map((s) => s.value);
}

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.inject({ method: 'GET', url: '/metrics', headers });
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('GET /metrics', () => {
  const t = testAppPerBlock();

  it('serves the Prometheus text format, uncached, with the process metrics', async () => {
    const res = await t.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    expect(res.body).toContain('# TYPE http_requests_total counter');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(valuesOf(res.body, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(valuesOf(res.body, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
    // Prometheus asks for gzip.
    const zipped = await t.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
  });

  it('counts requests by route template and status, never by raw URL', async () => {
    const headers = await t.authHeader();
    for (const id of ['app_metrics_1', 'app_metrics_2']) {
      const res = await t.call('getAppDetails', { params: { id }, headers });
      expect(res.statusCode).toBe(404);
    }
    const text = await scrape(t);
    const route = '/api/cryptosafelock/app-details/:id';
    expect(
      valuesOf(text, 'http_requests_total', { method: 'GET', route, status_code: '404' }),
    ).toEqual([2]);
    expect(valuesOf(text, 'http_request_duration_seconds_count', { method: 'GET', route })).toEqual(
      [2],
    );
    expect(text).not.toContain('app_metrics_');
  });

  it('collapses every unmatched URL into one label', async () => {
    const before = await scrape(t);
    const unmatched = { method: 'GET', route: UNMATCHED_ROUTE, status_code: '404' };
    const [count = 0] = valuesOf(before, 'http_requests_total', unmatched);
    for (const url of ['/nothing/1', '/nothing/2?x=1', '/api/nothing-here/3', '/wp-login.php']) {
      expect((await t.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    const text = await scrape(t);
    expect(valuesOf(text, 'http_requests_total', unmatched)).toEqual([count + 4]);
    expect(text).not.toMatch(/nothing|wp-login/);
  });

  it('fills registered gauges from the database at each scrape', async () => {
    t.app.metrics.gauge({
      name: 'test_users_by_auth_type',
      help: 'Accounts by sign-in second factor.',
      labelNames: ['auth_type'],
      collect: async (set) => {
        const rows = await t.db
          .selectFrom('users')
          .select((eb) => ['auth_type', eb.fn.countAll<number>().as('n')])
          .groupBy('auth_type')
          .execute();
        for (const row of rows) set({ auth_type: row.auth_type }, Number(row.n));
      },
    });
    const users = () => t.db.selectFrom('users').select(['auth_type']).execute();
    const before = await users();
    const total = (text: string) =>
      valuesOf(text, 'test_users_by_auth_type').reduce((a, b) => a + b, 0);
    const first = await scrape(t);
    expect(total(first)).toBe(before.length);

    // Every account moves to one factor: the next scrape has only that series.
    await t.db.updateTable('users').set({ auth_type: 'otp' }).execute();
    const second = await scrape(t);
    expect(samples(second).filter((s) => s.name === 'test_users_by_auth_type')).toEqual([
      { name: 'test_users_by_auth_type', labels: { auth_type: 'otp' }, value: before.length },
    ]);
  });

  it('counts the requests the signer refused as untrusted, by request', async () => {
    const refused = signerRefusals(t.app.metrics);
    expect(await scrape(t)).toContain('# TYPE signer_refusals_total counter');
    refused('withdrawal');
    refused('withdrawal');
    refused('sweep');
    const text = await scrape(t);
    expect(valuesOf(text, 'signer_refusals_total', { request: 'withdrawal' })).toEqual([2]);
    expect(valuesOf(text, 'signer_refusals_total', { request: 'sweep' })).toEqual([1]);
  });

  it("counts each RPC provider's errors and failovers, named by its place and host only", async () => {
    // Two providers of chain 137 that refuse every connection (nothing listens on port 9).
    const pool = new ProviderPool(
      137,
      ['http://127.0.0.1:9/v3/secret-key', 'http://localhost:9/v2/other-key'],
      { timeoutMs: 1_000, rankIntervalMs: 100 },
    );
    try {
      await expect(pool.client.getBlockNumber()).rejects.toThrow();
    } finally {
      pool.close();
    }
    const text = await scrape(t);
    const first = { chain_id: '137', provider: '1:127.0.0.1:9' };
    expect(valuesOf(text, 'portal_rpc_errors_total', first)[0]).toBeGreaterThan(0);
    expect(valuesOf(text, 'portal_rpc_failovers_total', first)[0]).toBeGreaterThan(0);
    expect(
      valuesOf(text, 'portal_rpc_errors_total', { chain_id: '137', provider: '2:localhost:9' })[0],
    ).toBeGreaterThan(0);
    expect(text).not.toContain('secret-key');
  });

  it('reports the job queue: backlog, oldest wait and failed jobs by kind', async () => {
    const now = t.clock().getTime();
    await addJob(t.db, { kind: 'test.backlog' }, now - 90_000);
    await addJob(t.db, { kind: 'test.backlog' }, now - 30_000);
    await addJob(t.db, { kind: 'test.given-up', maxAttempts: 1 }, now);
    const job = await claimJob(t.db, ['test.given-up'], 'w', 30_000, now);
    if (!job) throw new Error('nothing to claim');
    await failJob(t.db, job, 'w', 'Error: down', now);
    const text = await scrape(t);
    expect(valuesOf(text, 'portal_jobs_due', { kind: 'test.backlog' })).toEqual([2]);
    expect(valuesOf(text, 'portal_jobs_oldest_due_seconds', { kind: 'test.backlog' })).toEqual([
      90,
    ]);
    expect(valuesOf(text, 'portal_jobs_failed', { kind: 'test.given-up' })).toEqual([1]);
    expect(valuesOf(text, 'portal_jobs_due', { kind: 'test.given-up' })).toEqual([0]);
  });

  it('answers the scrape when a collector fails, without that gauge', async () => {
    t.app.metrics.gauge({
      name: 'test_unlabelled',
      help: 'A gauge without labels.',
      collect: async (set) => set(7),
    });
    t.app.metrics.gauge({
      name: 'test_broken',
      help: 'A collector whose query fails.',
      collect: async () => {
        await t.db
          .selectFrom('no_such_table' as 'users')
          .select('id')
          .execute();
      },
    });
    const text = await scrape(t);
    expect(valuesOf(text, 'test_unlabelled')).toEqual([7]);
    expect(valuesOf(text, 'test_broken')).toEqual([]);
    expect(valuesOf(text, 'process_cpu_user_seconds_total')).toHaveLength(1);
  });

  it('keeps the counts of each app apart', async () => {
    await withTestApp({}, async (other) => {
      await other.inject({ method: 'GET', url: '/healthz' });
      const text = await scrape(other);
      const answered = samples(text).filter((s) => s.name === 'http_requests_total');
      expect(answered).toEqual([
        {
          name: 'http_requests_total',
          labels: { method: 'GET', route: '/healthz', status_code: '200' },
          value: 1,
        },
      ]);
    });
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'scrape-token-0123456789abcdef';
  const t = testAppPerBlock({ env: { METRICS_TOKEN: token } });

  function expectRefused(res: LightMyRequestResponse): void {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(coded(envelope(MSG.unauthenticated)));
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).not.toContain('http_requests_total');
  }

  it('refuses a scrape without the token or with another one', async () => {
    expectRefused(await t.inject({ method: 'GET', url: '/metrics' }));
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, token]) {
      expectRefused(await t.inject({ method: 'GET', url: '/metrics', headers: { authorization } }));
    }
    // A user's session is not the operator's token.
    expectRefused(
      await t.inject({ method: 'GET', url: '/metrics', headers: await t.authHeader() }),
    );
  });

  it('serves the metrics with the token, and leaves /healthz open', async () => {
    const text = await scrape(t, { authorization: `Bearer ${token}` });
    expect(
      valuesOf(text, 'http_requests_total', { route: '/metrics', status_code: '401' }),
    ).toEqual([expect.any(Number)]);
    expect((await t.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('operator routes beside the SPA', () => {
  const webDir = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));
  const t = testAppPerBlock({ webDir });
  const headers = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  it('answers a browser itself instead of with the SPA shell', async () => {
    const shell = await t.inject({ method: 'GET', url: '/healthz-not', headers });
    expect(shell.body).toContain('<title>Portal</title>');
    const health = await t.inject({ method: 'GET', url: '/healthz', headers });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toMatch(/^application\/json/);
    const metrics = await t.inject({ method: 'GET', url: '/metrics', headers });
    expect(metrics.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valuesOf(metrics.body, 'http_requests_total', { route: UNMATCHED_ROUTE })).toEqual([1]);
  });
});
