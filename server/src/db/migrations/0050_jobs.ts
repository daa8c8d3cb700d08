import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Background work and retried requests, shared by every server process on the database:
 * - jobs: the one job mechanism (domain/jobs): leased rows, so two processes never run the same
 *   job at once, and state that survives a restart. A recurring job (every_ms set) is one row that
 *   is put back after each run. Times are ms since the epoch, as in login_failures: leases and
 *   back-off are arithmetic on them.
 * - idempotency_keys: the first answer to a request sent with an Idempotency-Key, replayed to
 *   its retries (domain/payments/idempotency.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('payload', type.json, (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('every_ms', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // At most one job per (kind, key): adding it again is a no-op (NULL keys never collide).
  await db.schema
    .createIndex('jobs_kind_key')
    .on('jobs')
    .columns(['kind', 'key'])
    .unique()
    .execute();
  // Claiming the next due job.
  await db.schema
    .createIndex('jobs_state_run_at')
    .on('jobs')
    .columns(['state', 'run_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', type.json)
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
  // Pruning keys past their retention.
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
