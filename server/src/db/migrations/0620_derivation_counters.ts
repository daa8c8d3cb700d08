import { sql, type Kysely } from 'kysely';

/**
 * Each address branch's next derivation index, kept as a counter that only goes up
 * (derivation_counters, the floors of 0560 renamed). An index used to be the one after the
 * largest in the branch's table, read under a lock held across the whole creation, so two
 * processes' creations ran one after another. A creation now takes its index by one atomic
 * increment and holds no lock: an index is handed out once, whatever fails after it (a gap, never
 * a repeat), and deleting rows cannot lower it. The counters start after every index in use and
 * never below the floors.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('derivation_floors').renameTo('derivation_counters').execute();
  for (const [branch, table] of [
    ['accounts', 'app_accounts'],
    ['invoices', 'invoices'],
  ] as const) {
    // A branch with no index in use and no floor has no row yet: its first creation makes it.
    await sql`insert into derivation_counters (branch, next_index)
      select ${branch}, max(derivation_index) + 1 from ${sql.table(table)}
      where true having max(derivation_index) is not null
      on conflict (branch) do update set next_index = case
        when excluded.next_index > derivation_counters.next_index then excluded.next_index
        else derivation_counters.next_index end`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
