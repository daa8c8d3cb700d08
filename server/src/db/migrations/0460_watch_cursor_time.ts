import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * watch_cursors learn the time of the block they stopped at (scanned_time): how far the chain's
 * clock has been read. An invoice expires only once every chain it can be paid on has been read
 * to its expiry (domain/invoices/expiry.ts). Null until the watcher's next pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const type = columnTypes(db);
  await db.schema.alterTable('watch_cursors').addColumn('scanned_time', type.time).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
