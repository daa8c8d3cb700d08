import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type MigrationResultSet } from 'kysely';
import { engineOf, type Db } from './connection';
import { migrations } from './migrations';

export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks its own tables up in every schema it can see unless told which: name the
    // current one, or a database holding several schemas (one per test) confuses them.
    migrationTableSchema: engineOf(db) === 'postgres' ? await currentSchema(db) : undefined,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/** Whether a migration ever ran on this database (its schema, on PostgreSQL). */
export async function hasMigrated(db: Db): Promise<boolean> {
  const { rows } =
    engineOf(db) === 'postgres'
      ? await sql<{ found: number }>`
          select 1 as found from information_schema.tables
          where table_schema = current_schema() and table_name = ${DEFAULT_MIGRATION_TABLE}`.execute(
          db,
        )
      : await sql<{ found: number }>`
          select 1 as found from sqlite_master
          where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}`.execute(db);
  return rows.length > 0;
}

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('The PostgreSQL search_path names no existing schema');
  return schema;
}
