import { sql } from 'kysely';
import { openDb, type Db } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { until } from '../../test/until';
import { startWorker } from './worker';

// PostgreSQL: a job another process adds wakes this process's worker through the database's
// notification, sent on commit (migration 0550), with no signal inside this process at all.

let store: TestStore;
let mine: Db;
let other: Db;
beforeAll(async () => {
  store = await freshTestStore('portal-wakeups-');
  mine = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  await migrateToLatest(mine);
  other = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
});
afterAll(async () => {
  await mine.destroy();
  await other.destroy();
  await store.close();
});

it("wakes on another process's committed job, not before its commit", async () => {
  const ran: string[] = [];
  const worker = await startWorker({
    db: mine,
    tasks: [{ kind: 'test.notified', run: async (job) => void ran.push(job.id) }],
    log: { error: jest.fn(), warn: jest.fn() },
    // An hour: only the notification can bring the job in time.
    pollMs: 3_600_000,
    listenUrl: store.databaseUrl,
  });
  try {
    const now = Date.now();
    const row = (id: string) =>
      sql`insert into jobs (id, kind, key, payload, state, run_at, attempts, max_attempts,
            every_ms, locked_by, locked_until, last_error, created_at)
          values (${id}, 'test.notified', ${id}, '{}', 'queued', ${now}, 0, 3,
            null, null, null, null, ${now})`;
    // The listener answers its LISTEN before the first notification can reach it.
    await until(
      async () =>
        (
          await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and application_name = 'jobs-due-listener'
              and query like 'LISTEN%'`.execute(other)
        ).rows[0]?.n === 1,
      'the listening connection',
    );
    await other.transaction().execute(async (trx) => {
      await row('job_other_1').execute(trx);
      // Not yet committed: the worker has nothing to see.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ran).toEqual([]);
    });
    await until(async () => ran.length === 1, 'the job run on its notification');
    expect(ran).toEqual(['job_other_1']);
  } finally {
    await worker.stop();
  }
});
