import { sql, type Kysely } from 'kysely';

/**
 * The leases in force, found without reading the queue: a capped claim (jobs/queue.ts) counts
 * each group's leases at every claim, and a backlog of due jobs (a receiver's outage) must not
 * make that count read every one of them. Only leased rows are indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('jobs_kind_locked_until')
    .on('jobs')
    .columns(['kind', 'locked_until'])
    .where(sql.ref('locked_until'), 'is not', null)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
