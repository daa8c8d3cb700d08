import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * The account's security events, the bell's entries (domain/account/events.ts): sign-ins, failed
 * sign-in bursts and locks, password / pin / authenticator changes, API keys, apps, webhook
 * secrets. A sign-in names its session, so the dashboard can show the sign-in before the current
 * session's own. ip and user_agent are kept raw (the device is parsed when read); details is the
 * kind's JSON (names, counts). read_at is set by Read All.
 * Every session so far becomes a sign-in, already read: an account that signed in before keeps
 * its last login, without a bell full of old entries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const col = columnTypes(db);
  await db.schema
    .createTable('account_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('read_at', col.time)
    .addColumn('session_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', col.json, (c) => c.notNull())
    .execute();
  // The bell's page and unread count, and a user's sign-ins (newest first).
  await db.schema
    .createIndex('account_events_user_created')
    .on('account_events')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('account_events_session')
    .on('account_events')
    .column('session_id')
    .execute();
  await sql`
    insert into account_events
      (id, user_id, kind, created_at, read_at, session_id, ip, user_agent, details)
    select 'evt_' || substr(id, 5), user_id, 'sign_in', created_at, created_at, id, ip,
      user_agent, '{}'
    from sessions
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
