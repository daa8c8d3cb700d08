import type { Kysely } from 'kysely';
import {
  localHead,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../../domain/chain/localAdapter';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0640_local_heads';

// Migration 0640 on a store whose head rows lag its transfers (written before every block set
// its row): each local chain's head is then at least its last transfer's block, and a head that
// empty blocks put past it stays.

const t = testAppPerBlock();

it("raises each local chain's head to its last transfer, and keeps a head mined past it", async () => {
  const to = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  for (const chainId of [56, 1] as const) {
    const createdAt = t.clock().toISOString();
    await recordLocalChainTransfer(t.db, { chainId, to, token: null, amount: 1n, createdAt });
    await recordLocalChainTransfer(t.db, { chainId, to, token: null, amount: 1n, createdAt });
  }
  await mineLocalBlocks(t.db, 5, 1);
  const [bsc, eth] = [await localHead(t.db, 56), await localHead(t.db, 1)];
  // As a store from before: BSC's head row behind its transfers, no row for another chain's.
  await t.db
    .updateTable('chain_heads')
    .set({ block_number: 0 })
    .where('chain_id', '=', 56)
    .execute();
  await t.db.deleteFrom('chain_heads').where('chain_id', '=', 137).execute();
  await t.db
    .insertInto('chain_transfers')
    .values({
      id: 'ctx_before',
      chain_id: 137,
      token_contract: null,
      tx_hash: `0x${'ab'.repeat(32)}`,
      log_index: 0,
      from_address: to,
      to_address: to,
      amount_raw: '1',
      block_number: 7,
      created_at: t.clock().toISOString(),
    })
    .execute();
  expect(await localHead(t.db, 56)).toBe(0);

  await up(t.db as unknown as Kysely<unknown>);

  expect(await localHead(t.db, 56)).toBe(bsc);
  expect(await localHead(t.db, 1)).toBe(eth);
  expect(eth).toBeGreaterThan(2);
  expect(await localHead(t.db, 137)).toBe(7);
});
