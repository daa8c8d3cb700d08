import type { Kysely } from 'kysely';

/**
 * Deposit and invoice addresses derived ahead of need (domain/chain/addressPool.ts): deriving one
 * costs about a millisecond of CPU, paid by a job instead of by the request that hands it out
 * under the index lock. A row is the address at `derivation_index` under `parent` (the xpub and
 * branch it was derived from, hashed), taken by the request that hands that index out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('address_pool')
    .addColumn('parent', 'text', (c) => c.notNull())
    .addColumn('derivation_index', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('address_pool_pk', ['parent', 'derivation_index'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
