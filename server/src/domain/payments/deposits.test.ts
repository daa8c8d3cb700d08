import { runAdmin } from '../../admin';
import { newApiKey } from '../apps/apiKeys';
import { openDb } from '../../db/connection';
import { addUser } from '../../../test/accounts';
import {
  insertApp,
  insertAppMethod,
  insertReceive,
  insertSubscription,
} from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalTransfer } from '../chain/localAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from './accounts';
import { depositWatcherTask } from '../../jobs';
import { queueDeepDeposits, watchDeposits } from './deposits';
import type { WatchedMethod } from './depositScan';
import { startWorker } from '../../jobs/worker';

// The gateway's watcher on the local chain: a payment to a deposit account is recorded once,
// waits for the method's 15 confirmations, is verified and credited.

describe('the deposit watcher', () => {
  const t = testAppPerBlock();
  let serial = 0;

  async function account(uniqueId = 'order-1', packageId = 'pkg_starter') {
    serial += 1;
    const userId = await addUser(t, `watched_${serial}`);
    await insertSubscription(t, userId, { packageId });
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

  it("credits a block that pays several merchants, each at its own package's fee, with its own events", async () => {
    const merchants = [
      await account('order-a', 'pkg_starter'),
      await account('order-b', 'pkg_enterprise'),
      await account('order-c'),
    ];
    // The third merchant's package ended after its account was handed out.
    await t.db
      .deleteFrom('subscriptions')
      .where('user_id', '=', (eb) =>
        eb
          .selectFrom('apps')
          .select('user_id')
          .where('id', '=', merchants[2]?.appId ?? ''),
      )
      .execute();
    for (const m of merchants) await pay(m.address, 20_000_000n);
    expect(await watch()).toMatchObject({ seen: 3, credited: 0 });
    await mineLocalBlocks(t.db, 14);
    expect(await watch()).toMatchObject({ seen: 0, credited: 3 });
    const credited = await t.db
      .selectFrom('receive_transactions')
      .select(['app_id', 'deposit_status', 'fee_percent', 'fee_raw'])
      .where(
        'app_id',
        'in',
        merchants.map((m) => m.appId),
      )
      .orderBy('app_id')
      .execute();
    expect(credited).toEqual([
      {
        app_id: merchants[0]?.appId,
        deposit_status: 3,
        fee_percent: '1',
        fee_raw: '200000000000000000',
      },
      {
        app_id: merchants[1]?.appId,
        deposit_status: 3,
        fee_percent: '0.5',
        fee_raw: '100000000000000000',
      },
      { app_id: merchants[2]?.appId, deposit_status: 3, fee_percent: null, fee_raw: null },
    ]);
    // Each merchant's feed: the pending event, then the confirmed one, numbered from 1.
    for (const m of merchants) {
      const events = await t.db
        .selectFrom('webhook_events')
        .select(['type', 'seq', 'resource_seq'])
        .where('app_id', '=', m.appId)
        .orderBy('seq')
        .execute();
      expect(events).toEqual([
        { type: 'deposit.pending', seq: 1, resource_seq: 1 },
        { type: 'deposit.confirmed', seq: 2, resource_seq: 2 },
      ]);
    }
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
    expect((await admin('chain', 'transfer', address, '1', 'USDT-NOPE')).code).toBe(2);
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
    expect(mined.lines[0]).toMatch(/^Mined 15 blocks on chain 56; the head is block \d+\.$/);
    // Every chain id of the spec runs on the local chain here: four live, four test networks.
    expect(mined.lines).toHaveLength(8);
    t.clock.advance(2_000);
    expect(await worker.drain()).toBe(1);
    expect((await rowsOf(appId))[0]?.deposit_status).toBe(3);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('reads deposits and totals back through the gateway API', async () => {
    const { appId, address } = await account('cust-9');
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${appId}`,
        app_id: appId,
        token_name: 'reader',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['deposits:read', 'balances:read']),
        created_at: t.clock().toISOString(),
      })
      .execute();
    const get = (url: string) =>
      t.inject({
        method: 'GET',
        url: `/gateway/v1${url}`,
        headers: { authorization: `Bearer ${key.key}` },
      });
    const credited = await pay(address, 25_500_000n);
    t.clock.advance(1_000);
    await pay(address, 2_000_000n);
    t.clock.advance(1_000);
    await pay(address, 400_000n);
    await watch();
    const statuses = async () =>
      (await get('/deposits')).json().data.map((d: { status: number }) => d.status);
    // The page an integration polls (kept per process until the app's rows change) follows
    // the watcher.
    expect(await statuses()).toEqual([5, 0, 0]);
    expect(await statuses()).toEqual([5, 0, 0]);
    await mineLocalBlocks(t.db, 12); // 15 blocks hold the first, 14 the second
    await watch();
    expect(await statuses()).toEqual([5, 0, 3]);

    const all = (await get('/deposits')).json();
    expect(all.next_cursor).toBeNull();
    expect(all.data.map((d: { amount: string; status: number }) => [d.amount, d.status])).toEqual([
      ['0.4', 5],
      ['2', 0],
      ['25.5', 3],
    ]);
    const first = all.data[2];
    expect(first).toMatchObject({
      unique_id: 'cust-9',
      method: 'USDT-BEP20',
      chain_id: 56,
      address,
      tx_hash: credited.txHash,
      log_index: 0,
      block_number: credited.blockNumber,
      failure_reason: null,
      credited_at: t.clock().toISOString(),
    });
    expect(all.data[0].failure_reason).toBe('below_minimum');
    expect((await get(`/deposits/${first.id}`)).json()).toEqual(first);
    expect((await get('/deposits/rcv_nope')).statusCode).toBe(404);
    expect((await get('/deposits?status=3')).json().data).toEqual([first]);
    expect((await get('/deposits?unique_id=someone-else')).json().data).toEqual([]);
    const paged = (await get('/deposits?limit=2')).json();
    expect(paged.data).toHaveLength(2);
    expect((await get(`/deposits?limit=2&cursor=${paged.next_cursor}`)).json().data).toEqual([
      first,
    ]);
    expect((await get('/deposits?status=9')).statusCode).toBe(422);
    expect((await get('/balances')).json()).toEqual({
      data: [{ method: 'USDT-BEP20', received: '27.500000', credited: '25.500000' }],
    });
  });

  it("queues each method's payments for verification once its own confirmations hold them", async () => {
    const { appId } = await account('order-depths');
    const method = (id: string, confirmations: number): WatchedMethod => ({
      id,
      chainId: 56,
      asset: id,
      contract: null,
      decimals: 18,
      confirmations,
      minimum: 1n,
    });
    const usdt = method('pm_usdt_bsc', 3);
    const bnb = method('pm_bnb', 10);
    for (const [id, methodId, chainId] of [
      ['rcv_depth_usdt', usdt.id, 56],
      ['rcv_depth_bnb', bnb.id, 56],
      ['rcv_depth_other_chain', usdt.id, 1],
    ] as const) {
      await insertReceive(t, {
        id,
        app_id: appId,
        unique_id: 'order-depths',
        payment_method_id: methodId,
        chain_id: chainId,
        block_number: 100,
        amount_micro: 1_000_000,
        deposit_status: 0,
        created_at: t.clock().toISOString(),
      });
    }
    const statuses = async () =>
      Object.fromEntries(
        (
          await t.db
            .selectFrom('receive_transactions')
            .select(['id', 'deposit_status'])
            .where('unique_id', '=', 'order-depths')
            .where('app_id', '=', appId)
            .execute()
        ).map((row) => [row.id, row.deposit_status]),
      );
    // Blocks 100 to 102 hold both: the USDT payment's 3 confirmations, not yet the BNB one's 10.
    await queueDeepDeposits(t.db, 56, [usdt, bnb], 102);
    expect(await statuses()).toEqual({
      rcv_depth_usdt: 2,
      rcv_depth_bnb: 0,
      rcv_depth_other_chain: 0,
    });
    await queueDeepDeposits(t.db, 56, [usdt, bnb], 108);
    expect((await statuses()).rcv_depth_bnb).toBe(0);
    await queueDeepDeposits(t.db, 56, [usdt, bnb], 109);
    expect(await statuses()).toEqual({
      rcv_depth_usdt: 2,
      rcv_depth_bnb: 2,
      rcv_depth_other_chain: 0,
    });
  });
});
