import { closeSync, openSync, readSync } from 'node:fs';
import pg from 'pg';

/**
 * Rows kept in memory per process, exact across processes (an authenticated read that asks the
 * database on every request cannot come near the speed of a bare server).
 *
 * Every table whose rows a kept read selects has triggers (migrations 0240 and later) that name
 * the owners of the changed rows (their user, and for an app's rows the app), in the writing
 * statement itself, or is written only by the triggers of such tables (the counts: 0260),
 * whoever writes: a request, a job, another server process, an operator command. A kept read
 * belongs to one owner and holds only while nothing of that owner has changed since the read
 * began. KEPT_READS=off (config.ts) keeps nothing.
 * - SQLite: the triggers call `owner_changed(user)`, a function each connection of this process
 *   registers, so this process hears of its own writes as they happen; a commit by any other
 *   connection (an admin command, another process) moves `PRAGMA data_version`, which is
 *   checked once per turn of the event loop that reads requests, before the first use of
 *   anything kept, when the wal-index header moved, voiding everything kept: a request sees what
 *   other processes committed before it came (app.ts says why once a turn suffices, and names its
 *   two exceptions).
 * - PostgreSQL: the triggers `pg_notify('owner_changed', user)`, delivered on commit to every
 *   listening connection: each process has one that only listens, and its pool's connections
 *   listen too, which makes a process hear of its own writes before their COMMIT returns. Until
 *   the listening connection is on, and whenever it drops, nothing is kept or used. The cost:
 *   between a commit and its notification reaching another process (well under a millisecond
 *   on one host), that process may still answer from what it kept, e.g. accept a session
 *   revoked there a moment before.
 */

export const OWNER_CHANGED = 'owner_changed';
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

/** PostgreSQL's feed also hears what the pool's own connections are notified of. */
export interface PostgresFeed extends ChangeFeed {
  heard(message: pg.Notification): void;
}

export class OwnerChanges {
  #tick = 0;
  /** Reads begun before this are void. */
  #floor = 0;
  /** Requests arrived since other processes' commits were last heard of (SQLite). */
  #unheard = true;
  readonly #changedAt = new Map<string, number>();
  readonly #rows = new Shelf<readonly unknown[]>(MAX_KEPT_READS);
  readonly #answers = new Shelf<object>(MAX_KEPT_ANSWERS);
  #feed: ChangeFeed | undefined;

  attach(feed: ChangeFeed): void {
    this.#feed = feed;
  }

  /** A trigger named `owner`: what was read of it before now no longer holds. */
  changed(owner: string): void {
    const tick = ++this.#tick;
    if (owner === EVERY_OWNER || this.#changedAt.size >= TRACKED_OWNERS) {
      this.voidAll(tick);
      return;
    }
    this.#changedAt.set(owner, tick);
  }

  /** Everything kept is void (a missed change is possible, e.g. the listener dropped). */
  voidAll(tick = ++this.#tick): void {
    this.#floor = tick;
    this.#changedAt.clear();
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

  /** What a read begun at `mark` found, kept if nothing of `owner` changed since. */
  keep(key: string, owner: string, mark: number, rows: readonly unknown[]): void {
    if (!this.#holds(owner, mark)) return;
    for (const row of rows) Object.freeze(row);
    this.#rows.put(key, { owner, mark, until: Infinity, value: Object.freeze(rows) });
  }

  /** The rows kept under `key`, if they still hold. */
  kept(key: string): readonly unknown[] | undefined {
    if (!this.#trusted()) return undefined;
    return this.#rows.take(key, (entry) => this.#holds(entry.owner, entry.mark));
  }

  /**
   * A whole answer built from reads begun at `mark` (http/keptAnswers.ts), kept if nothing of
   * `owner` changed since, until `until` (epoch ms): the first instant its answer would differ
   * without any row changing. Frozen: every later request gets this very object.
   */
  keepAnswer(key: string, owner: string, mark: number, answer: object, until: number): void {
    if (!this.#holds(owner, mark)) return;
    this.#answers.put(key, { owner, mark, until, value: Object.freeze(answer) });
  }

  /** The answer kept under `key`, if it still holds at `now` (epoch ms). */
  keptAnswer(key: string, now: number): object | undefined {
    if (!this.#trusted()) return undefined;
    return this.#answers.take(
      key,
      (entry) => now < entry.until && this.#holds(entry.owner, entry.mark),
    );
  }

  #holds(owner: string, mark: number): boolean {
    return mark >= this.#floor && (this.#changedAt.get(owner) ?? 0) <= mark;
  }

  close(): Promise<void> {
    this.voidAll();
    return this.#feed?.close() ?? Promise.resolve();
  }
}

/** SQLite: changes by this connection arrive through `owner_changed`; others move data_version. */
export function sqliteFeed(
  changes: OwnerChanges,
  dataVersion: () => unknown,
  walIndexFile: string,
): ChangeFeed {
  let seen = dataVersion();
  const committed = walIndexWatch(walIndexFile);
  return {
    live: () => true,
    catchUp() {
      if (!committed()) return;
      const now = dataVersion();
      if (now !== seen) {
        seen = now;
        changes.voidAll();
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

const RECONNECT_MS = 1_000;
/** The listening connection's application_name (pg_stat_activity). */
export const LISTENER_NAME = 'portal owner changes';

/**
 * PostgreSQL: one connection per handle listens, from the first read that could be kept (short
 * commands never open it). Every (re)start voids what is kept: changes may have gone unheard.
 */
export function postgresFeed(changes: OwnerChanges, connectionString: string): PostgresFeed {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  function heard(message: pg.Notification) {
    if (message.channel === OWNER_CHANGED) changes.changed(message.payload ?? EVERY_OWNER);
  }

  function drop(failed: pg.Client) {
    if (client !== failed) return;
    client = undefined;
    listening = false;
    changes.voidAll();
    failed.end().catch(() => {});
    if (!closed) retry = setTimeout(start, RECONNECT_MS).unref();
  }

  function start() {
    retry = undefined;
    if (closed || client) return;
    const mine = new pg.Client({ connectionString, application_name: LISTENER_NAME });
    client = mine;
    mine.on('notification', heard);
    mine.on('error', () => drop(mine));
    mine.on('end', () => drop(mine));
    mine
      .connect()
      .then(() => mine.query(`LISTEN ${OWNER_CHANGED}`))
      .then(() => {
        if (client !== mine) return;
        changes.voidAll();
        listening = true;
      })
      .catch(() => drop(mine));
  }

  return {
    heard,
    live() {
      if (!client && !retry) start();
      return listening;
    },
    catchUp() {},
    async close() {
      closed = true;
      listening = false;
      if (retry) clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
