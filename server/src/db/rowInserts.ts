import {
  CompiledQuery,
  sql,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryCreator,
  type RawBuilder,
} from 'kysely';
import { engineOf, nameStatement } from './connection';
import type { Executor } from './prepared';
import type { Database } from './schema';

/**
 * An insert of `rows`, which all have the same keys, into `table`. On PostgreSQL the rows go as
 * one JSON parameter read as the table's rows (json_populate_recordset), so the statement's text
 * is the same whatever their number, and runNamed keeps it parsed and planned on each
 * connection, where a VALUES list of each length was a new text to parse and plan. SQLite takes
 * the VALUES list: its statements are kept per text (db/connection.ts) and cost no round trip.
 */
export function insertRows<T extends keyof Database & string>(
  db: QueryCreator<Database>,
  engine: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): InsertQueryBuilder<Database, T, InsertResult> {
  if (engineOf(engine) !== 'postgres') return db.insertInto(table).values(rows);
  const [first] = rows;
  if (!first) throw new Error(`No rows to insert into ${table}`);
  // The keys of the rows, which are columns of the table.
  const columns = Object.keys(first) as (keyof Database[T] & string)[];
  return db
    .insertInto(table)
    .columns(columns)
    .expression(
      sql`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${rowsFromJson(table, rows)}`,
    );
}

/** PostgreSQL: `rows` as the rows of `table`, from one JSON parameter (insertRows). */
export function rowsFromJson(table: keyof Database & string, rows: readonly object[]) {
  return sql`json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`;
}

/**
 * Runs `query` (a query builder or raw SQL), on PostgreSQL as a named statement (nameStatement):
 * for the texts insertRows makes, and others that stay the same from one call to the next.
 */
export async function runNamed<R>(
  db: Executor,
  query: { compile(db: Executor): CompiledQuery<R> },
): Promise<R[]> {
  const compiled = query.compile(db);
  if (engineOf(db) === 'postgres') nameStatement(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}

/** Rows of one table, all with the same keys, which are columns of the table. */
export interface TableRows {
  table: keyof Database & string;
  rows: readonly object[];
}

/** PostgreSQL: insertRows as SQL, for a common table expression of a larger statement. */
export function insertFromJson({ table, rows }: TableRows): RawBuilder<unknown> {
  const columns = sql.join(Object.keys(rows[0] ?? {}).map((column) => sql.ref(column)));
  return sql`insert into ${sql.table(table)} (${columns}) select ${columns} from ${rowsFromJson(table, rows)}`;
}

/** Statement texts by shape (runShaped): a few per process. */
const shapedTexts = new Map<string, string>();

/**
 * PostgreSQL: runs a statement made of inserts of JSON rows (rowsFromJson) whose text depends
 * only on the tables and columns of `parts` and on `shape` (what the caller adds), with one
 * parameter per part, each its rows' JSON, in the order given. `build` makes the statement the
 * first time a shape is seen; its text is kept and named (nameStatement) for the next runs:
 * Kysely's building and compiling of a statement of six inserts took more of the server's time
 * than its rows' JSON.
 */
export async function runShaped<R>(
  db: Executor,
  shape: string,
  parts: readonly TableRows[],
  build: () => { compile(db: Executor): CompiledQuery<R> },
): Promise<R[]> {
  const parameters = parts.map((part) => JSON.stringify(part.rows));
  // The columns are each part's first row's keys (insertRows): a part of other columns is
  // another statement.
  const key = `${shape}|${parts.map((part) => `${part.table}:${Object.keys(part.rows[0] ?? {}).join()}`).join('|')}`;
  let text = shapedTexts.get(key);
  if (text === undefined) {
    const compiled = build().compile(db);
    const same =
      compiled.parameters.length === parameters.length &&
      compiled.parameters.every((value, i) => value === parameters[i]);
    if (!same) throw new Error(`The statement of ${shape} takes other parameters than its parts`);
    text = compiled.sql;
    nameStatement(text);
    shapedTexts.set(key, text);
  }
  return (await db.executeQuery(CompiledQuery.raw(text, parameters) as CompiledQuery<R>)).rows;
}
