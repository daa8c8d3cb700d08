import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { API_LOG_EARLY_FLUSH_ROWS, ApiLogWriter } from './apiLogs';

// The API Logs writer on its own: rows wait in memory until a flush (every second, early in a
// busy one, or at close), then land in one batch, in order.

describe('the API log writer', () => {
  const t = testAppPerBlock();
  const rows = () =>
    t.db
      .selectFrom('api_logs')
      .select(['app_id', 'method', 'route', 'ip', 'status', 'created_at'])
      .where('app_id', '=', 'app_logged')
      .orderBy('created_at')
      .execute();

  beforeAll(async () => {
    const userId = await addUser(t, 'logged');
    await insertApp(t, { id: 'app_logged', user_id: userId, created_at: t.clock().toISOString() });
  });

  it('writes nothing until a flush, then every buffered row; close writes the rest', async () => {
    const errors: unknown[] = [];
    // An hour between timed flushes: only the explicit ones below write.
    const writer = new ApiLogWriter(t.db, (error) => errors.push(error), 3_600_000);
    const entry = (i: number) => ({
      appId: 'app_logged',
      method: 'GET',
      route: '/gateway/v1/deposits/{id}',
      ip: '203.0.113.7',
      status: 200 + i,
      at: new Date(Date.UTC(2026, 10, 20, 12, 0, i)),
    });
    for (let i = 0; i < 150; i += 1) writer.add(entry(i));
    expect(await rows()).toEqual([]);
    await writer.flush();
    const written = await rows();
    expect(written).toHaveLength(150);
    expect(written[0]).toEqual({
      app_id: 'app_logged',
      method: 'GET',
      route: '/gateway/v1/deposits/{id}',
      ip: '203.0.113.7',
      status: 200,
      created_at: '2026-11-20T12:00:00.000Z',
    });
    expect(written.map((r) => r.status)).toEqual(Array.from({ length: 150 }, (_, i) => 200 + i));
    writer.add(entry(150));
    await writer.close();
    expect(await rows()).toHaveLength(151);
    expect(errors).toEqual([]);
  });

  it('writes a busy second early, before its interval', async () => {
    const app = 'app_busy';
    await insertApp(t, {
      id: app,
      user_id: await addUser(t, 'busy'),
      created_at: t.clock().toISOString(),
    });
    const writer = new ApiLogWriter(t.db, () => {}, 3_600_000);
    const count = async () =>
      (await t.db.selectFrom('api_logs').select('id').where('app_id', '=', app).execute()).length;
    try {
      for (let i = 0; i < API_LOG_EARLY_FLUSH_ROWS + 10; i += 1) {
        writer.add({
          appId: app,
          method: 'GET',
          route: '/gateway/v1/methods',
          ip: '::1',
          status: 200,
          at: new Date(Date.UTC(2026, 10, 22, 0, 0, 0, i)),
        });
      }
      const deadline = Date.now() + 5_000;
      while ((await count()) === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The batch it filled, and the rows added before its write began.
      expect(await count()).toBeGreaterThanOrEqual(API_LOG_EARLY_FLUSH_ROWS);
    } finally {
      await writer.close();
    }
    expect(await count()).toBe(API_LOG_EARLY_FLUSH_ROWS + 10);
  });

  it('flushes on its own every interval', async () => {
    const writer = new ApiLogWriter(t.db, () => {}, 50);
    try {
      writer.add({
        appId: 'app_logged',
        method: 'POST',
        route: '/gateway/v1/accounts',
        ip: '::1',
        status: 201,
        at: new Date(Date.UTC(2026, 10, 21)),
      });
      const deadline = Date.now() + 5_000;
      while ((await rows()).length < 152 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect((await rows()).at(-1)).toMatchObject({ route: '/gateway/v1/accounts', status: 201 });
    } finally {
      await writer.close();
    }
  });

  it('reports rows the database refuses instead of throwing, and goes on', async () => {
    const lost: number[] = [];
    const writer = new ApiLogWriter(t.db, (_error, n) => lost.push(n), 3_600_000);
    writer.add({
      appId: 'app_missing', // no such app: its row is refused
      method: 'GET',
      route: '/gateway/v1/methods',
      ip: '::1',
      status: 200,
      at: new Date(),
    });
    await writer.flush();
    expect(lost).toEqual([1]);
    await writer.close();
  });

  it('writes the rest of a batch when the database refuses one of its rows, naming that one', async () => {
    const reported: { lost: number; route: string | undefined }[] = [];
    const writer = new ApiLogWriter(
      t.db,
      (_error, lost, entry) => reported.push({ lost, route: entry?.route }),
      3_600_000,
    );
    const entry = (appId: string, route: string) => ({
      appId,
      method: 'GET',
      route,
      ip: '198.51.100.4',
      status: 200,
      at: new Date(Date.UTC(2026, 10, 23)),
    });
    writer.add(entry('app_logged', '/gateway/v1/batch-1'));
    // No such app: this row is refused, and only this row.
    writer.add(entry('app_missing', '/gateway/v1/batch-2'));
    writer.add(entry('app_logged', '/gateway/v1/batch-3'));
    await writer.close();
    const written = (await rows())
      .map((r) => r.route)
      .filter((r) => r.includes('batch'))
      .sort();
    expect(written).toEqual(['/gateway/v1/batch-1', '/gateway/v1/batch-3']);
    expect(reported).toEqual([{ lost: 1, route: '/gateway/v1/batch-2' }]);
  });

  it('keeps a row without an address out of the batch, reported, and writes the others', async () => {
    const reported: { lost: number; route: string | undefined }[] = [];
    const writer = new ApiLogWriter(
      t.db,
      (_error, lost, entry) => reported.push({ lost, route: entry?.route }),
      3_600_000,
    );
    const entry = (route: string, ip: string | undefined) => ({
      appId: 'app_logged',
      method: 'POST',
      route,
      // What a request whose connection closed early reads as its address.
      ip: ip as string,
      status: 400,
      at: new Date(Date.UTC(2026, 10, 24)),
    });
    writer.add(entry('/gateway/v1/noip-1', '198.51.100.5'));
    writer.add(entry('/gateway/v1/noip-2', undefined));
    writer.add(entry('/gateway/v1/noip-3', '198.51.100.6'));
    await writer.close();
    const written = (await rows())
      .filter((r) => r.route.includes('noip'))
      .map((r) => [r.route, r.ip])
      .sort();
    expect(written).toEqual([
      ['/gateway/v1/noip-1', '198.51.100.5'],
      ['/gateway/v1/noip-3', '198.51.100.6'],
    ]);
    expect(reported).toEqual([{ lost: 1, route: '/gateway/v1/noip-2' }]);
  });
});
