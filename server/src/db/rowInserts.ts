import {
  sql,
  type CompiledQuery,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryCreator,
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
