import { sql, type Kysely } from 'kysely';

/**
 * The account archives the settings panel's Download asks for (domain/account/archives.ts): one
 * row each, `preparing` until the job has written its file to the storage directory, then
 * `ready` (with the file's name and the end of its day) or `failed`. At most one of an account
 * is preparing at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_archives')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('file', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ready_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema
    .createIndex('account_archives_preparing')
    .on('account_archives')
    .column('user_id')
    .unique()
    .where(sql.ref('state'), '=', 'preparing')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
