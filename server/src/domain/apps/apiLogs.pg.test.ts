import { sql } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { insertEntries } from './apiLogs';

// PostgreSQL: API log rows have no foreign key to their app (migration 0700). The writer's insert
// looks each app up once and holds it until its transaction commits, as the key's check did.

describe('the API log rows on PostgreSQL', () => {
  const t = testAppPerBlock();
  const entry = (appId: string) => ({
    appId,
    method: 'GET',
    route: '/gateway/v1/methods',
    ip: '198.51.100.7',
    status: 200,
    at: new Date(Date.UTC(2026, 11, 4)),
  });

  it("leaves out a missing app's rows, and holds the others' apps until its commit", async () => {
    const userId = await addUser(t, 'held');
    await insertApp(t, { id: 'app_held', user_id: userId, created_at: t.clock().toISOString() });
    await t.db.transaction().execute(async (trx) => {
      const left = await insertEntries(trx, [entry('app_held'), entry('app_gone')]);
      expect(left).toEqual([entry('app_gone')]);
      // Another connection cannot delete the app before the rows naming it are committed.
      await expect(
        t.db.transaction().execute(async (other) => {
          await sql`SET LOCAL lock_timeout = '300ms'`.execute(other);
          await other.deleteFrom('apps').where('id', '=', 'app_held').execute();
        }),
      ).rejects.toThrow(/lock timeout/);
    });
    const rows = await t.db
      .selectFrom('api_logs')
      .select(['app_id', 'route'])
      .where('app_id', 'in', ['app_held', 'app_gone'])
      .execute();
    expect(rows).toEqual([{ app_id: 'app_held', route: '/gateway/v1/methods' }]);
  });
});
