import { closeSync, existsSync, openSync } from 'node:fs';
import { ownerOnly, ownerOnlyDir } from '../ownerOnly';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type LogConfig,
  type PostgresPoolClient,
  type PostgresCursor,
  type PostgresQueryResult,
  type QueryResult,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { checkpointInBackground } from './checkpoints';
import {
  OWN_CHANNEL_PREFIX,
  OWN_CHANNEL_SETTING,
  OWNER_CHANGED,
  OwnerChanges,
  OwnNotes,
  postgresFeed,
  sqliteFeed,
  type TableChanges,
} from './ownerChanges';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export const DB_FILE = 'portal.sqlite';

export type Engine = 'sqlite' | 'postgres';

// The only engine-specific code besides the column types of the migrations (db/columns.ts):
// everything else goes through Kysely's query builder and runs on both.
export function openDb(
  where: { dataDir: string; databaseUrl?: string },
  options: {
    log?: LogConfig;
    keptReads?: boolean;
    /** SQLite: checkpoint on a thread of its own instead of at commit (db/checkpoints.ts). */
    backgroundCheckpoints?: boolean;
  } = {},
): Db {
  const changes = options.keptReads === false ? undefined : new OwnerChanges();
  if (!where.databaseUrl) {
    const dialect = sqliteDialect(where.dataDir, changes, options.backgroundCheckpoints === true);
    return keeping(new Kysely<Database>({ dialect, log: options.log }), changes);
  }
  const dialects = postgresDialects(where.databaseUrl, changes);
  const db = keeping(new Kysely<Database>({ dialect: dialects.main, log: options.log }), changes);
  writersByDb.set(db, new Kysely<Database>({ dialect: dialects.writer, log: options.log }));
  return db;
}

function keeping(db: Db, changes: OwnerChanges | undefined): Db {
  if (changes) changesByDb.set(db, changes);
  return db;
}

const changesByDb = new WeakMap<object, OwnerChanges>();
const writersByDb = new WeakMap<object, Db>();

/**
 * PostgreSQL: the connection of its own on which `db`'s shared writes run their one statement
 * (db/sharedTransactions.ts). One writer per process sends them one at a time, and a statement
 * run on whichever pool connection was free cost its backend up to twice the CPU of one run on
 * the same connection as the last (cold caches; docs/performance.md). None for SQLite or a
 * transaction, whose writes stay on its own connection.
 */
export function writerOf(db: object): Db | undefined {
  return writersByDb.get(db);
}

/**
 * What `db` keeps of its users' rows (db/ownerChanges.ts); none for a transaction, whose reads
 * may see its own uncommitted writes.
 */
export function changesOf(db: object): OwnerChanges | undefined {
  return changesByDb.get(db);
}

function sqliteDialect(
  dataDir: string,
  changes: OwnerChanges | undefined,
  backgroundCheckpoints: boolean,
): SqliteDialect {
  ownerOnlyDir(dataDir);
  const file = path.join(dataDir, DB_FILE);
  // SQLite creates -wal and -shm with the database file's mode: make that owner-only before it
  // opens (and tighten what an earlier version left 0644).
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) ownerOnly(f);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // No waiting inside SQLite: a busy file is retried by FileLockedSqliteDriver without blocking.
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('synchronous = NORMAL');
  const stopCheckpoints = backgroundCheckpoints ? checkpointInBackground(sqlite, file) : undefined;
  hearOwnerChanges(sqlite, (owner, table) => changes?.changed(owner, table));
  if (changes) {
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    let tableChanges: ReturnType<BetterSqlite['prepare']> | undefined;
    const reads = {
      dataVersion: () => dataVersion.get(),
      tableChanges: () => {
        tableChanges ??= sqlite.prepare('SELECT name, n FROM kept_table_changes');
        return tableChanges.all() as TableChanges[];
      },
      inTransaction: () => sqlite.inTransaction,
    };
    changes.attach(sqliteFeed(changes, reads, `${file}-shm`));
  }
  return new FileLockedSqliteDialect(
    {
      database: reusingStatements(sqlite, () => {
        void changes?.close();
        void stopCheckpoints?.();
      }),
    },
    file,
  );
}

type BetterSqlite = InstanceType<typeof SqliteDatabase>;

/**
 * Defines `owner_changed`, which the triggers of migration 0240 call inside every write to the
 * tables of kept reads (db/ownerChanges.ts). A connection that writes to them must define it:
 * openDb does; another connection (a test's own, say) passes what to do, if anything.
 */
