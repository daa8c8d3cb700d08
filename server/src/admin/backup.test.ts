import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAdmin } from '../admin';
import { DB_FILE, openDb } from '../db/connection';
import { addUser } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/testApp';

// `db backup` beside a running server on SQLite (the default engine, whichever this run tests).

let t: TestApp;
let out: string;
beforeAll(async () => {
  t = await createTestApp({ env: { DATABASE_URL: '' } });
  out = mkdtempSync(path.join(tmpdir(), 'portal-backup-'));
});
afterAll(async () => {
  await t.close();
  rmSync(out, { recursive: true, force: true });
});

async function admin(env: Record<string, string | undefined>, ...argv: string[]) {
  const lines: string[] = [];
  const code = await runAdmin(
    argv,
    { out: (line) => lines.push(line) },
    {
      DATA_DIR: t.dataDir,
      NODE_ENV: 'test',
      ...env,
    },
  );
  return { code, text: lines.join('\n') };
}

it('copies the live database, with what was just written, into a file that opens', async () => {
  await addUser(t, 'latest_merchant');
  const file = path.join(out, 'portal-backup.sqlite');
  const done = await admin({}, 'db', 'backup', file);
  expect(done.code).toBe(0);
  expect(done.text).toMatch(
    /^Backed up .*portal\.sqlite to .*portal-backup\.sqlite \(\d+ pages\)\./,
  );

  // Restored as another DATA_DIR's database, it holds the same rows.
  const restored = mkdtempSync(path.join(tmpdir(), 'portal-restored-'));
  copyFileSync(file, path.join(restored, DB_FILE));
  const db = openDb({ dataDir: restored });
  try {
    const names = async (from: typeof db) =>
      (await from.selectFrom('users').select('username').orderBy('username').execute()).map(
        (u) => u.username,
      );
    expect(await names(db)).toEqual(await names(t.db));
    expect(await names(db)).toContain('latest_merchant');
  } finally {
    await db.destroy();
    rmSync(restored, { recursive: true, force: true });
  }

  const again = await admin({}, 'db', 'backup', file);
  expect(again).toEqual({ code: 1, text: `${file} already exists; name a new file.` });
});

it('points PostgreSQL users to pg_dump', async () => {
  const refused = await admin(
    { DATABASE_URL: 'postgres://portal@db.internal/portal' },
    'db',
    'backup',
    path.join(out, 'x.dump'),
  );
  expect(refused.code).toBe(1);
  expect(refused.text).toContain('pg_dump --format=custom');
});
