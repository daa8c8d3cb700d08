import { existsSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  sql,
  type RawBuilder,
} from 'kysely';
import type { Config } from '../config';
import { DB_FILE, openDb, type Db } from '../db/connection';
import { migrateToLatest } from '../db/migrate';
import { DEV_XPUB_FILE } from '../domain/chain/walletKey';
import { DEFAULT_STORAGE_SUBDIR, SECRET_FILE } from '../runtime';
import { printTable, singleArgument, UsageError, type ConfigCommand } from './command';

/**
 * `db copy-to <DATABASE_URL>`: a merchant who started on SQLite in DATA_DIR moves to PostgreSQL.
 * The target is migrated with the same migrations, must hold no rows (it is never seeded here),
 * and receives every table of the SQLite file in foreign-key order, in batches, in one transaction.
 * The table list is read from the SQLite file itself and checked against the target's, so a table
 * added by a later migration is copied without touching this file, and a mismatch stops the copy.
 */

/** Stops the copy with a message for the operator; the target's transaction is rolled back. */
class CopyStopped extends Error {}

// Kysely's bookkeeping: the target's own migration run writes these. The maintained counts and
// daily totals (migration 0230): the target's triggers make them from the rows copied. SQLite's
// counts of changes for the kept reads (migration 0630): PostgreSQL has none.
const SKIPPED_TABLES = new Set([
  DEFAULT_MIGRATION_TABLE,
  DEFAULT_MIGRATION_LOCK_TABLE,
  'row_counts',
  'app_daily_usage',
  'kept_table_changes',
]);
// PostgreSQL takes at most 65535 parameters per statement; stay well under it.
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 1_000;

/** What better-sqlite3 hands back with safe integers on: every INTEGER is a bigint. */
type SqliteValue = string | number | bigint | Buffer | null;
type SqliteRow = Record<string, SqliteValue>;

interface TargetColumn {
  name: string;
  /** information_schema's data_type, e.g. `timestamp with time zone`. */
  type: string;
  /** Digits after the point of a numeric column (0 for numeric(78,0)). */
  scale: number | null;
  /** A serial or identity column, whose sequence must move past the copied values. */
  sequenced: boolean;
}

interface TablePlan {
  name: string;
  columns: TargetColumn[];
  /** Columns referencing the table itself (users.sponsor_id): filled after all its rows exist. */
  selfReferences: string[];
  /** The primary key column, needed to fill self-references. */
  primaryKey: string | undefined;
}

/** Rows of a table in the source and, after the copy, in the target (checked equal). */
interface TableCount {
  table: string;
  sqlite: number;
  postgresql: number;
}

export const copyTo: ConfigCommand = {
  name: 'db copy-to',
  usage: 'db copy-to <postgres://…>',
  description:
    "Copy DATA_DIR's SQLite database into an empty PostgreSQL database (stop the server first).",
  async runWithConfig(args, config, io) {
    const url = singleArgument(args);
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new UsageError('The target must be a postgres:// or postgresql:// URL.');
    }
    if (config.databaseUrl) {
      io.out(
        'DATABASE_URL is set, so this configuration already uses PostgreSQL. The copy reads the ' +
          'SQLite database in DATA_DIR: run it with DATABASE_URL unset.',
      );
      return 1;
    }
    const dataDir = path.resolve(config.dataDir);
    const file = path.join(dataDir, DB_FILE);
    if (!existsSync(file)) {
      io.out(`There is no SQLite database at ${file} (DATA_DIR=${dataDir}): nothing to copy.`);
      return 1;
    }
    // The source at the code's schema, as the server would leave it on start (no seed).
    const sourceDb = openDb({ dataDir });
    try {
      await migrateToLatest(sourceDb);
    } finally {
      await sourceDb.destroy();
    }

    const source = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    const target = openDb({ dataDir, databaseUrl: url });
    try {
      await migrateToLatest(target);
      // One read snapshot of the whole file: rows written meanwhile cannot break the references.
      source.exec('BEGIN');
      const plans = await planCopy(source, target);
      const counts = await target.transaction().execute((trx) => copyTables(source, trx, plans));
      io.out(`Copied ${plans.length} tables into ${redacted(url)}:`);
      printTable(
        io,
        counts.map((c) => ({
          table: c.table,
          sqlite: String(c.sqlite),
          postgresql: String(c.postgresql),
        })),
      );
      nextSteps(config, dataDir, url).forEach((line) => io.out(line));
      return 0;
    } catch (err) {
      if (!(err instanceof CopyStopped)) throw err;
      io.out(`${err.message}\nNo rows were written to ${redacted(url)}.`);
      return 1;
    } finally {
      source.close();
      await target.destroy();
    }
  },
};

