import { sql, type Kysely } from 'kysely';
import { withoutOwnChannels } from '../../../test/ownerTriggers';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf } from '../connection';
import { up } from './0630_table_changes';

// Migration 0630 on a database whose owner triggers name owners only: each is rewritten to name
// its table too, and on SQLite to count the table's changes.

const t = testAppPerBlock();

/** The owner trigger bodies of the users table: SQLite's three, PostgreSQL's function. */
async function usersTriggers(): Promise<{ name: string; body: string }[]> {
  const { rows } =
    engineOf(t.db) === 'sqlite'
      ? await sql<{ name: string; body: string }>`
          select name, sql as body from sqlite_master
          where type = 'trigger' and tbl_name = 'users' and sql like '%owner_changed(%'`.execute(
          t.db,
        )
      : await sql<{ name: string; body: string }>`
          select p.proname as name, pg_get_functiondef(p.oid) as body from pg_proc p
          join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = current_schema() and p.proname = 'users_owner_changed'`.execute(t.db);
  // Whitespace aside: the rewrite leaves the lines' breaks where they were.
  return rows.map(({ name, body }) => ({ name, body: body.replace(/\s+/g, ' ') }));
}

it('rewrites the triggers made before it to name their table', async () => {
  const before = await usersTriggers();
  expect(before.length).toBeGreaterThan(0);
  // As the triggers were before the migration.
  if (engineOf(t.db) === 'sqlite') {
    await sql`drop table kept_table_changes`.execute(t.db);
    for (const { name, body } of before) {
      const old = body
        .replaceAll("owner_changed(o, 'users')", 'owner_changed(o)')
        .replace(/INSERT INTO kept_table_changes[^;]*;/, '');
      await sql.raw(`DROP TRIGGER ${name}`).execute(t.db);
      await sql.raw(old).execute(t.db);
    }
  } else {
    for (const { body } of before) {
      await sql
        .raw(withoutOwnChannels(body).replaceAll(" o || ' ' || TG_TABLE_NAME)", ' o)'))
        .execute(t.db);
    }
  }
  expect(
    (await usersTriggers()).every(
      ({ body }) => !body.includes('TG_TABLE_NAME') && !body.includes("owner_changed(o, 'users')"),
    ),
  ).toBe(true);

  await up(t.db as unknown as Kysely<unknown>);

  // PostgreSQL: as they were until migration 0650 made them notify the writing connection too.
  expect(await usersTriggers()).toEqual(
    engineOf(t.db) === 'sqlite'
      ? before
      : before.map(({ name, body }) => ({
          name,
          body: withoutOwnChannels(body).replace(/\s+/g, ' '),
        })),
  );
  if (engineOf(t.db) === 'sqlite') {
    await t.db
      .updateTable('users')
      .set({ username: 'renamed' })
      .where('username', '=', 'demo')
      .execute();
    const { rows } = await sql<{ n: number }>`
      select n from kept_table_changes where name = 'users'`.execute(t.db);
    expect(rows).toEqual([{ n: 1 }]);
  }
});
