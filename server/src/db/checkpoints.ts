import { Worker } from 'node:worker_threads';

/** How often the background thread copies the write-ahead log into the database file (ms). */
export const CHECKPOINT_EVERY_MS = 100;

/** SQLite's own threshold (pages), for a connection that checkpoints when it commits. */
const SQLITE_AUTOCHECKPOINT = 1000;

/** What the background thread runs: CommonJS, handed the driver's path and the file's. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

interface Pragmas {
  pragma(source: string): unknown;
  readonly open: boolean;
}

/**
 * Takes SQLite's checkpoints off the connection that serves requests. SQLite copies the
 * write-ahead log into the database file (and syncs both) inside the COMMIT that takes the log
 * past 1,000 pages: with invoices being created, that was two thirds of a commit's time, on the
 * event loop. A thread of this process runs a passive checkpoint every CHECKPOINT_EVERY_MS
 * instead, on a connection of its own: it never waits for a lock nor holds one that a writer
 * needs, so commits only append to the log. Should the thread fail, the connection checkpoints
 * at commit again as SQLite does by default. Returns what stops the thread.
 */
export function checkpointInBackground(sqlite: Pragmas, file: string): () => Promise<void> {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { driver: require.resolve('better-sqlite3'), file, everyMs: CHECKPOINT_EVERY_MS },
  });
  // The connection must not outlive its checkpoints: should the thread end, commits checkpoint.
  const checkpointAtCommit = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
  };
  let stopping = false;
  // A failing thread then exits, which gives the checkpoints back below.
  worker.on('error', (error) => {
    process.emitWarning(`SQLite's checkpoint thread failed, commits checkpoint again: ${error}`);
  });
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) checkpointAtCommit();
      resolve();
    }),
  );
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  return async () => {
    stopping = true;
    worker.postMessage('stop');
    await ended;
  };
}
