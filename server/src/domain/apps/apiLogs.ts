import { CompiledQuery, sql } from 'kysely';
import { engineOf, nameStatement, type Db } from '../../db/connection';
import { prepared, type Executor } from '../../db/prepared';
import { pingDatabase } from '../health';
import { newTimeOrderedId } from '../ids';

// The gateway's API Logs: one row per answered request (method, route template, ip, status,
// time), never the key and never a body. Rows are written in batches so that logging puts no
// database write on a request's path: kept in memory, flushed every second and when the server
// closes. The choice: a process killed outright (kill -9, power loss) loses the last second of
// logs at most. They are a view for the merchant, not a ledger; nothing is decided from them.

export interface ApiLogEntry {
  appId: string;
  method: string;
  route: string;
  ip: string;
  status: number;
  at: Date;
}

export const API_LOG_FLUSH_MS = 1_000;
/**
 * A busy second writes early, at this many rows: a process answering 17,000 gateway requests
 * a second (the benchmark, SQLite) filled the buffer below before the timer came and dropped
 * the rest.
 */
export const API_LOG_EARLY_FLUSH_ROWS = 2_000;
/** Past this many unwritten rows (the database is down or slow), new ones are dropped. */
const MAX_BUFFERED = 10_000;

/**
 * Rows go to the database as one JSON text per statement, which it takes apart itself: one
 * statement text per engine, prepared once (a named statement on PostgreSQL). Inserts of 100 rows
 * had bound 700 parameters each, and PostgreSQL parsed a new 700-placeholder statement each time.
 * 2,000 rows: 36 to 48 ms against 65 to 68 on PostgreSQL (this process's CPU 15 against 32 ms),
 * 46 to 61 against 54 to 61 on SQLite, where the rows' triggers take most of it.
 * Each row is an array in API_LOG_COLUMNS' order, not an object: no names to write and look up
 * again for every value (SQLite: about 1.5 µs less a row).
 */
const API_LOG_COLUMNS = ['id', 'app_id', 'method', 'route', 'ip', 'status', 'created_at'] as const;
type ApiLogRow = [string, string, string, string, string, number, string];

/** SQLite: a row of an app that does not exist fails the statement (the foreign key). */
const insertSqliteRows = prepared({ rows: '' }, (db, { rows }) =>
  db
    .insertInto('api_logs')
    .columns(API_LOG_COLUMNS)
    .expression(
      sql`SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
        value ->> 5, value ->> 6
        FROM json_each(${rows})`,
    ),
);

/**
 * PostgreSQL: the rows of apps that exist, each app looked up once a statement and held (FOR KEY
 * SHARE, as a foreign key's check holds it) until the commit; the others are left out. The
 * foreign key this replaces (migration 0700) checked every row: a quarter to a third of the
 * insert's time.
 */
const PG_INSERT = `WITH batch AS (SELECT value AS e FROM jsonb_array_elements($1::jsonb)),
  known AS (SELECT id FROM apps WHERE id IN (SELECT DISTINCT e ->> 1 FROM batch) FOR KEY SHARE)
  INSERT INTO api_logs (${API_LOG_COLUMNS.join(', ')})
  SELECT e ->> 0, e ->> 1, e ->> 2, e ->> 3, e ->> 4, (e ->> 5)::integer, (e ->> 6)::timestamptz
  FROM batch JOIN known ON known.id = batch.e ->> 1`;

/** Writes `entries`; answers those left out because their app does not exist (PostgreSQL). */
export async function insertEntries(
  db: Executor,
  entries: readonly ApiLogEntry[],
): Promise<ApiLogEntry[]> {
  const rows = JSON.stringify(entries.map(toRow));
  if (engineOf(db) !== 'postgres') {
    await insertSqliteRows(db, { rows });
    return [];
  }
  nameStatement(PG_INSERT);
  const { numAffectedRows } = await db.executeQuery(CompiledQuery.raw(PG_INSERT, [rows]));
  if (Number(numAffectedRows ?? 0) === entries.length) return [];
  const appIds = [...new Set(entries.map((entry) => entry.appId))];
  const found = await db.selectFrom('apps').select('id').where('id', 'in', appIds).execute();
  const known = new Set(found.map((app) => app.id));
  return entries.filter((entry) => !known.has(entry.appId));
}