async function planCopy(source: SqliteDatabase, target: Db): Promise<TablePlan[]> {
  const master = source
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by rowid",
    )
    .all() as { name: string }[];
  const sourceTables = master.map((r) => r.name).filter((name) => !SKIPPED_TABLES.has(name));
  const targetTables = await targetColumns(target);

  const extra = [...targetTables.keys()].filter((name) => !sourceTables.includes(name));
  if (extra.length > 0) {
    throw new CopyStopped(
      `The target holds tables the SQLite database lacks (${extra.join(', ')}): copy into an empty database, or an empty schema named by search_path in the URL.`,
    );
  }
  const plans = sourceTables.map((name): TablePlan & { parents: string[] } => {
    const columns = targetTables.get(name);
    if (!columns) {
      throw new CopyStopped(
        `The target has no table '${name}': the SQLite database has a table the migrations do not create.`,
      );
    }
    const info = source.prepare('select name, pk from pragma_table_info(?)').all(name) as {
      name: string;
      pk: number;
    }[];
    const sourceNames = info.map((c) => c.name).sort();
    const targetNames = columns.map((c) => c.name).sort();
    if (sourceNames.join() !== targetNames.join()) {
      throw new CopyStopped(
        `The columns of '${name}' differ: SQLite has ${sourceNames.join(', ')}; the target has ${targetNames.join(', ')}.`,
      );
    }
    const keys = info.filter((c) => c.pk > 0);
    const references = source
      .prepare('select "table", "from" from pragma_foreign_key_list(?)')
      .all(name) as { table: string; from: string }[];
    return {
      name,
      columns,
      selfReferences: references.filter((r) => r.table === name).map((r) => r.from),
      primaryKey: keys.length === 1 ? keys[0]?.name : undefined,
      parents: [...new Set(references.map((r) => r.table).filter((t) => t !== name))],
    };
  });
  return parentsFirst(plans);
}

