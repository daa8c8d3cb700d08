import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/app';
import type { HandlerMap } from '../src/http/operationTypes';
import { loadConfig, type Env } from '../src/config';
import type { Db } from '../src/db/connection';
import type { ResolvedConfig } from '../src/config';
import { createSession } from '../src/domain/account/sessions';
import { systemClock, type Clock } from '../src/domain/time';
import { openRuntime, resolveConfig, type Runtime } from '../src/runtime';
import { DEMO_ACCOUNT } from '../src/seed';
import { OPENAPI_PATH } from '../src/paths';
import { call, urlOf, type CallOptions } from './operations';
import { freshTestStore, seededTestStore, siblingTestStore, type TestStore } from './testStore';

export const FIXTURE_SPEC = path.join(__dirname, 'fixtures', 'openapi.yaml');

/**
 * Plain answers for the fixture contract's own operations (fx*), which no handler module
 * implements; a test replaces the ones it looks at through `handlerOverrides`.
 */
const FIXTURE_HANDLERS: HandlerMap = {
  fxListItems: async () => ({ status: true, data: [] }),
  fxCreateItem: async () => ({ status: true, msg: 'created', errors: {} }),
  fxSignOut: async () => ({ status: true, msg: 'bye', errors: {} }),
  fxBoard: async () => ({ status: true, msg: 'board', errors: {} }),
  fxMaybeUser: async () => ({ status: true, msg: 'maybe', errors: {} }),
  fxUpload: async () => ({ status: true, msg: 'uploaded', errors: {} }),
};

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: ResolvedConfig;
  dataDir: string;
  /** DATA_DIR and DATABASE_URL of this app, for admin commands run beside it. */
  storeEnv: TestStore['env'];
  /** Settable clock (starts at the real time); `advance` moves it. */
  clock: TestClock;
  /** Signs `username` in (default: the demo account) and returns its Authorization header. */
  authHeader(username?: string): Promise<{ authorization: string }>;
  /** Calls an operation of the app's contract by operationId (see operations.ts). */
  call(operationId: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** The URL of an operation of the app's contract, as the server's own links spell it. */
  urlOf(operationId: string, options?: Pick<CallOptions, 'params' | 'query'>): string;
  /** A raw request: only for URLs no operation has (unknown routes, the SPA). */
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestClock extends Clock {
  set(date: Date): void;
  advance(ms: number): void;
}

export function testClock(start: Date = systemClock()): TestClock {
  let now = start.getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.set = (d) => {
    now = d.getTime();
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface TestAppOptions extends Partial<Omit<BuildAppOptions, 'config' | 'db' | 'clock'>> {
  /** Extra env on top of the test defaults (e.g. `{ AUTH_RATE_LIMIT_MAX: '2' }`). */
  env?: Env;
  /**
   * Builds another server process of that app's deployment: its own fresh DATA_DIR, the same
   * database through the same connection (on SQLite the file stays in the first app's DATA_DIR,
   * so run admin commands with the first app's `storeEnv`). Close it before the first app.
   */
  sameDatabaseAs?: TestApp;
  /**
   * Builds this app over another test app's DATA_DIR and database (its own connection) with the
   * same clock, as a second server process on the same host would run; closing it leaves them to
   * that app.
   */
  beside?: TestApp;
}

/**
 * Settings only the running app reads (request limits and brakes, sessions, proxies, mail,
 * response validation, metrics, webhook sending), never the migrations or the seed, whose inputs
 * are the database, DATA_DIR's keys, the wallet, the chain and rate settings, PORT and
 * SEED_DEMO (runtime.ts openRuntime). Migrating and seeding a template costs about 0.5 s on
 * SQLite and 2 s on PostgreSQL; auth.test.ts alone sets seven of these combinations. A setting
 * missing here only costs a template of its own.
 */
const UNSEEN_BY_SEED: ReadonlySet<string> = new Set([
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'AUTH_RATE_LIMIT_MAX',
  'GATEWAY_RATE_LIMIT_MAX',
  'CHECKOUT_RATE_LIMIT_MAX',
  'LINK_INVOICE_RATE_LIMIT_MAX',
  'REFUND_CLAIM_RATE_LIMIT_MAX',
  'GATEWAY_AUTH_FAILURE_MAX',
  'GATEWAY_AUTH_FAILURE_WINDOW_MS',
  'LOGIN_ACCOUNT_MAX_FAILURES',
  'LOGIN_IP_MAX_FAILURES',
  'LOGIN_FAILURE_WINDOW_MS',
  'LOGIN_LOCK_THRESHOLD',
  'LOGIN_LOCK_MINUTES',
  'RECOVERY_IP_MAX',
  'RECOVERY_NAME_MAX',
  'RECOVERY_FAILED_RESET_MAX',
  'TRUST_PROXY',
  'SESSION_IDLE_MINUTES',
  'SESSION_MAX_HOURS',
  'SMTP_URL',
  'MAIL_FROM',
  'RESPONSE_VALIDATION',
  'METRICS_TOKEN',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_TEST_EVENTS_PER_MINUTE',
]);

/**
 * A fresh app on a temp DATA_DIR: migrated, seeded (demo account included), response
 * validation on. Uses the real openapi.yaml unless `specification` says otherwise.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { env: extraEnv, sameDatabaseAs, beside, ...buildOptions } = options;
  const env: Env = {
    NODE_ENV: 'test',
    SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789',
    RESPONSE_VALIDATION: 'true',
    RATE_LIMIT_MAX: '10000',
    AUTH_RATE_LIMIT_MAX: '10000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...extraEnv,
  };
  // A new deployment starts from a copy of a store seeded once with the same configuration
  // (testStore.ts), unless the test chose the store itself. The settings the seed never reads
  // are left out of it, so apps that differ only in those share one template.
  const copied = !sameDatabaseAs && !beside && !('DATA_DIR' in env) && !('DATABASE_URL' in env);
  const seedEnv = Object.fromEntries(
    Object.entries(env).filter(([key]) => !UNSEEN_BY_SEED.has(key)),
  ) as Env;
  const store: Pick<TestStore, 'env' | 'close'> = sameDatabaseAs
    ? siblingTestStore(sameDatabaseAs.storeEnv.DATABASE_URL)
    : beside
      ? { env: beside.storeEnv, close: async () => {} }
      : copied
        ? await seededTestStore(JSON.stringify(seedEnv), async (at) => {
            const seeded = await openRuntime(loadConfig({ ...at, ...seedEnv }));
            await seeded.close();
          })
        : await freshTestStore();
  const dataDir = store.env.DATA_DIR;
  const config = loadConfig({ ...store.env, ...env });
  const runtime: Runtime = sameDatabaseAs
    ? { config: resolveConfig(config), db: sameDatabaseAs.db, close: async () => {} }
    : await openRuntime(config, { seed: !copied });
  const clock = beside?.clock ?? testClock();
  const specification = options.specification ?? OPENAPI_PATH;
  let app: FastifyInstance;
  try {
    const handlerOverrides =
      options.specification === FIXTURE_SPEC
        ? { ...FIXTURE_HANDLERS, ...options.handlerOverrides }
        : options.handlerOverrides;
    app = await buildApp({
      ...buildOptions,
      handlerOverrides,
      config: runtime.config,
      db: runtime.db,
      clock,
    });
    await app.ready();
  } catch (err) {
    await runtime.close();
    await store.close();
    throw err;
  }
  return {
    app,
    db: runtime.db,
    config: runtime.config,
    dataDir,
    storeEnv: store.env,
    clock,
    async authHeader(username = DEMO_ACCOUNT.username) {
      const user = await runtime.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      const { token } = await createSession(runtime.db, user.id, {}, clock);
      return { authorization: `Bearer ${token}` };
    },
    call: (operationId, callOptions) => call(app, operationId, callOptions, specification),
    urlOf: (operationId, urlOptions) => urlOf(operationId, urlOptions, specification),
    inject: (opts) => app.inject(opts),
    async close() {
      await app.close();
      await runtime.close();
      await store.close();
    },
  };
}
