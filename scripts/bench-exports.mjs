// `npm run bench:exports`: the memory and the first byte of an export as its row count grows. A
// benchmark, not a test: it prints figures, and fails only when the file holds other rows than
// the store, never because a target is missed.
//
// The store is a SQLite file in a temporary directory, migrated, with one app's deposits added in
// bulk (one INSERT ... SELECT per case, times a millisecond apart). The export's own code runs in
// this process (node --import tsx, from server/src): the deposits kind, through exportCsv, each
// piece handed to a sink that counts bytes and lines (as a socket would take them), with a
// garbage collection before each case. Per case it prints the time to the first piece (the header
// line) and to the first rows, the total time, and the heap and RSS: at the start and the most
// seen, sampled after each chunk.
//
//   npm run bench:exports -- [--rows 10000,100000,1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'kysely';
import { openDb } from '../server/src/db/connection.ts';
import { migrateToLatest } from '../server/src/db/migrate.ts';
import { NEW_ACCOUNT_BLANKS } from '../server/src/domain/account/auth.ts';
import { PAYMENT_METHODS } from '../server/src/domain/chain/paymentMethods.ts';
import { exportCsv, planExport } from '../server/src/domain/exports/stream.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '10000,100000,1000000' } },
});
const CASES = values.rows.split(',').map(Number);
const APP_ID = 'app_bench_exports';
const MB = 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = /** @type {() => void} */ (vm.runInNewContext('gc'));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-exports-'));
const db = openDb({ dataDir }, { keptReads: false });
await migrateToLatest(db);
const now = new Date().toISOString();
await db
  .insertInto('payment_methods')
  .values([...PAYMENT_METHODS])
  .execute();
await db.insertInto('countries').values({ id: 'FR', name: 'France', calling_code: '33' }).execute();
await db
  .insertInto('users')
  .values({
    id: 'usr_bench_exports',
    username: 'bench_exports',
    email: 'bench_exports@example.com',
    name: 'Bench Merchant',
    password_hash: 'x',
    pin_hash: 'x',
    sponsor_id: null,
    ...NEW_ACCOUNT_BLANKS,
    phone: '+33612345678',
    country: 'FR',
    created_at: now,
  })
  .execute();
await db
  .insertInto('apps')
  .values({
    id: APP_ID,
    user_id: 'usr_bench_exports',
    app_name: 'Bench',
    info: null,
    project_url: 'https://example.com',
    whitelist_ip: null,
    callback_url: null,
    created_at: now,
    updated_at: now,
  })
  .execute();

const start = Date.parse('2020-01-01T00:00:00.000Z');
let stored = 0;

/** Deposits first..last of the app, one a millisecond, in one statement. */
async function addDeposits(/** @type {number} */ first, /** @type {number} */ last) {
  await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
    insert into receive_transactions
      (id, app_id, payment_method_id, unique_id, amount_micro, deposit_status, created_at,
       chain_id, tx_hash, address, amount_raw)
    select 'rcv_' || i, ${APP_ID}, 'pm_usdt_bsc', 'customer-' || (i % 5000), 1000000 + i, 1,
      strftime('%Y-%m-%dT%H:%M:%fZ', ${start / 1000} + i / 1000.0, 'unixepoch'), 56,
      '0x' || printf('%064d', i), '0x' || printf('%040d', i % 5000),
      cast(1000000 + i as text) || '000000000000'
    from n`.execute(db);
}

const mb = (/** @type {number} */ bytes) => (bytes / MB).toFixed(1);
const results = [];
for (const rows of CASES) {
  if (rows > stored) {
    await addDeposits(stored + 1, rows);
    stored = rows;
  }
  gc();
  const base = process.memoryUsage();
  let heapMax = base.heapUsed;
  let rssMax = base.rss;
  let lines = 0;
  let bytes = 0;
  let firstPieceMs = -1;
  let firstRowsMs = -1;
  const begun = performance.now();
  const plan = planExport({ kind: 'deposits' });
  for await (const piece of exportCsv({ db, ownerId: APP_ID, feeLeg: false }, plan, {
    bom: false,
  })) {
    const at = performance.now() - begun;
    if (firstPieceMs < 0) firstPieceMs = at;
    else if (firstRowsMs < 0) firstRowsMs = at;
    bytes += Buffer.byteLength(piece);
    for (let i = piece.indexOf('\r\n'); i >= 0; i = piece.indexOf('\r\n', i + 2)) lines += 1;
    const now = process.memoryUsage();
    heapMax = Math.max(heapMax, now.heapUsed);
    rssMax = Math.max(rssMax, now.rss);
  }
  const totalMs = performance.now() - begun;
  if (lines !== rows + 1) throw new Error(`${rows} rows stored, ${lines - 1} exported`);
  results.push({
    rows,
    'file MB': mb(bytes),
    'first byte ms': firstPieceMs.toFixed(1),
    'first rows ms': firstRowsMs.toFixed(1),
    'total s': (totalMs / 1000).toFixed(1),
    'heap start MB': mb(base.heapUsed),
    'heap max MB': mb(heapMax),
    'rss start MB': mb(base.rss),
    'rss max MB': mb(rssMax),
  });
  console.table(results.slice(-1));
}
console.table(results);
await db.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
