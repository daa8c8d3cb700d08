import { closeSync, openSync, readSync } from 'node:fs';
import { listen, type Subscription } from './listener';

/**
 * Rows kept in memory per process, exact across processes (an authenticated read that asks the
 * database on every request cannot come near the speed of a bare server).
 *
 * Every table whose rows a kept read selects has triggers (migrations 0240 and later) that name
 * the owners of the changed rows (their user, and for an app's rows the app) with the table, in
 * the writing statement itself, or is written only by the triggers of such tables (the counts:
 * 0260), whoever writes: a request, a job, another server process, an operator command. Two
 * tables' inserts are named by another table's instead (0690: an invoice's options by their
 * invoice's, a webhook event by its deliveries'), which every kept read of them reads too. A kept
 * read belongs to one owner and holds only while nothing of that owner has changed in the tables
 * it read since the read began (a whole answer: in the tables its build names, else in any of
 * the owner's). So a gateway creation, which writes an account and an API log row of its app,
 * leaves the app's plan, methods and key kept for the next one, and a request's API log row
 * leaves the app's polled invoice and deposits answers kept. KEPT_READS=off (config.ts) keeps nothing.
 * - SQLite: the triggers call `owner_changed(owner, table)`, a function each connection of this
 *   process registers, so this process hears of its own writes as they happen, and count the
 *   table's changes (`kept_table_changes`, migration 0630). A commit by any other connection (an
 *   admin command, another process) moves `PRAGMA data_version`, which is checked once per turn
 *   of the event loop that reads requests, before the first use of anything kept, when the
 *   wal-index header moved; the counts then tell which tables it wrote, and what was read of
 *   those, whoever's, is void: a request sees what other processes committed before it came
 *   (app.ts says why once a turn suffices, and names its two exceptions).
 * - PostgreSQL: the triggers `pg_notify('owner_changed', 'owner table')`, delivered on commit to
 *   every listening connection: each process has one that only listens. They also tell the
 *   writing connection itself, by a notice during the statement (migration 0660, OwnNotes): a
 *   process hears of its own writes before their COMMIT returns. Until the
 *   listening connection is on, and whenever it drops, nothing is kept or used. The cost:
 *   between a commit and its notification reaching another process (well under a millisecond on
 *   one host), that process may still answer from what it kept, e.g. accept a session revoked
 *   there a moment before.
 */

export const OWNER_CHANGED = 'owner_changed';
/**
 * PostgreSQL: the session setting that names a connection's own channel, on which the owner
 * triggers tell it of its own writes besides notifying OWNER_CHANGED (migrations 0650 and 0660),
 * and how its name begins.
 */
export const OWN_CHANNEL_SETTING = 'portal.own_channel';
export const OWN_CHANNEL_PREFIX = `${OWNER_CHANGED}_`;
/** The owner a trigger names when a change may concern anyone: voids everything kept. */
export const EVERY_OWNER = '*';

/** Kept reads per database handle, the oldest dropped first. */
const MAX_KEPT_READS = 20_000;
/**
 * Kept answers per database handle, the oldest dropped first: an app detail answer is about
 * 12 KB of text, so at most a few tens of MB.
 */
const MAX_KEPT_ANSWERS = 2_000;
/** Past this many owners changed without a void, everything is voided and the list restarts. */
const TRACKED_OWNERS = 100_000;

interface Kept<T> {
  owner: string;
  /** The tables it was read from; none named: any table of its owner's. */
  tables: readonly string[] | undefined;
  mark: number;
  /** Epoch ms from which it no longer holds, whatever changes (a hold that ends, a new day). */
  until: number;
  value: T;
}

/** Kept values by key, at most `max`, the oldest dropped first. */
class Shelf<T> {
  readonly #entries = new Map<string, Kept<T>>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  put(key: string, entry: Kept<T>): void {
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, entry);
  }

  take(key: string, holds: (entry: Kept<T>) => boolean): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (holds(entry)) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** What tells a database handle's caches whether they can be trusted now. */
