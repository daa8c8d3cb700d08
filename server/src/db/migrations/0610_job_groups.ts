import { sql, type Kysely } from 'kysely';
import { engineOf } from '../connection';

/**
 * A job's group (a webhook delivery's app), in a column of its own, and the queued jobs indexed
 * by kind, group and due time. A capped claim (jobs/queue.ts) lists the groups with jobs queued
 * by skipping from one group to the next in this index, and reads only the oldest due jobs of
 * the groups below their cap: an app's backlog of deliveries (a receiver's outage), however long,
 * no longer costs every claim a read of it while the app is at its cap. The deliveries already
 * queued take their app from their payload.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('group_key', 'text').execute();
  const appId =
    engineOf(db) === 'postgres' ? sql`payload ->> 'appId'` : sql`json_extract(payload, '$.appId')`;
  await sql`update jobs set group_key = ${appId} where kind = 'webhooks.deliver'`.execute(db);
  await db.schema
    .createIndex('jobs_kind_group_run_at')
    .on('jobs')
    .columns(['kind', 'group_key', 'run_at', 'id'])
    .where(sql.ref('state'), '=', 'queued')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
