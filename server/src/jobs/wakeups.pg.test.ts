import { sql } from 'kysely';
import { changesOf, openDb, type Db } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { until } from '../../test/until';
import { listen, LISTENER_NAME, type Subscription } from '../db/listener';
import { JOB_DUE_CHANNEL } from './wakeups';
import { startWorker } from './worker';

// PostgreSQL: a job another process adds wakes this process's worker through the database's
// notification, sent on commit (migration 0550), with no signal inside this process at all, on
// the one connection by which the process also hears of the owners' changes.

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
    // The process's listening connection listens to the jobs' channel once a probe of it does:
    // the LISTENs run in their order on the one connection. The kept reads' feed listens on it
    // too, for the owners' changes.
    const probe = await new Promise<Subscription>((resolve) => {
      const subscription = listen(String(store.databaseUrl), JOB_DUE_CHANNEL, {
        heard: () => {},
        listening: () => resolve(subscription),
        lost: () => {},
      });
    });
    await probe.close();
    await until(async () => changesOf(mine)?.begin() !== null, 'the owner changes heard');
    const { rows } = await sql<{ name: string }>`select application_name as name
      from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`.execute(
      other,
    );
    expect(rows).toEqual([{ name: LISTENER_NAME }]);
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
