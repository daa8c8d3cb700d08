// Minimal typings for the part of better-sqlite3 we use (@types/better-sqlite3 is not installed).
declare module 'better-sqlite3' {
  interface RunResult {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }
  interface Statement {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    get(...params: unknown[]): unknown;
    run(...params: unknown[]): RunResult;
    iterate(...params: unknown[]): IterableIterator<unknown>;
    /** Integers read as bigint (exact past 2^53). */
    safeIntegers(toggle?: boolean): Statement;
    /** get() answers the first column's value instead of the row. */
    pluck(toggle?: boolean): Statement;
  }
  interface Options {
    readonly?: boolean;
    fileMustExist?: boolean;
    timeout?: number;
  }
  interface Database {
    readonly open: boolean;
    readonly name: string;
    /** Whether a transaction is open on this connection. */
    readonly inTransaction: boolean;
    prepare(sql: string): Statement;
    pragma(source: string, options?: { simple?: boolean }): unknown;
    exec(sql: string): Database;
    /** A JavaScript function callable from SQL on this connection (triggers included). */
    function(
      name: string,
      options: { deterministic?: boolean; varargs?: boolean },
      fn: (...args: unknown[]) => unknown,
    ): Database;
    /** `fn` wrapped in BEGIN … COMMIT (ROLLBACK if it throws). */
    transaction<T>(fn: () => T): () => T;
    close(): Database;
    /** SQLite's online backup API into a new file. */
    backup(destination: string): Promise<{ totalPages: number; remainingPages: number }>;
  }
  interface DatabaseConstructor {
    new (filename: string, options?: Options): Database;
    (filename: string, options?: Options): Database;
  }
  const Database: DatabaseConstructor;
  export = Database;
}
