import type { Kysely } from 'kysely';

/**
 * Test mode. An app's test objects belong to a test app of its own (`live_app_id` names the live
 * app; `livemode` 0), so every query that is scoped to an app keeps the two modes apart, and the
 * test app's keys, webhook URL and secret are its own. Payment methods gain their test twins
 * (the seed writes them): the same code once per mode, on the test network of the chain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('apps').addColumn('live_app_id', 'text').execute();
  await db.schema.createIndex('apps_live_app').on('apps').column('live_app_id').unique().execute();
  await db.schema
    .alterTable('payment_methods')
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.dropIndex('payment_methods_code').execute();
  await db.schema
    .createIndex('payment_methods_code_mode')
    .on('payment_methods')
    .columns(['code', 'livemode'])
    .unique()
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
