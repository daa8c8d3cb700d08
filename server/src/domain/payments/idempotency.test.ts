import { openDb, type Db } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { freshTestStore, type TestStore } from '../../../test/testStore';
import { ConflictError } from '../errors';
import { IDEMPOTENCY_IN_FLIGHT, idempotent } from './idempotency';

// What the HTTP tests (handlers/subscriptions.test.ts) cannot reach: a first use that died.

let store: TestStore;
let db: Db;
beforeAll(async () => {
  store = await freshTestStore('portal-idem-');
  db = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  await store.close();
});

const ok = (body: string) => async () => ({ status: 201, body });

it('takes over a first use that died, once its lease has run out', async () => {
  const now = Date.now();
  const request = { scope: 's', key: 'died', request: { a: 1 }, now };
  // The first use claims the key, then its process is killed mid-way.
  const killed = idempotent(db, request, () => new Promise<never>(() => {}));
  void killed;
  await new Promise((resolve) => setTimeout(resolve, 50));
  await expect(idempotent(db, { ...request, now: now + 59_999 }, ok('x'))).rejects.toEqual(
    new ConflictError(IDEMPOTENCY_IN_FLIGHT),
  );
  // Taken over, it runs afresh (not a replay); a retry after that replays its answer.
  expect(await idempotent(db, { ...request, now: now + 60_000 }, ok('second'))).toEqual({
    status: 201,
    body: 'second',
    replayed: false,
  });
  expect(await idempotent(db, { ...request, now: now + 60_001 }, ok('third'))).toEqual({
    status: 201,
    body: 'second',
    replayed: true,
  });
});

it('forgets answers after a day', async () => {
  const now = Date.now();
  const request = { scope: 's', key: 'old', request: {}, now };
  expect((await idempotent(db, request, ok('then'))).body).toBe('then');
  expect((await idempotent(db, { ...request, now: now + 86_399_999 }, ok('now'))).body).toBe(
    'then',
  );
  expect((await idempotent(db, { ...request, now: now + 86_400_001 }, ok('now'))).body).toBe('now');
});
