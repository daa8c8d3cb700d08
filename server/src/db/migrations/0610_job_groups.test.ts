import { Migrator, sql, type Kysely } from 'kysely';
import { freshTestStore, type TestStore } from '../../../test/testStore';
import { engineOf, openDb, type Db } from '../connection';
import { migrations } from './index';

// Migration 0610 on a queue already there: the deliveries queued before it take their app from
// their payload as their group, so a receiver's outage that spans the upgrade stays capped; other
// jobs, and deliveries queued before payloads named their app, have no group.

let store: TestStore;
let db: Db;
beforeAll(async () => {
  store = await freshTestStore('portal-m0610-');
  db = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
});
afterAll(async () => {
  await db.destroy();
  await store.close();
});

it('gives each queued delivery its app as its group', async () => {
  const untyped = db as unknown as Kysely<unknown>;
  const before = Object.fromEntries(
    Object.entries(migrations).filter(([name]) => name < '0610_job_groups'),
  );
  const migrator = new Migrator({
    db: untyped,
    provider: { getMigrations: async () => before },
    migrationTableSchema:
      engineOf(db) === 'postgres'
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
        : undefined,
  });
  const done = await migrator.migrateToLatest();
  if (done.error) throw done.error;
  // PostgreSQL's payload is jsonb.
  const cast = engineOf(db) === 'postgres' ? sql`::jsonb` : sql``;
  for (const [id, kind, payload] of [
    ['job_1', 'webhooks.deliver', { deliveryId: 'd1', wake: 1, appId: 'app_1' }],
    ['job_2', 'webhooks.deliver', { deliveryId: 'd2', wake: 1 }],
    ['job_3', 'gas.provision', { appId: 'app_1' }],
  ] as const) {
    await sql`insert into jobs (id, kind, key, payload, state, run_at, attempts, max_attempts,
        created_at)
      values (${id}, ${kind}, ${id}, ${JSON.stringify(payload)}${cast}, 'queued', 0, 0, 10, 0)`.execute(
      db,
    );
  }

  await migrations['0610_job_groups']!.up(untyped);

  const groups = await db.selectFrom('jobs').select(['id', 'group_key']).orderBy('id').execute();
  expect(groups).toEqual([
    { id: 'job_1', group_key: 'app_1' },
    { id: 'job_2', group_key: null },
    { id: 'job_3', group_key: null },
  ]);
});
