import { sql } from 'kysely';
import type { Db } from '../db/connection';

/** The demo merchant's username (README): the account every demo seed step adds to. */
export const DEMO_USERNAME = 'demo';

/** The demo account's id, or undefined when it does not exist (yet). */
export async function findDemoUserId(db: Db): Promise<string | undefined> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', DEMO_USERNAME)
    .executeTakeFirst();
  return user?.id;
}

/**
 * The demo account's id while it has no rows in `table`, else undefined: a seed step that adds
 * them runs once and never overwrites what is there.
 */
export async function demoUserWithout(
  db: Db,
  table: 'apps' | 'subscriptions',
): Promise<string | undefined> {
  const userId = await findDemoUserId(db);
  if (!userId) return undefined;
  const existing = await db
    .selectFrom(table)
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return existing ? undefined : userId;
}