export function hearOwnerChanges(
  sqlite: BetterSqlite,
  heard: (owner: string, table?: string) => void,
): void {
  // `owner_changed(owner, table)` since migration 0630; the owner alone before it.
  sqlite.function(OWNER_CHANGED, { deterministic: false, varargs: true }, (...args: unknown[]) => {
    heard(String(args[0]), args.length > 1 ? String(args[1]) : undefined);
    return null;
  });
}

/** Statements kept per SQLite connection: more than the server's distinct queries. */
export const KEPT_STATEMENTS = 500;

/**
 * Kysely prepares every query anew, and SQLite's compiling of a statement cost as much as running
 * it on the dashboard's reads (a profile showed 17 % of the CPU in prepare). Statements are kept
 * by their SQL text and reused, the least recently used dropped past KEPT_STATEMENTS. Sharing one
 * is safe: Kysely runs one query at a time on the connection and runs each to its end (all/run;
 * nothing streams with iterate, which would keep a statement busy). A schema change re-compiles
 * a kept statement by itself (SQLite's prepare_v2).
 */
export function reusingStatements(
  sqlite: BetterSqlite,
  onClose: () => void = () => {},
): KyselySqliteDatabase {
  const kept = new Map<string, ReturnType<BetterSqlite['prepare']>>();
  return {
    close: () => {
      kept.clear();
      onClose();
      sqlite.close();
    },
    prepare(sql) {
      let statement = kept.get(sql);
      if (statement) {
        // Map order is insertion order: re-inserting makes it the most recently used.
        kept.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (kept.size >= KEPT_STATEMENTS) {
          const oldest = kept.keys().next().value;
          if (oldest !== undefined) kept.delete(oldest);
        }
      }
      kept.set(sql, statement);
      return statement;
    },
  };
}

// Connections to the same file in one process (tests that play two server processes) take
// turns, as transactions of one connection already do, instead of polling for each other's lock.
const fileTurns = new Map<string, Promise<void>>();

/** How long a statement waits for another process's write lock before failing (ms). */
const BUSY_WAIT_MS = 5_000;

/**
 * better-sqlite3's busy_timeout sleeps the whole thread, in steps that grow to 100 ms: a process
 * waiting for another's write lock answered nothing meanwhile, and with two processes on one
 * file the writes' p99 rose from 36-73 to 207-348 ms (docs/performance.md, Serving from every
 * core). So SQLite itself waits for no lock; a statement refused as busy is run again after a
 * 1 ms pause, during which the event loop serves whatever needs no database (kept reads). A
 * refused statement did nothing, so running it again is safe, and transactions take the write
 * lock at BEGIN (IMMEDIATE), so nothing inside one is refused half-way.
 */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

async function whenFree(
  run: () => Promise<QueryResult<unknown>>,
  refusal: unknown,
): Promise<QueryResult<unknown>> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  let error = refusal;
  while (isBusy(error) && Date.now() < deadline) {
    // 1 ms each time, not a growing pause: a longer one lets the other process take the lock
    // again and again (pauses growing to 8 ms still gave a p99 of 122 ms; 1 ms: 38-49).
    await new Promise((resolve) => setTimeout(resolve, 1));
    try {
      return await run();
    } catch (next) {
      error = next;
    }
  }
  throw error;
}

