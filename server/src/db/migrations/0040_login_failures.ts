import type { Kysely } from 'kysely';

/**
 * The brute-force brakes (domain/account/lockout.ts) move from process memory to the database, so a
 * restart does not forget them and `user unlock` can lift an account's 429 window.
 * - login_failures: one row per failed step inside a sliding window; `scope` keeps the windows
 *   apart (sign-in per account, per IP, code checks, code sends) and lets each prune its own.
 * - login_unknown_names: the failure count and lock of a name that matches no account,
 *   mirroring users.failed_logins / locked_until.
 * Times are ms since the epoch: bigint, because PostgreSQL's integer is 32-bit (SQLite gives
 * bigint integer affinity).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  // Counting and clearing a key's window.
  await db.schema
    .createIndex('login_failures_scope_key_at')
    .on('login_failures')
    .columns(['scope', 'key', 'at'])
    .execute();
  // Pruning a scope's rows that left the window.
  await db.schema
    .createIndex('login_failures_scope_at')
    .on('login_failures')
    .columns(['scope', 'at'])
    .execute();

  await db.schema
    .createTable('login_unknown_names')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('failed_logins', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_unknown_names_last_failure')
    .on('login_unknown_names')
    .column('last_failure_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
