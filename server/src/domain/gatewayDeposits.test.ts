import { runAdmin } from '../admin';
import { openDb } from '../db/connection';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from './chain';
import { mineLocalBlocks, recordLocalTransfer } from './chain/localAdapter';
import { resolveWalletXpub } from './chain/walletKey';
import { openAccount } from './gatewayAccounts';
import { depositWatcherTask, watchDeposits } from './gatewayDeposits';
import { startWorker } from './jobs/worker';

// The gateway's watcher on the local chain: a payment to a deposit account is recorded once,
// waits for the method's 15 confirmations, is verified and credited.

describe('the deposit watcher', () => {
  const t = testAppPerBlock();
  let serial = 0;

  async function account(uniqueId = 'order-1') {
    serial += 1;
    const userId = await addUser(t, `watched_${serial}`);
    const appId = `app_watch_${serial}`;
    const now = t.clock().toISOString();
    await insertApp(t, { id: appId, user_id: userId, created_at: now });
    await insertAppMethod(t, { id: `apm_watch_${serial}`, app_id: appId });
    const { account: opened } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId,
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    return { appId, address: opened.address };
  }

  const chain = () => chainAdapterFor(t.config, t.db);
  const watch = () => watchDeposits(t.db, chain(), t.clock());
  const pay = (to: string, usdt: bigint) =>
    recordLocalTransfer(t.db, { to, amountMicro: usdt, createdAt: t.clock().toISOString() });
  const rowsOf = (appId: string) =>
    t.db
      .selectFrom('receive_transactions')
      .select([
        'unique_id',
        'deposit_status',
        'amount_micro',
        'amount_raw',
        'failure_reason',
        'tx_hash',
      ])
      .where('app_id', '=', appId)
      .execute();

  it('records a payment as Pending, then credits it once 15 blocks hold it', async () => {
    const { appId, address } = await account();
    const paid = await pay(address, 25_500_000n);
    expect(await watch()).toMatchObject({ seen: 1, credited: 0 });
    expect(await rowsOf(appId)).toEqual([
      {
        unique_id: 'order-1',
        deposit_status: 0,
        amount_micro: 25_500_000,
        amount_raw: '25500000000000000000',
        failure_reason: null,
        tx_hash: paid.txHash,
      },
    ]);
    await mineLocalBlocks(t.db, 13); // 14 blocks hold it
    expect(await watch()).toMatchObject({ seen: 0, credited: 0 });
    expect((await rowsOf(appId))[0]?.deposit_status).toBe(0);
    await mineLocalBlocks(t.db, 1);
    expect(await watch()).toMatchObject({ seen: 0, credited: 1 });
    expect((await rowsOf(appId))[0]?.deposit_status).toBe(3);
    // Nothing happens twice.
    expect(await watch()).toMatchObject({ seen: 0, credited: 0, failed: 0 });
    expect(await rowsOf(appId)).toHaveLength(1);
  });

  it('fails a payment below the minimum, and again after a Re-initiate', async () => {
    const { appId, address } = await account();
    await pay(address, 500_000n); // 0.5 USDT, the minimum is 1
    await watch();
    expect(await rowsOf(appId)).toEqual([
      expect.objectContaining({ deposit_status: 5, failure_reason: 'below_minimum' }),
    ]);
    await t.db
      .updateTable('receive_transactions')
      .set({ deposit_status: 2 })
      .where('app_id', '=', appId)
      .execute();
    await mineLocalBlocks(t.db, 15);
    expect(await watch()).toMatchObject({ credited: 0, failed: 1 });
    expect((await rowsOf(appId))[0]).toMatchObject({
      deposit_status: 5,
      failure_reason: 'below_minimum',
    });
  });

  it('fails a payment that a reorg removed before its confirmations', async () => {
    const { appId, address } = await account();
    const paid = await pay(address, 3_000_000n);
    await watch();
    await t.db.deleteFrom('chain_transfers').where('tx_hash', '=', paid.txHash).execute();
    await mineLocalBlocks(t.db, 15);
    expect(await watch()).toMatchObject({ credited: 0, failed: 1 });
    expect((await rowsOf(appId))[0]).toMatchObject({
      deposit_status: 5,
      failure_reason: 'reorged',
    });
  });

  it('credits once when two processes watch at the same time', async () => {
    const { appId, address } = await account();
    await pay(address, 7_000_000n);
    await mineLocalBlocks(t.db, 20);
    const other = openDb({ dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL });
    try {
      const results = await Promise.all([
        watchDeposits(t.db, chain(), t.clock()),
        watchDeposits(other, chainAdapterFor(t.config, other), t.clock()),
      ]);
      expect(results.reduce((n, r) => n + r.credited, 0)).toBe(1);
    } finally {
      await other.destroy();
    }
    expect(await rowsOf(appId)).toEqual([expect.objectContaining({ deposit_status: 3 })]);
  });

  it('runs as a recurring job, and the admin commands drive the local chain', async () => {
    const { appId, address } = await account();
    const admin = async (...argv: string[]) => {
      const lines: string[] = [];
      const code = await runAdmin(
        argv,
        { out: (l) => lines.push(l) },
        { ...t.storeEnv, NODE_ENV: 'test' },
      );
      return { code, lines };
    };
    const sent = await admin('chain', 'transfer', address, '25.5', 'USDT-BEP20');
    expect(sent.code).toBe(0);
    expect(sent.lines[0]).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await admin('chain', 'transfer', address, '1', 'USDT-ERC20')).code).toBe(2);
    const log = { error: jest.fn(), warn: jest.fn() };
    const worker = await startWorker({
      db: t.db,
      tasks: [depositWatcherTask(t.db, chain(), t.clock)],
      log,
      clock: t.clock,
      pollMs: 0,
    });
    expect(await worker.drain()).toBe(1);
    expect((await rowsOf(appId))[0]).toMatchObject({ deposit_status: 0, amount_micro: 25_500_000 });
    const mined = await admin('chain', 'mine', '15');
    expect(mined.lines[0]).toMatch(/^Mined 15 blocks; the head is block \d+\.$/);
    t.clock.advance(2_000);
    expect(await worker.drain()).toBe(1);
    expect((await rowsOf(appId))[0]?.deposit_status).toBe(3);
    expect(log.error).not.toHaveBeenCalled();
  });
});
