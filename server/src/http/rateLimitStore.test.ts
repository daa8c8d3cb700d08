import { sql } from 'kysely';
import { engineOf } from '../db/connection';
import { createTestApp, FIXTURE_SPEC, type TestApp } from '../../test/testApp';
import { PRUNE_INTERVAL_MS } from './rateLimitStore';

const WINDOW_MS = 60_000;
const LIMITS = {
  RATE_LIMIT_MAX: '4',
  AUTH_RATE_LIMIT_MAX: '2',
  RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
};

/** Calls `operationId` from `ip` on each app in turn, answering the status codes. */
async function alternate(
  apps: TestApp[],
  count: number,
  ip: string,
  operationId = 'fxListItems',
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const app = apps[i % apps.length]!;
    const body = operationId === 'fxListItems' ? undefined : {};
    statuses.push((await app.call(operationId, { remoteAddress: ip, body })).statusCode);
  }
  return statuses;
}

describe('rate limits shared in the database', () => {
  // Two apps over one database: two server processes behind a load balancer.
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({ specification: FIXTURE_SPEC, env: LIMITS });
    b = await createTestApp({ specification: FIXTURE_SPEC, env: LIMITS, beside: a });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('counts one budget per IP across processes, as if one served every request', async () => {
    expect(await alternate([a, b], 4, '10.0.1.1')).toEqual([200, 200, 200, 200]);
    const limited = await b.call('fxListItems', { remoteAddress: '10.0.1.1' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBe(WINDOW_MS / 1000);
    expect(limited.json().msg).toMatch(/^Too many requests/);
    expect((await a.call('fxListItems', { remoteAddress: '10.0.1.1' })).statusCode).toBe(429);
    // Another client has its own budget.
    expect(await alternate([b, a], 1, '10.0.1.2')).toEqual([200]);
  });

  it('counts concurrent requests exactly (no read-then-write race)', async () => {
    const all = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).call('fxListItems', { remoteAddress: '10.0.1.3' }),
      ),
    );
    const statuses = all.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8);
  });

  it('keeps the sign-in budget apart from the global one', async () => {
    // preLogin with an empty body fails validation (422) after the limiter counted it.
    expect(await alternate([a, b], 3, '10.0.2.1', 'preLogin')).toEqual([422, 422, 429]);
    expect(await alternate([b, a], 5, '10.0.2.1')).toEqual([200, 200, 200, 200, 429]);
    // The global budget used up leaves what is left of the sign-in one.
    expect(await alternate([a, b], 3, '10.0.2.2')).toEqual([200, 200, 200]);
    expect(await alternate([a, b], 2, '10.0.2.2')).toEqual([200, 429]);
    expect(await alternate([b, a], 3, '10.0.2.2', 'preLogin')).toEqual([422, 422, 429]);
    // Each route with a limit of its own keeps its own budget, as the plugin's own stores do.
    expect(await alternate([a, b], 3, '10.0.2.2', 'login')).toEqual([422, 422, 429]);
  });

  it('claims a large budget in blocks: one write per block, never more than the budget', async () => {
    // 100 requests per window: blocks of 5 (claimSize), so each process writes once per 5.
    const env = { ...LIMITS, RATE_LIMIT_MAX: '100' };
    const c = await createTestApp({ specification: FIXTURE_SPEC, env, beside: a });
    const d = await createTestApp({ specification: FIXTURE_SPEC, env, beside: a });
    try {
      const claimed = async () =>
        Number(
          (
            await c.db
              .selectFrom('rate_limits')
              .select('count')
              .where('key', '=', 'global|10.0.5.1')
              .executeTakeFirstOrThrow()
          ).count,
        );
      expect(await alternate([c], 7, '10.0.5.1')).toEqual(Array(7).fill(200));
      expect(await claimed()).toBe(10); // two blocks for seven requests
      expect(await alternate([d], 3, '10.0.5.1')).toEqual([200, 200, 200]);
      expect(await claimed()).toBe(15); // d's own block, after c's
      // d alone: its 2 left, then blocks up to the budget; c still holds 3 of its block.
      const fromD = await alternate([d], 100, '10.0.5.1');
      expect(fromD.filter((status) => status === 200)).toHaveLength(87);
      expect(fromD.slice(87)).toEqual(Array(13).fill(429));
      expect(await alternate([c], 4, '10.0.5.1')).toEqual([200, 200, 200, 429]);
      // c learnt the budget was used up with one more claim (101-105); then no process writes.
      expect(await claimed()).toBe(105);
      expect(await alternate([c, d], 4, '10.0.5.1')).toEqual([429, 429, 429, 429]);
      expect(await claimed()).toBe(105);
      // One process alone uses its whole budget.
      const alone = await alternate([c], 101, '10.0.5.2');
      expect(alone.slice(0, 100)).toEqual(Array(100).fill(200));
      expect(alone[100]).toBe(429);
    } finally {
      await d.close();
      await c.close();
    }
  });

  it('lets requests through again once the window has ended', async () => {
    expect(await alternate([a, b], 5, '10.0.3.1')).toEqual([200, 200, 200, 200, 429]);
    a.clock.advance(WINDOW_MS / 2);
    const later = await b.call('fxListItems', { remoteAddress: '10.0.3.1' });
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBe(WINDOW_MS / 2000);
    a.clock.advance(WINDOW_MS / 2);
    expect(await alternate([b, a], 5, '10.0.3.1')).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('rate-limit windows in the database', () => {
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const keys = async (app: TestApp) =>
    (await app.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
      (row) => row.key,
    );

  it('keeps the counters out of the write-ahead log on PostgreSQL', async () => {
    t = await createTestApp({ specification: FIXTURE_SPEC, env: LIMITS });
    if (engineOf(t.db) !== 'postgres') return;
    const { rows } = await sql<{
      relpersistence: string;
    }>`select relpersistence from pg_class where oid = 'rate_limits'::regclass`.execute(t.db);
    expect(rows).toEqual([{ relpersistence: 'u' }]);
  });

  it('prunes ended windows now and then, not on every request', async () => {
    expect(PRUNE_INTERVAL_MS).toBe(WINDOW_MS); // the steps below rely on it
    t = await createTestApp({ specification: FIXTURE_SPEC, env: LIMITS });
    const hit = (ip: string) => t!.call('fxListItems', { remoteAddress: ip });
    await hit('10.0.4.1'); // the first request prunes (nothing yet)
    t.clock.advance(WINDOW_MS / 2);
    await hit('10.0.4.2');
    t.clock.advance(WINDOW_MS / 2);
    await hit('10.0.4.3'); // a prune is due: 10.0.4.1's window has ended
    expect(await keys(t)).toEqual(['global|10.0.4.2', 'global|10.0.4.3']);
    t.clock.advance(WINDOW_MS / 2);
    await hit('10.0.4.4'); // 10.0.4.2's window has ended, but the next prune is not due
    expect(await keys(t)).toEqual(['global|10.0.4.2', 'global|10.0.4.3', 'global|10.0.4.4']);
    t.clock.advance(WINDOW_MS / 2);
    await hit('10.0.4.5');
    expect(await keys(t)).toEqual(['global|10.0.4.4', 'global|10.0.4.5']);
  });

  it('lets requests through, and logs why, when the store fails', async () => {
    const lines: string[] = [];
    t = await createTestApp({
      specification: FIXTURE_SPEC,
      env: { ...LIMITS, RATE_LIMIT_MAX: '1' },
      logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } },
    });
    expect((await t.call('fxListItems')).statusCode).toBe(200);
    expect((await t.call('fxListItems')).statusCode).toBe(429);
    await sql`drop table rate_limits`.execute(t.db);
    // Refused from memory for the rest of the window; the next window needs the store.
    expect((await t.call('fxListItems')).statusCode).toBe(429);
    t.clock.advance(WINDOW_MS);
    const res = await t.call('fxListItems');
    expect(res.statusCode).toBe(200);
    expect(lines.map((line) => JSON.parse(line).msg)).toContain(
      'Rate-limit store failed; the request goes through unlimited',
    );
  });
});
