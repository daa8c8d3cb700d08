import { runAdmin } from '../admin';
import { openDb, type Db } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { testClock } from '../../test/testApp';
import {
  addJob,
  claimJob,
  claimJobs,
  completeJob,
  failJob,
  queueStats,
  retryJob,
  runNow,
  type Job,
} from './queue';
import { startWorker, type Lane, type Task } from './worker';
import { pause, until } from '../../test/until';

// The job mechanism on both engines. Each "process" has its own connection (pool) to one
// database, as two server processes would.

let store: TestStore;
let one: Db;
let two: Db;
beforeAll(async () => {
  store = await freshTestStore('portal-jobs-');
  one = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  await migrateToLatest(one);
  two = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
});
afterAll(async () => {
  await one.destroy();
  await two.destroy();
  await store.close();
});
beforeEach(async () => {
  await one.deleteFrom('jobs').execute();
});

const quietLog = () => ({ error: jest.fn(), warn: jest.fn() });

/** A task that records which process ran which job. */
function recordingTask(runs: { job: string; by: string }[], by: string, workMs = 3): Task {
  return {
    kind: 'test.record',
    async run(job: Job) {
      runs.push({ job: job.id, by });
      await pause(workMs);
    },
  };
}

it('runs each job exactly once when two processes work the same queue', async () => {
  const now = Date.now();
  for (let i = 0; i < 60; i += 1) {
    await addJob(one, { kind: 'test.record', payload: { i } }, now);
  }
  const runs: { job: string; by: string }[] = [];
  const workers = await Promise.all([
    startWorker({
      db: one,
      tasks: [recordingTask(runs, 'one')],
      log: quietLog(),
      pollMs: 5,
      concurrency: 3,
    }),
    startWorker({
      db: two,
      tasks: [recordingTask(runs, 'two')],
      log: quietLog(),
      pollMs: 5,
      concurrency: 3,
    }),
  ]);
  try {
    await until(
      async () => (await one.selectFrom('jobs').select('id').execute()).length === 0,
      'an empty queue',
    );
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
  expect(runs).toHaveLength(60);
  expect(new Set(runs.map((r) => r.job)).size).toBe(60);
  expect(new Set(runs.map((r) => r.by))).toEqual(new Set(['one', 'two']));
});

it('keeps one row per recurring task and runs each turn once across processes', async () => {
  const clock = testClock();
  const runs: { job: string; by: string }[] = [];
  const task = (by: string): Task => ({ ...recordingTask(runs, by), everyMs: 60_000 });
  const [a, b] = await Promise.all([
    startWorker({ db: one, tasks: [task('one')], log: quietLog(), clock, pollMs: 0 }),
    startWorker({ db: two, tasks: [task('two')], log: quietLog(), clock, pollMs: 0 }),
  ]);
  expect(await one.selectFrom('jobs').select('kind').execute()).toEqual([{ kind: 'test.record' }]);
  const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
  expect(ranA + ranB).toBe(1);
  expect(await Promise.all([a.drain(), b.drain()])).toEqual([0, 0]);
  clock.advance(60_000);
  const next = await Promise.all([a.drain(), b.drain()]);
  expect(next[0] + next[1]).toBe(1);
  expect(runs).toHaveLength(2);
});

it('lets another process take over a job whose lease ran out, and ignores the late one', async () => {
  const now = Date.now();
  await addJob(one, { kind: 'test.lease' }, now);
  // Process one claims the job, then hangs (or dies) past its lease.
  const first = await claimJob(one, ['test.lease'], 'one', 1_000, now);
  expect(first).toMatchObject({ attempts: 1, locked_by: 'one' });
  expect(await claimJob(two, ['test.lease'], 'two', 1_000, now + 999)).toBeNull();
  const second = await claimJob(two, ['test.lease'], 'two', 1_000, now + 1_000);
  expect(second).toMatchObject({ id: first?.id, attempts: 2, locked_by: 'two' });
  if (!first || !second) throw new Error('unreachable');
  // The late finish of process one changes nothing: the job is two's now.
  await completeJob(one, first, 'one', now + 1_100);
  await failJob(one, first, 'one', 'late', now + 1_100);
  expect(await one.selectFrom('jobs').select(['locked_by', 'last_error']).execute()).toEqual([
    { locked_by: 'two', last_error: null },
  ]);
  await completeJob(two, second, 'two', now + 1_200);
  expect(await one.selectFrom('jobs').select('id').execute()).toEqual([]);
});

it('renews the lease of a long run, so no other process starts it meanwhile', async () => {
  await addJob(one, { kind: 'test.record' }, Date.now());
  const runs: { job: string; by: string }[] = [];
  const slow = await startWorker({
    db: one,
    tasks: [recordingTask(runs, 'one', 2_400)],
    log: quietLog(),
    pollMs: 0,
    leaseMs: 600,
  });
  const other = await startWorker({
    db: two,
    tasks: [recordingTask(runs, 'two')],
    log: quietLog(),
    pollMs: 0,
    leaseMs: 600,
  });
  // Lengths a busy machine's event-loop stalls cannot outlast (a heartbeat every third of the lease).
  const running = slow.drain();
  await pause(300);
  // Several lease lengths pass while the first run works; the job is never due for another.
  for (let i = 0; i < 6; i += 1) {
    expect(await other.drain()).toBe(0);
    await pause(300);
  }
  expect(await running).toBe(1);
  expect(runs.map((r) => r.by)).toEqual(['one']);
});

it('retries a failing job with growing delays, then keeps it as failed for the operator', async () => {
  const clock = testClock();
  const log = quietLog();
  let calls = 0;
  const worker = await startWorker({
    db: one,
    tasks: [
      {
        kind: 'test.fail',
        async run() {
          calls += 1;
          throw new Error('the other side is down');
        },
        retryDelayMs: (attempts) => attempts * 1_000,
      },
    ],
    log,
    clock,
    pollMs: 0,
  });
  await addJob(one, { kind: 'test.fail', maxAttempts: 3 }, clock().getTime());
  expect(await worker.drain()).toBe(1);
  clock.advance(999);
  expect(await worker.drain()).toBe(0);
  clock.advance(1);
  expect(await worker.drain()).toBe(1);
  clock.advance(2_000);
  expect(await worker.drain()).toBe(1);
  clock.advance(3_600_000);
  expect(await worker.drain()).toBe(0);
  expect(calls).toBe(3);
  const [job] = await one.selectFrom('jobs').selectAll().execute();
  expect(job).toMatchObject({
    state: 'failed',
    attempts: 3,
    last_error: 'Error: the other side is down',
  });
  expect(log.error).toHaveBeenCalledTimes(3);

  const stats = await queueStats(one, clock().getTime());
  expect(stats).toEqual([{ kind: 'test.fail', due: 0, running: 0, failed: 1, oldestDueMs: 0 }]);
  expect(await retryJob(one, job?.id ?? '', clock().getTime())).toBe(true);
  expect(await worker.drain()).toBe(1);
  expect(calls).toBe(4);
});

it('adds a keyed job once and reports the backlog by kind', async () => {
  const now = Date.now();
  expect(await addJob(one, { kind: 'test.key', key: 'deposit-1' }, now - 5_000)).toBe(true);
  expect(await addJob(two, { kind: 'test.key', key: 'deposit-1' }, now)).toBe(false);
  expect(await addJob(two, { kind: 'test.key', key: 'deposit-2', runAt: now + 60_000 }, now)).toBe(
    true,
  );
  await addJob(one, { kind: 'test.other' }, now - 1_000);
  expect(await queueStats(two, now)).toEqual([
    { kind: 'test.key', due: 1, running: 0, failed: 0, oldestDueMs: 5_000 },
    { kind: 'test.other', due: 1, running: 0, failed: 0, oldestDueMs: 1_000 },
  ]);
  await claimJob(one, ['test.other'], 'one', 30_000, now);
  expect((await queueStats(two, now))[1]).toEqual({
    kind: 'test.other',
    due: 0,
    running: 1,
    failed: 0,
    oldestDueMs: 0,
  });
});

it('shows the queue and retries a failed job through npm run admin -- jobs', async () => {
  const now = Date.now();
  await addJob(one, { kind: 'test.admin', maxAttempts: 1 }, now - 2_000);
  await addJob(one, { kind: 'test.waiting' }, now - 7_000);
  const claimed = await claimJob(one, ['test.admin'], 'one', 30_000, now);
  if (!claimed) throw new Error('no job to claim');
  await failJob(one, claimed, 'one', 'Error: boom', now);

  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (line) => lines.push(line) },
      {
        ...store.env,
        NODE_ENV: 'test',
      },
    );
    return { code, lines };
  };
  const listed = await admin('jobs');
  expect(listed.code).toBe(0);
  expect(listed.lines[0]).toMatch(/^kind\s+due\s+running\s+failed\s+oldest_wait$/);
  expect(listed.lines).toContainEqual(expect.stringMatching(/^test\.admin\s+0\s+0\s+1\s+0s$/));
  // Due 7 s before `now`, read a moment later (longer on a busy machine).
  expect(listed.lines).toContainEqual(
    expect.stringMatching(/^test\.waiting\s+1\s+0\s+0\s+([7-9]|[1-5]\d)s$/),
  );
  expect(listed.lines).toContainEqual(
    expect.stringMatching(new RegExp(`^${claimed.id}\\s+test\\.admin\\s+1\\s+Error: boom$`)),
  );

  expect(await admin('jobs', 'retry', claimed.id)).toEqual({
    code: 0,
    lines: [`Job ${claimed.id} is queued again.`],
  });
  expect(await admin('jobs', 'retry', claimed.id)).toEqual({
    code: 1,
    lines: [`No failed job ${claimed.id}.`],
  });
  expect(await claimJob(two, ['test.admin'], 'two', 30_000, Date.now())).toMatchObject({
    id: claimed.id,
    attempts: 1,
  });
});

