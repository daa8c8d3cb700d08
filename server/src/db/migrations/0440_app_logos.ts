import type { Kysely } from 'kysely';

/**
 * An app's logo (the checkout and payment link pages show it): the stored image's file name, its
 * `files` row of kind `app_logo`; null while the app has none. The apps owner trigger
 * (0250_kept_reads) fires on every update of a row, so a kept read of the app is voided by a
 * change of its logo without a trigger of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('logo', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