/** Tables ordered so that every table comes after the tables it references. */
function parentsFirst<T extends { name: string; parents: string[] }>(tables: T[]): T[] {
  const ordered: T[] = [];
  const placed = new Set<string>();
  let pending = tables;
  while (pending.length > 0) {
    const ready = pending.filter((t) => t.parents.every((p) => placed.has(p)));
    if (ready.length === 0) {
      throw new CopyStopped(
        `No foreign-key order exists for ${pending.map((t) => t.name).join(', ')} (a cycle, or a reference to a missing table).`,
      );
    }
    for (const t of ready) placed.add(t.name);
    ordered.push(...ready);
    pending = pending.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

async function targetColumns(target: Db): Promise<Map<string, TargetColumn[]>> {
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    numeric_scale: number | null;
    is_identity: string;
    column_default: string | null;
  }>`select c.table_name, c.column_name, c.data_type, c.numeric_scale, c.is_identity, c.column_default
       from information_schema.columns c
       join information_schema.tables t
         on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`.execute(target);
  const tables = new Map<string, TargetColumn[]>();
  for (const r of rows) {
    if (SKIPPED_TABLES.has(r.table_name)) continue;
    const columns = tables.get(r.table_name) ?? [];
    columns.push({
      name: r.column_name,
      type: r.data_type,
      scale: r.numeric_scale,
      sequenced: r.is_identity === 'YES' || (r.column_default ?? '').startsWith('nextval('),
    });
    tables.set(r.table_name, columns);
  }
  return tables;
}

async function copyTables(
  source: SqliteDatabase,
  trx: Db,
  plans: TablePlan[],
): Promise<TableCount[]> {
  // Nobody writes to the target while it is checked and filled.
  await sql`lock table ${sql.join(plans.map((p) => sql.id(p.name)))} in exclusive mode`.execute(
    trx,
  );
  const occupied: string[] = [];
  for (const plan of plans) {
    const { rows } = await sql<{ any: boolean }>`select exists (select 1 from ${sql.id(
      plan.name,
    )}) as any`.execute(trx);
    if (rows[0]?.any) occupied.push(plan.name);
  }
  if (occupied.length > 0) {
    throw new CopyStopped(
      `The target already holds data (${occupied.join(', ')}): db copy-to only fills an empty database.`,
    );
  }

  const counts: TableCount[] = [];
  for (const plan of plans) {
    const copied = await copyRows(source, trx, plan);
    await fillSelfReferences(source, trx, plan);
    await moveSequences(trx, plan);
    const expected = sourceCount(source, plan.name);
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.id(plan.name)}`.execute(trx);
    const written = rows[0]?.n ?? 0;
    if (copied !== expected || written !== expected) {
      throw new CopyStopped(
        `${plan.name}: SQLite holds ${expected} rows, ${copied} were read and the target counts ${written}.`,
      );
    }
    counts.push({ table: plan.name, sqlite: expected, postgresql: written });
  }
  return counts;
}

function sourceCount(source: SqliteDatabase, table: string): number {
  const row = source.prepare(`select count(*) as n from ${quoted(table)}`).get() as { n: number };
  return row.n;
}

async function copyRows(source: SqliteDatabase, trx: Db, plan: TablePlan): Promise<number> {
  const { columns } = plan;
  const batchRows = Math.max(
    1,
    Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)),
  );
  // Explicit values go into identity columns too (their sequences move after the copy).
  const overriding = columns.some((c) => c.sequenced) ? sql`overriding system value` : sql``;
  const insert = (batch: unknown[][]) =>
    sql`insert into ${sql.id(plan.name)} (${sql.join(columns.map((c) => sql.id(c.name)))}) ${overriding}
        values ${sql.join(batch.map((values) => sql`(${sql.join(values)})`))}`.execute(trx);

  const select = source
    .prepare(`select ${columns.map((c) => quoted(c.name)).join(', ')} from ${quoted(plan.name)}`)
    .safeIntegers(true);
  let batch: unknown[][] = [];
  let copied = 0;
  for (const row of select.iterate() as IterableIterator<SqliteRow>) {
    batch.push(
      columns.map((c) =>
        plan.selfReferences.includes(c.name) ? null : converted(plan.name, c, row[c.name] ?? null),
      ),
    );
    if (batch.length === batchRows) {
      await insert(batch);
      copied += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) {
    await insert(batch);
    copied += batch.length;
  }
  return copied;
}

/**
 * A row may reference a row of its own table that comes later (a user sponsored by a younger
 * account), so these columns are inserted empty and set once every row of the table exists.
 */
async function fillSelfReferences(source: SqliteDatabase, trx: Db, plan: TablePlan): Promise<void> {
  for (const name of plan.selfReferences) {
    const key = plan.columns.find((c) => c.name === plan.primaryKey);
    const column = plan.columns.find((c) => c.name === name);
    if (!key || !column) {
      throw new CopyStopped(
        `${plan.name}.${name} references its own table, which has no single primary key.`,
      );
    }
    const select = source
      .prepare(
        `select ${quoted(key.name)} as k, ${quoted(name)} as v from ${quoted(plan.name)} where ${quoted(name)} is not null`,
      )
      .safeIntegers(true);
    const update = (pairs: [unknown, unknown][]) =>
      sql`update ${sql.id(plan.name)} set ${sql.id(name)} = v.v
            from (values ${sql.join(
              pairs.map(([k, v]) => sql`(${typed(k, key)}, ${typed(v, column)})`),
            )}) as v(k, v)
           where ${sql.id(plan.name)}.${sql.id(key.name)} = v.k`.execute(trx);
    let pairs: [unknown, unknown][] = [];
    for (const row of select.iterate() as IterableIterator<SqliteRow>) {
      pairs.push([
        converted(plan.name, key, row.k ?? null),
        converted(plan.name, column, row.v ?? null),
      ]);
      if (pairs.length === MAX_BATCH_ROWS) {
        await update(pairs);
        pairs = [];
      }
    }
    if (pairs.length > 0) await update(pairs);
  }
}

/** A parameter cast to its column's type (a VALUES list has no column to infer it from). */
function typed(value: unknown, column: TargetColumn): RawBuilder<unknown> {
  return sql`cast(${value} as ${sql.raw(column.type)})`;
}

/** Serial and identity columns continue after the highest copied value. */
async function moveSequences(trx: Db, plan: TablePlan): Promise<void> {
  for (const column of plan.columns.filter((c) => c.sequenced)) {
    await sql`select setval(
        pg_get_serial_sequence(${quoted(plan.name)}, ${column.name}),
        coalesce((select max(${sql.id(column.name)}) from ${sql.id(plan.name)}), 0) + 1,
        false)`.execute(trx);
  }
}

const TIME_WITH_ZONE =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * A SQLite value as the target column takes it. Where the engines store a column differently
 * (columns.ts: text times, text raw amounts, JSON text, 0/1 flags), the value is checked and
 * converted; anything that would be changed or lost on the way stops the copy instead.
 */
function converted(table: string, column: TargetColumn, value: SqliteValue): unknown {
  if (value === null) return null;
  const refuse = (why: string): never => {
    const shown = Buffer.isBuffer(value) ? `${value.length} bytes` : `'${String(value)}'`;
    throw new CopyStopped(`${table}.${column.name} (${column.type}): ${shown} ${why}.`);
  };
  switch (column.type) {
    case 'text':
    case 'character varying':
      return typeof value === 'string' ? value : refuse('is not text');
    case 'smallint':
    case 'integer':
    case 'bigint':
      return typeof value === 'bigint' ? value.toString() : refuse('is not an integer');
    case 'numeric': {
      const text = typeof value === 'bigint' ? value.toString() : value;
      if (typeof text !== 'string' || !/^-?\d+(\.\d+)?$/.test(text))
        return refuse('is not a number');
      const decimals = text.split('.')[1]?.length ?? 0;
      return decimals <= (column.scale ?? decimals)
        ? text
        : refuse('has more decimals than the column');
    }
    case 'real':
    case 'double precision':
      if (typeof value === 'number') return value;
      return typeof value === 'bigint' ? Number(value) : refuse('is not a number');
    case 'boolean':
      if (value === 0n || value === 1n) return value === 1n;
      return refuse('is not a 0/1 flag');
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? value
        : refuse('is not a YYYY-MM-DD day');
    case 'timestamp with time zone':
      // Epoch milliseconds, or ISO-8601 text with its zone (a zone-less time would be read in
      // the session's time zone).
      if (typeof value === 'bigint') {
        const time = new Date(Number(value));
        return isNaN(time.getTime()) ? refuse('is not a time') : time.toISOString();
      }
      return typeof value === 'string' && TIME_WITH_ZONE.test(value) && !isNaN(Date.parse(value))
        ? value
        : refuse('is not an ISO-8601 time with a zone');
    case 'json':
    case 'jsonb':
      if (typeof value !== 'string') return refuse('is not JSON text');
      try {
        JSON.parse(value);
      } catch {
        return refuse('is not valid JSON');
      }
      return value;
    case 'bytea':
      return Buffer.isBuffer(value) ? value : refuse('is not a blob');
    default:
      return refuse('is of a type db copy-to does not know how to convert');
  }
}

/**
 * An identifier in double quotes, for SQLite statements (names come from the file itself) and
 * for pg_get_serial_sequence's table, which it parses as SQL text (its column it does not).
 */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The URL for printing: the password is nobody's business in a terminal's scroll-back. */
function redacted(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

function nextSteps(config: Config, dataDir: string, url: string): string[] {
  const shown = redacted(url);
  const storage = config.storageDir ?? path.join(dataDir, DEFAULT_STORAGE_SUBDIR);
  const secret = config.secretKey
    ? 'keep SECRET_KEY set to the same value'
    : `keep ${path.join(dataDir, SECRET_FILE)} (or set SECRET_KEY to its content)`;
  return [
    '',
    'Every row count matches. Next:',
    `  1. Start the server with DATABASE_URL=${shown}${shown === url ? '' : ' (*** is the password)'}.`,
    `  2. Use the same secret: ${secret}; the TOTP secrets in the copy are encrypted with it.`,
    `  3. Keep DATA_DIR (${dataDir}) and the uploaded images (${storage}): the mail outbox and`,
    `     the development wallet (${DEV_XPUB_FILE}) stay there; only the database moved.`,
    `  4. ${DB_FILE} is left as it was, as a backup; what is written to it from now on is not copied.`,
  ];
}