/** What the writer reports for a row whose app does not exist. */
const noSuchApp = (entry: ApiLogEntry) => new Error(`API log row refused: no app ${entry.appId}`);

/**
 * Why a row cannot go into a batch, or null: every column is NOT NULL, and one refused value
 * fails its whole statement, so a row missing one is kept out before it can cost the others.
 */
function refusal(entry: ApiLogEntry): string | null {
  for (const column of ['appId', 'method', 'route', 'ip'] as const) {
    if (typeof entry[column] !== 'string' || entry[column] === '') return `no ${column}`;
  }
  if (!Number.isInteger(entry.status)) return 'no status';
  if (!(entry.at instanceof Date) || Number.isNaN(entry.at.getTime())) return 'no time';
  return null;
}

function toRow(entry: ApiLogEntry): ApiLogRow {
  return [
    newTimeOrderedId('log', entry.at),
    entry.appId,
    entry.method,
    entry.route,
    entry.ip,
    entry.status,
    entry.at.toISOString(),
  ];
}

/**
 * What the writer reports: rows it could not write (`lost`), with `entry` when the loss is that
 * one row (its own refusal, or the database's when the rows were written one by one).
 */
export type ApiLogErrorReporter = (error: unknown, lost: number, entry?: ApiLogEntry) => void;

export class ApiLogWriter {
  private buffer: ApiLogEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly onError: ApiLogErrorReporter,
    flushEveryMs = API_LOG_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    // Never keeps the process alive on its own; close() writes what is left.
    this.timer.unref();
  }

  add(entry: ApiLogEntry): void {
    const refused = refusal(entry);
    if (refused !== null) {
      this.onError(new Error(`API log row refused: ${refused}`), 1, entry);
      return;
    }
    if (this.buffer.length >= MAX_BUFFERED) {
      this.dropped += 1;
      return;
    }
    this.buffer.push(entry);
    // Once per buffer: the flush it queues takes every row added until it runs.
    if (this.buffer.length === API_LOG_EARLY_FLUSH_ROWS) void this.flush();
  }

  /** Writes the rows buffered so far; flushes never overlap, so rows keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** The last flush; then nothing is buffered any more (Fastify onClose). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const rows = this.buffer;
    if (rows.length === 0) return;
    this.buffer = [];
    let appless: ApiLogEntry[] = [];
    try {
      // One transaction per flush: one commit a second, however many rows (each chunk its own
      // commit wrote the same index pages again for every 100 rows).
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += API_LOG_EARLY_FLUSH_ROWS) {
          appless.push(...(await insertEntries(trx, rows.slice(i, i + API_LOG_EARLY_FLUSH_ROWS))));
        }
      });
    } catch {
      // One row the database refuses must not cost the others (they may be other apps'): each
      // row again on its own.
      appless = [];
      await this.writeOneByOne(rows);
    }
    for (const entry of appless) this.onError(noSuchApp(entry), 1, entry);
    if (this.dropped > 0) {
      this.onError(new Error('API log buffer full'), this.dropped);
      this.dropped = 0;
    }
  }

  /**
   * The rows of a refused batch one by one, each refusal reported with its row and never retried
   * (it would fail again). After a refusal the database is asked whether it answers at all: when
   * it does not, the rest are reported lost at once instead of each waiting for its own failure.
   */
  private async writeOneByOne(rows: ApiLogEntry[]): Promise<void> {
    for (const [i, entry] of rows.entries()) {
      try {
        if ((await insertEntries(this.db, [entry])).length > 0) {
          this.onError(noSuchApp(entry), 1, entry);
        }
        continue;
      } catch (error) {
        this.onError(error, 1, entry);
      }
      const rest = rows.length - i - 1;
      if (rest === 0) return;
      try {
        await pingDatabase(this.db);
      } catch (error) {
        this.onError(error, rest);
        return;
      }
    }
  }
}
