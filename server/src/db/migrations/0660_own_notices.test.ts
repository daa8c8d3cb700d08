import { sql, type Kysely } from 'kysely';
import { ownerFunctions, withoutOwnNotices } from '../../../test/ownerTriggers';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf } from '../connection';
import { up } from './0660_own_notices';

// Migration 0660 on PostgreSQL: owner trigger functions that notified the writing connection's
// own channel are rewritten to tell it by a notice (owner_note).

const t = testAppPerBlock();

it('rewrites the functions made before it to tell the writing connection by a notice', async () => {
  if (engineOf(t.db) === 'sqlite') return; // SQLite hears its own writes in the statement.
  const made = await ownerFunctions(t.db);
  expect(made.size).toBeGreaterThan(15);
  // As the functions were before the migration, and no owner_note yet.
  for (const body of made.values()) {
    const old = withoutOwnNotices(body);
    expect(old).not.toContain('owner_note');
    await sql.raw(old).execute(t.db);
  }
  await sql`drop function owner_note(text, text)`.execute(t.db);

  await up(t.db as unknown as Kysely<unknown>);

  expect(await ownerFunctions(t.db)).toEqual(made);
  // The notes work: a write of a table with owner triggers still succeeds.
  await t.db
    .updateTable('users')
    .set({ username: 'demo' })
    .where('username', '=', 'demo')
    .execute();
});
