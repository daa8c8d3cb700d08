import { runAdmin } from '../../admin';
import { addUser } from '../../../test/accounts';
import { insertApp, insertSubscription } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { NATIVE_LOG_INDEX } from '../chain/adapter';
import { localBalance, mineLocalBlocks, recordLocalChainTransfer } from '../chain/localAdapter';
import type { SpecChainId } from '../chain/specChains';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from './accounts';
import { newApiKey } from '../apps/apiKeys';
import { watchDeposits } from './deposits';

// The watcher on the local chain beyond BEP20 USDT: native coins (a transaction's value, keyed by
// its hash alone) and every chain id of the spec, each with its own blocks and cursor.

// Building the app (a PostgreSQL schema, migrations, seed) can take longer on a loaded machine.
jest.setTimeout(60_000);

describe('the deposit watcher on every local chain', () => {
  const t = testAppPerBlock();
  let serial = 0;

  async function appWith(methods: { id: string; payout: string }[]) {
    serial += 1;
    const userId = await addUser(t, `scanned_${serial}`);
    const appId = `app_scan_${serial}`;
    const now = t.clock().toISOString();
    await insertApp(t, { id: appId, user_id: userId, created_at: now });
    await insertSubscription(t, userId);
    for (const [i, method] of methods.entries()) {
      await t.db
        .insertInto('app_payment_methods')
        .values({
          id: `apm_scan_${serial}_${i}`,
          app_id: appId,
          payment_method_id: method.id,
          collect_address: method.payout,
          gas_address: null,
          gas_index: null,
          deposit_status: 1,
          withdraw_status: 1,
          created_at: now,
        })
        .execute();
    }
    const open = async (uniqueId: string, code: string) =>
      (
        await openAccount(t.db, resolveWalletXpub(t.config), {
          appId,
          uniqueId,
          code,
          now: t.clock(),
        })
      ).account.address;
    return { appId, open };
  }

  const evmPayout = { payout: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' };
  const tronPayout = { payout: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };
  const watch = (chainId: SpecChainId) =>
    watchDeposits(t.db, chainAdapterFor(t.config, t.db, chainId), t.clock());
  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(argv, { out: (l) => lines.push(l) }, { ...t.storeEnv });
    return { code, lines };
  };
  const rowsOf = (appId: string) =>
    t.db
      .selectFrom('receive_transactions')
      .select(['payment_method_id', 'chain_id', 'log_index', 'deposit_status', 'amount_raw'])
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .execute();

  it('records a native transfer to a deposit address once, keyed by its transaction', async () => {
    const { appId, open } = await appWith([{ id: 'pm_usdt_bsc', ...evmPayout }]);
    const address = await open('order-native', 'USDT-BEP20');
    // The account is per chain: BNB sent to it arrives as well, and is recorded as BNB.
    const sent = await admin('chain', 'transfer', address, '0.25', 'BNB-BSC');
    expect(sent.code).toBe(0);
    const txHash = sent.lines[0] ?? '';
    expect(await localBalance(t.db, 56, null, address)).toBe(250_000_000_000_000_000n);
    expect(await watch(56)).toMatchObject({ seen: 1, credited: 0 });
    expect(await watch(56)).toMatchObject({ seen: 0 });
    expect(await rowsOf(appId)).toEqual([
      {
        payment_method_id: 'pm_bnb',
        chain_id: 56,
        log_index: NATIVE_LOG_INDEX,
        deposit_status: 0,
        amount_raw: '250000000000000000',
      },
    ]);
    await mineLocalBlocks(t.db, 14, 56);
    expect(await watch(56)).toMatchObject({ credited: 1 });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: `key_${appId}`,
        app_id: appId,
        token_name: 'reader',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['deposits:read']),
        created_at: t.clock().toISOString(),
      })
      .execute();
    const listed = await t.inject({
      method: 'GET',
      url: '/gateway/v1/deposits',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([
      expect.objectContaining({
        method: 'BNB-BSC',
        tx_hash: txHash,
        log_index: null,
        amount: '0.25',
        status: 3,
        // Not the account's own method (USDT-BEP20): said so.
        flag: 'wrong_asset',
      }),
    ]);
  });

  it('watches Tron and Ethereum on their own local chains, each with its cursor', async () => {
    const { appId, open } = await appWith([
      { id: 'pm_usdt_tron', ...tronPayout },
      { id: 'pm_eth', ...evmPayout },
    ]);
    const tron = await open('order-t', 'USDT-TRC20');
    const eth = await open('order-e', 'ETH-ETHEREUM');
    expect(tron).toMatch(/^T/);
    expect((await admin('chain', 'transfer', tron, '12', 'USDT-TRC20')).code).toBe(0);
    expect((await admin('chain', 'transfer', tron, '3', 'TRX-TRON')).code).toBe(0);
    expect((await admin('chain', 'transfer', eth, '0.5', 'ETH-ETHEREUM')).code).toBe(0);
    // A Tron method needs a Tron address.
    expect((await admin('chain', 'transfer', eth, '1', 'USDT-TRC20')).code).toBe(2);
    // Chain 56 knows nothing of them.
    expect(await watch(56)).toMatchObject({ seen: 0 });
    expect(await watch(0)).toMatchObject({ seen: 2 });
    expect(await watch(1)).toMatchObject({ seen: 1 });
    const cursors = await t.db
      .selectFrom('watch_cursors')
      .select(['chain_id', 'scanned_block', 'head_block'])
      .where('chain_id', 'in', [0, 1])
      .orderBy('chain_id')
      .execute();
    expect(cursors.map((c) => [c.chain_id, c.scanned_block === c.head_block])).toEqual([
      [0, true],
      [1, true],
    ]);

    expect((await admin('chain', 'mine', '11', '1')).lines).toEqual([
      expect.stringMatching(/^Mined 11 blocks on chain 1; the head is block \d+\.$/),
    ]);
    await mineLocalBlocks(t.db, 17, 0); // 18 of Tron's 19 confirmations for the TRX transfer
    expect(await watch(1)).toMatchObject({ credited: 1 });
    expect(await watch(0)).toMatchObject({ credited: 1 }); // USDT, a block deeper
    await mineLocalBlocks(t.db, 1, 0);
    expect(await watch(0)).toMatchObject({ credited: 1 });
    expect(await rowsOf(appId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ payment_method_id: 'pm_usdt_tron', chain_id: 0, log_index: 0 }),
        expect.objectContaining({ payment_method_id: 'pm_trx', log_index: NATIVE_LOG_INDEX }),
        expect.objectContaining({ payment_method_id: 'pm_eth', chain_id: 1, deposit_status: 3 }),
      ]),
    );
    expect((await rowsOf(appId)).every((r) => r.deposit_status === 3)).toBe(true);
    expect(await localBalance(t.db, 0, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', tron)).toBe(
      12_000_000n,
    );
  });

  it('reports on /metrics how many blocks the watcher is behind each chain', async () => {
    const lag = async (chainId: number) => {
      const text = (await t.inject({ method: 'GET', url: '/metrics' })).body;
      const line = new RegExp(
        `^portal_chain_watcher_lag_blocks\\{chain_id="${chainId}",source="local"\\} (\\d+)$`,
        'm',
      ).exec(text);
      return line ? Number(line[1]) : null;
    };
    await watch(56);
    expect(await lag(56)).toBe(0);
    await mineLocalBlocks(t.db, 7, 56);
    expect(await lag(56)).toBe(7);
    await watch(56);
    expect(await lag(56)).toBe(0);
  });

  it('reads transfers to thousands of addresses in bounded queries', async () => {
    const many = Array.from(
      { length: 2_500 },
      (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`,
    );
    const last = many[many.length - 1] ?? '';
    const sent = await recordLocalChainTransfer(t.db, {
      chainId: 137,
      token: null,
      to: last,
      amount: 5n,
      createdAt: t.clock().toISOString(),
    });
    const chain = chainAdapterFor(t.config, t.db, 137);
    const found = await chain.nativeTransfers(many, 0, await chain.latestBlock());
    expect(found).toEqual([expect.objectContaining({ txHash: sent.txHash, amount: 5n })]);
  });
});
