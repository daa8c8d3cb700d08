import { Migrator, sql, type MigrationResultSet } from 'kysely';
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

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('The PostgreSQL search_path names no existing schema');
  return schema;
}