export interface ChangeFeed {
  /** False while changes might go unheard (PostgreSQL: listener not yet, or no longer, on). */
  live(): boolean;
  /** Hears of changes made elsewhere since the last call (SQLite: data_version). */
  catchUp(): void;
  close(): Promise<void>;
}

/** A change as the PostgreSQL owner triggers tell it: `owner table`, or `*` for everyone's. */
function announce(changes: OwnerChanges, payload: string): void {
  const space = payload.indexOf(' ');
  if (space < 0) changes.changed(payload);
  else changes.changed(payload.slice(0, space), payload.slice(space + 1));
}

/**
 * PostgreSQL: what the owner triggers tell a pool connection of its own writes, as notices
 * `<own channel> <owner> <table>` during the writing statement (migration 0660). Each is heard at
 * once, and again when the connection goes back to the pool, its transaction over: a read that
 * another request of this process began between the notice and the commit found the rows as they
 * were, and must not stay kept.
 */
export class OwnNotes {
  readonly #changes: OwnerChanges;
  #pending: string[] = [];

  constructor(changes: OwnerChanges) {
    this.#changes = changes;
  }

  /** A notice of the connection's session; those of other origins are ignored. */
  noticed(message: string | undefined): void {
    if (!message?.startsWith(OWN_CHANNEL_PREFIX)) return;
    const payload = message.slice(message.indexOf(' ') + 1);
    announce(this.#changes, payload);
    this.#pending.push(payload);
  }

  /** The connection is back in the pool: what it wrote is committed, or rolled back. */
  settled(): void {
    if (this.#pending.length === 0) return;
    for (const payload of this.#pending) announce(this.#changes, payload);
    this.#pending = [];
  }
}

/**
 * The kept counts and daily totals change only inside the triggers of the rows they count
 * (migration 0260), so a read of them depends on those tables' changes
 * (db/ownerChanges.test.ts checks these lists against the triggers).
 */
const COUNTED_FROM: Readonly<Record<string, readonly string[]>> = {
  row_counts: [
    'api_logs',
    'app_accounts',
    'ledger_entries',
    'receive_transactions',
    'send_transactions',
    'webhook_deliveries',
  ],
  app_daily_usage: ['receive_transactions', 'send_transactions'],
};

/** The tables whose changes a read of `tables` depends on: a count's stand for what it counts. */
export function tablesDependedOn(tables: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const table of tables) for (const t of COUNTED_FROM[table] ?? [table]) all.add(t);
  return [...all].sort();
}

/** Separates an owner from a table in the keys of changes (neither holds it). */
const OF = '\u0000';

export class OwnerChanges {
  #tick = 0;
  /** Reads begun before this are void. */
  #floor = 0;
  /** Requests arrived since other processes' commits were last heard of (SQLite). */
  #unheard = true;
  /** When a row of each owner last changed, whatever its table. */
  readonly #ownerAt = new Map<string, number>();
  /** When each owner's rows of each table last changed (`owner\0table`). */
  readonly #ownerTableAt = new Map<string, number>();
  /** When an owner's change came without its table: any table of theirs may have changed. */
  readonly #wholeOwnerAt = new Map<string, number>();
  /** When another process last changed a row of each table, whoever's (SQLite). */
  readonly #tableAt = new Map<string, number>();
  /** When another process last changed a row of any table (SQLite). */
  #anyTableAt = 0;
  readonly #rows = new Shelf<readonly unknown[]>(MAX_KEPT_READS);
  readonly #answers = new Shelf<object>(MAX_KEPT_ANSWERS);
  #feed: ChangeFeed | undefined;

  attach(feed: ChangeFeed): void {
    this.#feed = feed;
  }

  /**
   * A trigger named `owner` for a row of `table`: what was read of that table for them before
   * now no longer holds. No table: none of what was read for them holds.
   */
  changed(owner: string, table?: string): void {
    const tick = ++this.#tick;
    if (owner === EVERY_OWNER || this.#ownerAt.size + this.#ownerTableAt.size >= TRACKED_OWNERS) {
      this.voidAll(tick);
      return;
    }
    this.#ownerAt.set(owner, tick);
    if (table === undefined) this.#wholeOwnerAt.set(owner, tick);
    else this.#ownerTableAt.set(owner + OF + table, tick);
  }

  /** Another process changed rows of `table`, of owners unknown (SQLite: changes counted). */
  tableChanged(table: string): void {
    const tick = ++this.#tick;
    this.#tableAt.set(table, tick);
    this.#anyTableAt = tick;
  }

  /** Everything kept is void (a missed change is possible, e.g. the listener dropped). */
  voidAll(tick = ++this.#tick): void {
    this.#floor = tick;
    this.#ownerAt.clear();
    this.#ownerTableAt.clear();
    this.#wholeOwnerAt.clear();
    this.#tableAt.clear();
    this.#anyTableAt = 0;
    this.#rows.clear();
    this.#answers.clear();
  }

  /**
   * Requests have arrived (app.ts, once per turn of the event loop): the next use of what is
   * kept first hears of what other processes committed before them (SQLite: a wal-index read,
   * and a data_version read when that moved; PostgreSQL: nothing to do, they are pushed). Lazy,
   * so a request that uses nothing kept (the countries, a page, a file) pays no read of the
   * wal-index: about a sixteenth of the countries' CPU with two processes (profile).
   */
  requestsArrived(): void {
    this.#unheard = true;
  }

  #catchUp(feed: ChangeFeed): void {
    this.#unheard = false;
    feed.catchUp();
  }

  /** Whether what is kept may be used now, once heard of what came since requests arrived. */
  #trusted(): boolean {
    const feed = this.#feed;
    if (!feed?.live()) return false;
    if (this.#unheard) this.#catchUp(feed);
    return true;
  }

  /** Marks the start of a read that may be kept, or null when nothing may be kept now. */
  begin(): number | null {
    const feed = this.#feed;
    if (!feed?.live()) return null;
    this.#catchUp(feed);
    return this.#tick;
  }

  /**
   * What a read begun at `mark` found, kept if nothing of `owner` changed since in `tables`
   * (tablesDependedOn of what it read).
   */
  keep(
    key: string,
    owner: string,
    mark: number,
    rows: readonly unknown[],
    tables: readonly string[],
  ): void {
    const entry = { owner, tables, mark, until: Infinity, value: rows };
    if (!this.#holds(entry)) return;
    for (const row of rows) Object.freeze(row);
    Object.freeze(rows);
    this.#rows.put(key, entry);
  }

  /** The rows kept under `key`, if they still hold. */
  kept(key: string): readonly unknown[] | undefined {
    if (!this.#trusted()) return undefined;
    return this.#rows.take(key, (entry) => this.#holds(entry));
  }

  /**
   * A whole answer built from reads begun at `mark` (http/keptAnswers.ts), kept if nothing of
   * `owner` changed since in `tables` (tablesDependedOn of what it read; none named: in any
   * table of theirs), until `until` (epoch ms): the first instant its answer would differ
   * without any row changing. Frozen: every later request gets this very object.
   */
  keepAnswer(
    key: string,
    owner: string,
    mark: number,
    answer: object,
    until: number,
    tables?: readonly string[],
  ): void {
    const entry = { owner, tables, mark, until, value: answer };
    if (!this.#holds(entry)) return;
    Object.freeze(answer);
    this.#answers.put(key, entry);
  }

  /** The answer kept under `key`, if it still holds at `now` (epoch ms). */
  keptAnswer(key: string, now: number): object | undefined {
    if (!this.#trusted()) return undefined;
    return this.#answers.take(key, (entry) => now < entry.until && this.#holds(entry));
  }

  #holds({ owner, tables, mark }: Kept<unknown>): boolean {
    if (mark < this.#floor) return false;
    // Nothing of the owner's and nothing by another process since: the common case.
    if ((this.#ownerAt.get(owner) ?? 0) <= mark && this.#anyTableAt <= mark) return true;
    if (tables === undefined || (this.#wholeOwnerAt.get(owner) ?? 0) > mark) return false;
    for (const table of tables) {
      if ((this.#ownerTableAt.get(owner + OF + table) ?? 0) > mark) return false;
      if ((this.#tableAt.get(table) ?? 0) > mark) return false;
    }
    return true;
  }

  close(): Promise<void> {
    this.voidAll();
    return this.#feed?.close() ?? Promise.resolve();
  }
}

/** A row of `kept_table_changes` (migration 0630): how many times a table's rows changed. */
export interface TableChanges {
  name: string;
  n: number;
}

/** What the SQLite feed reads on its connection. */
export interface SqliteFeedReads {
  /** `PRAGMA data_version`: moves when another connection commits. */
  dataVersion(): unknown;
  /** The tables' counts of changes; throws before migration 0630 made them. */
  tableChanges(): readonly TableChanges[];
  /** Whether this connection is inside a transaction, whose reads see its uncommitted writes. */
  inTransaction(): boolean;
}

/**
 * SQLite: changes by this connection arrive through `owner_changed`. A commit by another moves
 * data_version; the tables it wrote are those whose counts of changes moved (every owner trigger
 * counts its table's: migration 0630), and what was read of them is void. Counts read inside a
 * transaction may hold writes it then rolls back, so there everything is voided and the counts
 * are read afresh on the next commit.
 */
export function sqliteFeed(
  changes: OwnerChanges,
  reads: SqliteFeedReads,
  walIndexFile: string,
): ChangeFeed {
  let seen = reads.dataVersion();
  let counted: Map<string, number> | undefined;
  const committed = walIndexWatch(walIndexFile);
  const countsNow = (): readonly TableChanges[] | undefined => {
    if (reads.inTransaction()) return undefined;
    try {
      return reads.tableChanges();
    } catch {
      return undefined;
    }
  };
  return {
    live: () => true,
    catchUp() {
      if (!committed()) return;
      const now = reads.dataVersion();
      if (now === seen) return;
      seen = now;
      const counts = countsNow();
      if (!counts || !counted) {
        changes.voidAll();
        counted = counts && new Map(counts.map((row) => [row.name, row.n]));
        return;
      }
      for (const { name, n } of counts) {
        if (counted.get(name) === n) continue;
        counted.set(name, n);
        changes.tableChanged(name);
      }
    },
    close: async () => committed.close(),
  };
}

/** The wal-index header's first copy (SQLite's file format, "WAL-Index Format"). */
const WAL_INDEX_HEADER = 48;

/**
 * Whether any connection may have committed since the last call: the wal-index header (in the
 * -shm file every connection maps) changes with every commit, its iChange counter included.
 * Reading it costs a pread, against about 7 µs for `PRAGMA data_version`, which then tells
 * whose commit it was. Unreadable (not created yet, another journal mode): always maybe.
 */
function walIndexWatch(file: string): { (): boolean; close(): void } {
  let fd: number | undefined;
  const last = Buffer.alloc(WAL_INDEX_HEADER);
  const now = Buffer.alloc(WAL_INDEX_HEADER);
  const check = () => {
    try {
      fd ??= openSync(file, 'r');
      if (readSync(fd, now, 0, WAL_INDEX_HEADER, 0) === WAL_INDEX_HEADER && now.equals(last)) {
        return false;
      }
      now.copy(last);
    } catch {
      // Maybe: fall back to data_version.
    }
    return true;
  };
  check.close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return check;
}

/**
 * PostgreSQL: the process's listening connection hears OWNER_CHANGED (db/listener.ts), from the
 * first read that could be kept (short commands never open it). Every time it starts listening,
 * and when it drops, what is kept is voided: changes may have gone unheard.
 */
export function postgresFeed(changes: OwnerChanges, connectionString: string): ChangeFeed {
  let subscription: Subscription | undefined;
  let listening = false;
  let closed = false;

  return {
    live() {
      subscription ??= closed
        ? undefined
        : listen(connectionString, OWNER_CHANGED, {
            // `owner table` (migration 0630), or the owner alone from a trigger older than it.
            heard: (payload) => announce(changes, payload ?? EVERY_OWNER),
            listening: () => {
              changes.voidAll();
              listening = true;
            },
            lost: () => {
              listening = false;
              changes.voidAll();
            },
          });
      return listening;
    },
    catchUp() {},
    async close() {
      closed = true;
      listening = false;
      await subscription?.close();
    },
  };
}
