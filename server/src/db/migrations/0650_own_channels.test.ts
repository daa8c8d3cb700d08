import { sql, type Kysely } from 'kysely';
import { ownerFunctions, withoutOwnChannels, withoutOwnNotices } from '../../../test/ownerTriggers';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf } from '../connection';
import { up } from './0650_own_channels';

// Migration 0650 on PostgreSQL: owner trigger functions that notified `owner_changed` alone are
// rewritten to notify the writing connection's own channel too.

const t = testAppPerBlock();

it('rewrites the functions made before it to notify the writing connection too', async () => {
  if (engineOf(t.db) === 'sqlite') return; // SQLite hears its own writes in the statement.
  const made = await ownerFunctions(t.db);
  expect(made.size).toBeGreaterThan(15);
  // As the functions were before the migration.
  for (const body of made.values()) {
    const old = withoutOwnChannels(body);
    expect(old).not.toContain('portal.own_channel');
    await sql.raw(old).execute(t.db);
  }
  expect([...(await ownerFunctions(t.db)).values()].some((b) => b.includes('own_channel'))).toBe(
    false,
  );

  await up(t.db as unknown as Kysely<unknown>);

  // As migration 0660 found them.
  const noticed = new Map([...made].map(([name, body]) => [name, withoutOwnNotices(body)]));
  expect(await ownerFunctions(t.db)).toEqual(noticed);
});
