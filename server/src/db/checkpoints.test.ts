import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { checkpointInBackground } from './checkpoints';
import { DB_FILE, openDb } from './connection';

// A server process's SQLite connection leaves checkpoints to a thread of its own: commits only
// append to the write-ahead log, and the log is still copied into the database and reused.

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'portal-checkpoints-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const PAGE = 4096;
const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `read()` once it is not 0, or 0 after two seconds. */
async function onceSet(read: () => unknown): Promise<unknown> {
  for (let tries = 0; tries < 100; tries += 1) {
    const value = read();
    if (value !== 0) return value;
    await waitMs(20);
  }
  return 0;
}

it('commits do not checkpoint, and the thread keeps the log from growing', async () => {
  const db = openDb({ dataDir: dir }, { keptReads: false, backgroundCheckpoints: true });
  try {
    const setting = await sql<{
      wal_autocheckpoint: number;
    }>`pragma wal_autocheckpoint`.execute(db);
    expect(setting.rows).toEqual([{ wal_autocheckpoint: 0 }]);
    await sql`create table notes (body blob not null)`.execute(db);
    // About 4,000 pages in 20 rounds, with a pause after each for the thread's turn: without
    // it, the log would hold them all.
    for (let round = 0; round < 20; round += 1) {
      for (let i = 0; i < 50; i += 1) {
        await db.transaction().execute(async (trx) => {
          await sql`insert into notes (body) values (zeroblob(${3 * PAGE}))`.execute(trx);
        });
      }
      await waitMs(150);
    }
    const logPages = statSync(path.join(dir, `${DB_FILE}-wal`)).size / PAGE;
    expect(logPages).toBeLessThan(1_000);
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(db);
    expect(rows.rows).toEqual([{ n: 1_000 }]);
  } finally {
    await db.destroy();
  }
});

it('a thread that fails gives the checkpoints back to the commits', async () => {
  const sqlite = new SqliteDatabase(path.join(dir, 'here.sqlite'));
  try {
    sqlite.pragma('journal_mode = WAL');
    // The thread opens a file that does not exist, so it fails as it starts.
    const stop = checkpointInBackground(sqlite, path.join(dir, 'missing.sqlite'));
    const setting = () => sqlite.pragma('wal_autocheckpoint', { simple: true });
    await expect(onceSet(setting)).resolves.toBe(1000);
    await stop();
  } finally {
    sqlite.close();
  }
});
