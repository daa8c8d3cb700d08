import type {
  Compilable,
  CompiledQuery,
  Kysely,
  OperationNode,
  RootOperationNode,
  Transaction,
} from 'kysely';
import { changesOf, engineOf, nameStatement, type Engine } from './connection';
import { tablesDependedOn } from './ownerChanges';
import type { Database } from './schema';

export type Executor = Kysely<Database> | Transaction<Database>;
type Value = string | number;

/**
 * A query on a hot path, built and compiled once per engine instead of on every call: building
 * and compiling a query in Kysely costs as much CPU as SQLite takes to run a simple one
 * (profiles). `sample` names the parameters and their types; `build` gets a distinct placeholder
 * in place of each, and each call binds its own values where the placeholders are. Only for
 * queries whose shape never depends on the values (no `in` lists of varying length, no optional
 * clauses): such a query is two prepared ones.
 */
export function prepared<P extends Record<string, Value>, R>(
  sample: P,
  build: (db: Executor, params: P) => Compilable<R>,
): PreparedQuery<P, R>;
export function prepared<P extends Record<string, Value>, R>(
  sample: P,
  build: (db: Executor, params: P) => Compilable<R>,
  keeping: Keeping<P, R>,
): KeptQuery<P, R>;
export function prepared<P extends Record<string, Value>, R>(
  sample: P,
  build: (db: Executor, params: P) => Compilable<R>,
  keeping?: Keeping<P, R>,
): KeptQuery<P, R> {
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
  /** The tables whose changes void rows read by it (filled with `compiled`). */
  const tablesRead = new Map<Engine, readonly string[]>();

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
      tablesRead.set(engine, tablesDependedOn(tablesOf(query.query)));
    }
    return query;
  }

  const id = keptQueries.length;
  if (keeping) keptQueries.push((db) => build(db, placeholders));

  async function run(db: Executor, params: P): Promise<R[]> {
    const query = compiledFor(db);
    const parameters = query.parameters.map((p) => {
      const name = slotOf.get(p);
      return name === undefined ? p : params[name];
    });
    const { rows } = await db.executeQuery<R>({ ...query, parameters });
    return rows;
  }

  // JSON: no value can pass for two (a separator inside a value could).
  const keyOf = (params: P) => `${id}:${JSON.stringify(names.map((name) => params[name]))}`;

  const query = async (db: Executor, params: P): Promise<R[]> => {
    const changes = keeping && changesOf(db);
    if (!changes) return run(db, params);
    const key = keyOf(params);
    const kept = changes.kept(key);
    // Kept rows are frozen; callers copy what they change.
    if (kept) return kept as R[];
    const mark = changes.begin();
    const rows = await run(db, params);
    if (mark === null) return rows;
    const whose = keeping.ownerOf(params, rows);
    const tables = tablesRead.get(engineOf(db));
    if (whose !== undefined && tables) changes.keep(key, whose, mark, rows, tables);
    return rows;
  };
  return Object.assign(query, {
    tables(db: Executor): readonly string[] {
      compiledFor(db);
      return tablesRead.get(engineOf(db)) ?? [];
    },
    keptRows(db: Executor, params: P): readonly R[] | undefined {
      const changes = keeping && changesOf(db);
      return changes ? (changes.kept(keyOf(params)) as readonly R[] | undefined) : undefined;
    },
  });
}

/** A prepared query: run it with the values of its parameters. */
export interface PreparedQuery<P, R> {
  (db: Executor, params: P): Promise<R[]>;
  /**
   * The tables whose changes change what it reads (tablesDependedOn of those it names): what a
   * whole answer made of its rows depends on (http/keptAnswers.ts).
   */
  tables(db: Executor): readonly string[];
}

/** A prepared query with Keeping: also answers from the kept rows alone, without a promise. */
export interface KeptQuery<P, R> extends PreparedQuery<P, R> {
  /**
   * The rows kept for `params`, or undefined when the query must run: a hot path that finds
   * them answers without a promise (a promise chain of three async functions allocated about
   * 1 KB a gateway request).
   */
  keptRows(db: Executor, params: P): readonly R[] | undefined;
}

/**
 * A prepared query whose rows each process may keep (db/ownerChanges.ts): every table it reads
 * has owner triggers (migrations 0240, 0250; the counts, their writers': 0260), which name the
 * owners of each changed row, a user and for an app's rows the app too; `ownerOf` names the one
 * its rows belong to. No owner: nothing kept (e.g. no row found: unknown tokens must not fill
 * memory). Reference data every user reads belongs to EVERY_OWNER: voided only when everything
 * is.
 */
export interface Keeping<P, R> {
  ownerOf(params: P, rows: R[]): string | undefined;
}

const keptQueries: ((db: Executor) => Compilable<unknown>)[] = [];

/** The tables each kept query reads (db/prepared.test.ts checks their triggers). */
export function keptQueryTables(db: Executor): string[][] {
  return keptQueries.map((build) => tablesOf(build(db).compile().query));
}

/** The tables a query reads, by name. */
function tablesOf(query: RootOperationNode): string[] {
  const tables = new Set<string>();
  const aliases = new Set<string>();
  collectTables(query, tables, aliases);
  return [...tables].filter((name) => !aliases.has(name)).sort();
}

/** Every table name in a query's tree, and the aliases (`receive_transactions as r`: r). */
function collectTables(node: unknown, tables: Set<string>, aliases: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectTables(item, tables, aliases);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const op = node as OperationNode & {
    table?: { identifier?: { name?: string } };
    alias?: { name?: string };
    node?: { kind?: string };
  };
  if (op.kind === 'TableNode' && op.table?.identifier?.name) tables.add(op.table.identifier.name);
  if (op.kind === 'AliasNode' && op.node?.kind === 'TableNode' && op.alias?.name) {
    aliases.add(op.alias.name);
  }
  for (const value of Object.values(node)) collectTables(value, tables, aliases);
}
