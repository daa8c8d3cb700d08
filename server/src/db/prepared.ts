import type { Compilable, CompiledQuery, Kysely, OperationNode, Transaction } from 'kysely';
import { changesOf, engineOf, nameStatement, type Engine } from './connection';
import type { Database } from './schema';

type Executor = Kysely<Database> | Transaction<Database>;
type Value = string | number;

/**
 * A query on a hot path, built and compiled once per engine instead of on every call: building
 * and compiling a query in Kysely costs as much CPU as SQLite takes to run a simple one (issue 18's
 * profiles). `sample` names the parameters and their types; `build` gets a distinct placeholder
 * in place of each, and each call binds its own values where the placeholders are. Only for
 * queries whose shape never depends on the values (no `in` lists of varying length, no optional
 * clauses): such a query is two prepared ones.
 */
export function prepared<P extends Record<string, Value>, R>(
  sample: P,
  build: (db: Executor, params: P) => Compilable<R>,
  keeping?: Keeping<P, R>,
): (db: Executor, params: P) => Promise<R[]> {
  const names = Object.keys(sample);
  const placeholders = Object.fromEntries(
    names.map((name, i) => [
      name,
      // Numbers far from any constant a query holds (limits, statuses, amounts).
      typeof sample[name] === 'number' ? -1_000_000_007 - i : `\u0000${name}`,
    ]),
  ) as P;
  const slotOf = new Map<unknown, string>(names.map((name) => [placeholders[name], name]));
  const compiled = new Map<Engine, CompiledQuery<R>>();

  function compiledFor(db: Executor): CompiledQuery<R> {
    const engine = engineOf(db);
    let query = compiled.get(engine);
    if (!query) {
      query = build(db, placeholders).compile();
      const used = new Set(query.parameters);
      const unused = names.filter((name) => !used.has(placeholders[name]));
      if (unused.length > 0) throw new Error(`Prepared query leaves out ${unused.join(', ')}`);
      if (engine === 'postgres') nameStatement(query.sql);
      compiled.set(engine, query);
    }
    return query;
  }

  const id = keptQueries.length;
  if (keeping) keptQueries.push((db) => build(db, placeholders));

  return async (db, params) => {
    const query = compiledFor(db);
    const parameters = query.parameters.map((p) => {
      const name = slotOf.get(p);
      return name === undefined ? p : params[name];
    });
    const bound: CompiledQuery<R> = { ...query, parameters };
    const changes = keeping && changesOf(db);
    if (!changes) return (await db.executeQuery(bound)).rows;

    const key = `${id}\u0000${JSON.stringify(parameters)}`;
    const kept = changes.kept(key);
    // Kept rows are frozen; callers copy what they change.
    if (kept) return kept as R[];
    const mark = changes.begin();
    const { rows } = await db.executeQuery(bound);
    const owner = mark === null ? undefined : keeping.ownerOf(params, rows);
    if (mark !== null && owner !== undefined) changes.keep(key, owner, mark, rows);
    return rows;
  };
}

/**
 * A prepared query whose rows each process may keep (db/ownerChanges.ts): they all belong to
 * the user `ownerOf` names, and every table the query reads has owner triggers (migration
 * 0240). `undefined`: keep nothing (e.g. no row found: unknown tokens must not fill memory).
 */
export interface Keeping<P, R> {
  ownerOf(params: P, rows: R[]): string | undefined;
}

const keptQueries: ((db: Executor) => Compilable<unknown>)[] = [];

/** The tables each kept query reads (db/prepared.test.ts checks their triggers). */
export function keptQueryTables(db: Executor): string[][] {
  return keptQueries.map((build) => {
    const tables = new Set<string>();
    collectTables(build(db).compile().query, tables);
    return [...tables].sort();
  });
}

function collectTables(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectTables(item, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const op = node as OperationNode & { table?: { identifier?: { name?: string } } };
  if (op.kind === 'TableNode' && op.table?.identifier?.name) into.add(op.table.identifier.name);
  for (const value of Object.values(node)) collectTables(value, into);
}