function patientConnection(connection: DatabaseConnection): DatabaseConnection {
  return {
    executeQuery<R>(query: CompiledQuery) {
      const run = () => connection.executeQuery<R>(query);
      // better-sqlite3 throws at once: the usual answer takes no extra promise.
      try {
        return run();
      } catch (error) {
        return whenFree(run, error) as Promise<QueryResult<R>>;
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

class FileLockedSqliteDriver extends SqliteDriver {
  #release: (() => void) | undefined;
  /** The driver's one connection, made patient once. */
  #patient: DatabaseConnection | undefined;

  constructor(
    config: SqliteDialectConfig,
    private readonly file: string,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const before = fileTurns.get(this.file) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = before.then(() => mine);
    fileTurns.set(this.file, turn);
    await before;
    this.#release = () => {
      if (fileTurns.get(this.file) === turn) fileTurns.delete(this.file);
      release();
    };
    const connection = await super.acquireConnection();
    this.#patient ??= patientConnection(connection);
    return this.#patient;
  }

  // IMMEDIATE: the write lock is taken (and waited for) before the first statement.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

class FileLockedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly file: string,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new FileLockedSqliteDriver(this.settings, this.file);
  }
}

// pg's parsers, per pool, so that rows read the same on both engines: integers are numbers
// (checked: a bigint past 2^53 throws instead of rounding), times are ISO-8601 strings and days
// YYYY-MM-DD as SQLite stores them, JSON arrives as its text (jsonb on disk, parsed by the
// domain as on SQLite), and numeric(78,0) on-chain amounts stay exact decimal strings.
const INT8 = 20;
const DATE = 1082;
const TIMESTAMPTZ = 1184;
const JSONB = 3802;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} is past 2^53`);
  return value;
}

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return parseInt8;
    if (oid === TIMESTAMPTZ) return (text: string) => new Date(text).toISOString();
    if (oid === DATE) return (text: string) => text;
    if (oid === JSONB) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  },
};

function postgresDialects(
  url: string,
  changes: OwnerChanges | undefined,
): { main: PostgresDialect; writer: PostgresDialect } {
  const feed = changes && postgresFeed(changes, url);
  if (feed) changes?.attach(feed);
  const pool = ownWritesPool(url, changes, 10);
  const writer = ownWritesPool(url, changes, 1);
  return {
    main: new PostgresDialect({
      pool: {
        connect: async () => namingClient(await pool.connect()),
        end: async () => {
          await Promise.all([feed?.close(), pool.end(), writer.end()]);
        },
      },
    }),
    // Ended with the main pool.
    writer: new PostgresDialect({
      pool: { connect: async () => namingClient(await writer.connect()), end: async () => {} },
    }),
  };
}

function ownWritesPool(url: string, changes: OwnerChanges | undefined, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, types: typeParsers, max });
  // An idle connection that fails (e.g. PostgreSQL restarted) leaves the pool by itself; unheard,
  // the pool's 'error' event would end the process.
  pool.on('error', () => {});
  // Each connection is told of its own writes (migration 0660): the owner triggers send the
  // writing session a notice when it has set its own channel, which a pool connection does
  // first, so this process hears of its own writes before it answers the request that made them
  // (a sign-out is refused at once on this process). No pool connection listens: PostgreSQL
  // wakes every listening backend at each commit that notifies, whatever its channel.
  // Everyone's writes reach the feed's one connection. One statement, queued before any the
  // pool's user sends.
  if (changes) {
    pool.on('connect', (client) => {
      const notes = new OwnNotes(changes);
      ownNotes.set(client, notes);
      client.on('notice', (notice) => notes.noticed(notice.message));
      client
        .query(
          `SELECT set_config('${OWN_CHANNEL_SETTING}', '${OWN_CHANNEL_PREFIX}' || pg_backend_pid(), false)`,
        )
        .catch(() => {});
    });
  }
  return pool;
}

/** What each pool connection was told of its own writes (db/ownerChanges.ts, OwnNotes). */
const ownNotes = new WeakMap<pg.PoolClient, OwnNotes>();

/** Statement names of the hot queries (db/prepared.ts), by their SQL text. */
const statementNames = new Map<string, string>();

/**
 * Has PostgreSQL keep `sql` as a named statement on each connection that runs it: parsed once
 * per connection instead of per call, and its plan cached once a generic one proves as good.
 * Parse and plan were most of a hot read's time on the server (0.1–1.2 ms of parse and
 * bind against 0.02–0.07 ms of execution). Only for the few texts `prepared()` registers: every
 * name lives as long as the connection, so naming every query would grow without bound.
 */
export function nameStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `hot${statementNames.size}`);
}

function namingClient(client: pg.PoolClient): PostgresPoolClient {
  function query<R>(
    sql: string,
    parameters: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sql: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely passes a cursor only to stream, which this dialect is not set up for.
    if (typeof sql !== 'string') throw new Error('Streaming is not set up on PostgreSQL');
    const name = statementNames.get(sql);
    return client.query({ name, text: sql, values: [...parameters] }).then((result) => ({
      command: result.command as PostgresQueryResult<R>['command'],
      rowCount: result.rowCount ?? 0,
      rows: result.rows as R[],
    }));
  }
  return {
    query,
    release: (destroy) => {
      ownNotes.get(client)?.settled();
      client.release(destroy);
    },
  };
}

/** Which engine a Kysely instance or transaction runs on (migrations pick column types by it). */
export function engineOf(db: { getExecutor(): { adapter: unknown } }): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