/** A promise the test resolves: the runs awaiting it hang until then. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('lanes', () => {
  // A lane is a set of kinds with slots of its own; the deliveries' lane caps each app's jobs in
  // flight. The hung runs stand for a receiver that never answers.
  const deliveries: Lane = {
    name: 'test.deliveries',
    concurrency: 3,
    perGroup: { max: 2 },
  };

  it('still runs the chain watcher and the withdrawal sender while hung deliveries fill their slots', async () => {
    const clock = testClock();
    const hung = gate();
    const delivered: string[] = [];
    const ran: string[] = [];
    const recurring = (kind: string, lane: Lane): Task => ({
      kind,
      everyMs: 60_000,
      lane,
      async run() {
        ran.push(kind);
      },
    });
    // Due before the recurring kinds, from as many apps as there are slots and more.
    for (let i = 0; i < 6; i += 1) {
      await addJob(
        one,
        { kind: 'test.deliver', payload: { appId: `app_${i}` }, group: `app_${i}` },
        clock().getTime() - 60_000,
      );
    }
    const worker = await startWorker({
      db: one,
      tasks: [
        {
          kind: 'test.deliver',
          lane: deliveries,
          async run(job) {
            delivered.push(job.id);
            await hung.opened;
          },
        },
        recurring('test.watch:56', { name: 'test.chain' }),
        recurring('test.send', { name: 'test.money' }),
      ],
      log: quietLog(),
      clock,
      pollMs: 5,
    });
    try {
      await until(
        async () => ran.length === 2 && delivered.length === 3,
        'the recurring kinds to run beside three hung deliveries',
      );
    } finally {
      hung.open();
      await worker.stop();
    }
    expect(ran.sort()).toEqual(['test.send', 'test.watch:56']);
  }, 60_000);

  it("caps an app's deliveries in flight across processes; another app's still run", async () => {
    const clock = testClock();
    const hung = gate();
    let inFlight = 0;
    let mostInFlight = 0;
    const ranFor: string[] = [];
    const task = (): Task => ({
      kind: 'test.deliver',
      lane: deliveries,
      async run(job) {
        const { appId } = job.payload as { appId: string };
        ranFor.push(appId);
        if (appId !== 'app_slow') return;
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await hung.opened;
        inFlight -= 1;
      },
    });
    const at = clock().getTime();
    // The slow app's jobs come first in the queue, more of them than both processes have slots.
    for (let i = 0; i < 8; i += 1) {
      await addJob(
        one,
        { kind: 'test.deliver', payload: { appId: 'app_slow' }, group: 'app_slow' },
        at - 60_000,
      );
    }
    for (let i = 0; i < 3; i += 1) {
      await addJob(
        one,
        { kind: 'test.deliver', payload: { appId: 'app_quick' }, group: 'app_quick' },
        at,
      );
    }
    const workers = await Promise.all(
      [one, two].map((db) =>
        startWorker({ db, tasks: [task()], log: quietLog(), clock, pollMs: 5 }),
      ),
    );
    try {
      await until(
        async () => ranFor.filter((app) => app === 'app_quick').length === 3,
        "the quick app's deliveries beside the slow app's",
      );
      expect(inFlight).toBe(2);
    } finally {
      hung.open();
      await until(
        async () => (await one.selectFrom('jobs').select('id').execute()).length === 0,
        'an empty queue',
      );
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(ranFor.filter((app) => app === 'app_slow')).toHaveLength(8);
    expect(mostInFlight).toBe(2);
  }, 60_000);
});

describe('claiming several jobs at once', () => {
  const cap = { max: 2 };
  const add = (appId: string | null, at: number) =>
    addJob(
      one,
      { kind: 'test.batch', payload: appId ? { appId } : {}, ...(appId ? { group: appId } : {}) },
      at,
    );

  it('takes the oldest due jobs up to the free slots, no group past its cap', async () => {
    const now = Date.now();
    // app_a already holds one lease: one more of its jobs may go out.
    await add('app_a', now - 10_000);
    expect(await claimJob(two, ['test.batch'], 'two', 30_000, now, cap)).toMatchObject({
      locked_by: 'two',
    });
    for (let i = 0; i < 4; i += 1) await add('app_a', now - 9_000 + i);
    for (let i = 0; i < 3; i += 1) await add('app_b', now - 8_000 + i);
    await add(null, now - 7_000);
    await add('app_c', now + 60_000); // not due yet
    const claimed = await claimJobs(one, ['test.batch'], 'one', 30_000, now, 10, cap);
    const apps = claimed.map((job) => (job.payload as { appId?: string }).appId ?? 'none');
    expect(apps).toEqual(['app_a', 'app_b', 'app_b', 'none']);
    expect(claimed.map((job) => job.locked_by)).toEqual(['one', 'one', 'one', 'one']);
    // Every group is at its cap now; nothing more until a lease ends.
    expect(await claimJobs(two, ['test.batch'], 'two', 30_000, now, 10, cap)).toEqual([]);
    // Without a cap, the limit alone bounds a claim.
    const uncapped = await claimJobs(two, ['test.batch'], 'two', 30_000, now, 2);
    expect(uncapped.map((job) => (job.payload as { appId?: string }).appId)).toEqual([
      'app_a',
      'app_a',
    ]);
  });

  it('takes the next group once one is at its cap, however many jobs the first has due', async () => {
    const now = Date.now();
    for (let i = 0; i < 3; i += 1) await add('app_a', now - 9_000 + i);
    await add('app_b', now - 1_000);
    const claim = async () =>
      (await claimJobs(one, ['test.batch'], 'one', 30_000, now, 1, cap)).map(
        (job) => (job.payload as { appId: string }).appId,
      );
    expect(await claim()).toEqual(['app_a']);
    expect(await claim()).toEqual(['app_a']);
    // app_a is at its cap: its third job is passed over for app_b's, the newer.
    expect(await claim()).toEqual(['app_b']);
    expect(await claim()).toEqual([]);
  });
});

describe('wake-ups', () => {
  /** Longer than any test may wait: a run that came through the poll would fail `until`. */
  const NEVER_POLLS = 3_600_000;

  it('claims a job as soon as the transaction that added it commits, not at the next poll', async () => {
    const ran: string[] = [];
    const worker = await startWorker({
      db: one,
      tasks: [{ kind: 'test.woken', run: async (job) => void ran.push(job.id) }],
      log: quietLog(),
      pollMs: NEVER_POLLS,
      listenUrl: store.databaseUrl,
    });
    try {
      // The worker has looked at the empty queue and sleeps until its next poll.
      await pause(50);
      await one.transaction().execute(async (trx) => {
        await addJob(trx, { kind: 'test.woken', key: 'first' }, Date.now());
        await addJob(trx, { kind: 'test.woken', key: 'second' }, Date.now());
      });
      await until(async () => ran.length === 2, 'both jobs run without a poll');
      // A job added for later waits for its time: nothing wakes the worker for it.
      await addJob(
        one,
        { kind: 'test.woken', key: 'later', runAt: Date.now() + 60_000 },
        Date.now(),
      );
      await pause(100);
      expect(ran).toHaveLength(2);
    } finally {
      await worker.stop();
    }
  });

  it('runs a recurring job at once when asked, and again right after a run it interrupted', async () => {
    const started: number[] = [];
    const gate = { open: () => {} };
    const task: Task = {
      kind: 'test.watch',
      everyMs: NEVER_POLLS,
      async run() {
        started.push(started.length);
        // The first run waits until the test has asked for another one meanwhile.
        if (started.length === 1) await new Promise<void>((resolve) => (gate.open = resolve));
      },
    };
    const worker = await startWorker({
      db: one,
      tasks: [task],
      log: quietLog(),
      pollMs: NEVER_POLLS,
      listenUrl: store.databaseUrl,
    });
    try {
      await until(async () => started.length === 1, 'the first turn of a new recurring job');
      expect(await runNow(one, 'test.watch', Date.now())).toBe(true);
      gate.open();
      await until(async () => started.length === 2, 'a second run once the first ended');
      // Idle now, its next turn an hour away: asked again, it runs again.
      await pause(50);
      await runNow(one, 'test.watch', Date.now());
      await until(async () => started.length === 3, 'a run on request');
      await pause(100);
      expect(started).toHaveLength(3);
    } finally {
      gate.open();
      await worker.stop();
    }
  });
});
