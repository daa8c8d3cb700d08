import type { Kysely } from 'kysely';

/**
 * A sign-in step now reserves its failure before checking the password, so that concurrent
 * wrong guesses (on any process) cannot all pass the budget check first; a step that then
 * succeeds gives its reservation back by this id. Older rows have none and only age out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_failures').addColumn('id', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
