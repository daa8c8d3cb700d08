import { sql, type Kysely } from 'kysely';

/**
 * A local chain's head is its chain_heads row alone. Every block the local chain makes (a
 * transfer, a withdrawal's send, empty blocks mined, a reorg) already sets that row in the same
 * transaction, and a head used to be the greater of it and the chain's last transfer, two reads
 * that every server process made for every chain several times a second (jobs/heads.ts). A store
 * written before the row was kept for every block gets it here: at least its last transfer's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into chain_heads (chain_id, block_number)
    select chain_id, max(block_number) from chain_transfers group by chain_id
    on conflict (chain_id) do update set block_number = case
      when excluded.block_number > chain_heads.block_number then excluded.block_number
      else chain_heads.block_number end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
