import { sql } from 'kysely';
import type { Db } from '../db/connection';

/** The cheapest round trip to the database: resolves when it answers, rejects when it fails. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
