import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { isAddress } from 'viem';
import { runAdmin } from '../admin';
import { newId } from '../domain/ids';
import { deriveEvmAddress } from '../domain/chain/hdWallet';
import { localHead, setLocalHead } from '../domain/chain/localAdapter';
import { DEV_XPUB_FILE } from '../domain/chain/walletKey';
import { DEV_MNEMONIC_FILE } from '../signer/server/seed';
import { balanceMicro } from '../domain/billing/ledger';
import { addMerchant, credit, depositFound } from '../../test/moneyFixtures';
import { testAppPerBlock } from '../../test/withTestApp';
import { coded } from '../../test/expectations';

// The wallet (crypto-deposit) and balance-sync on the local chain: deposits recorded by the
// admin `deposit` command, found and credited by the next sync, exactly once.

type Headers = { authorization: string };

describe('wallet on the local chain', () => {
  const t = testAppPerBlock();

  const wallet = (headers: Headers) => t.call('getCryptoDeposit', { headers });
  const sync = (headers: Headers) => t.call('syncBalance', { headers });
  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (line) => lines.push(line) },
      { ...t.storeEnv, NODE_ENV: 'test', SECRET_KEY: t.config.secretKey },
    );
    return { code, text: lines.join('\n') };
  };

  it('derives each account its own address from the development xpub kept in DATA_DIR', async () => {
    const a = await addMerchant(t, 'addr_a');
    const b = await addMerchant(t, 'addr_b');
    const first = (await wallet(a.headers)).json();
    expect(first).toEqual({
      status: true,
      details: {
        address: expect.any(String),
        network: 'BEP20',
        balance: 0,
        totalDepositCount: 0,
        totalDepositAmount: 0,
        amountToPay: 0,
      },
      data: { data: [] },
    });
    const addressA = first.details.address;
    expect(isAddress(addressA, { strict: true })).toBe(true);
    expect((await wallet(a.headers)).json().details.address).toBe(addressA);
    const addressB = (await wallet(b.headers)).json().details.address;
    expect(addressB).not.toBe(addressA);

    // The server reads only the xpub; the mnemonic file is the developer's, owner-only.
    const xpub = readFileSync(path.join(t.dataDir, DEV_XPUB_FILE), 'utf8').trim();
    const mnemonicFile = path.join(t.dataDir, DEV_MNEMONIC_FILE);
    expect(statSync(mnemonicFile).mode & 0o777).toBe(0o600);
    const account = HDKey.fromMasterSeed(
      mnemonicToSeedSync(readFileSync(mnemonicFile, 'utf8').trim()),
    ).derive("m/44'/60'/0'");
    expect(account.publicExtendedKey).toBe(xpub);
    const rows = await t.db
      .selectFrom('users')
      .select(['deposit_index', 'deposit_address'])
      .where('deposit_address', 'in', [addressA, addressB])
      .execute();
    for (const row of rows) {
      expect(deriveEvmAddress(xpub, row.deposit_index ?? -1)).toBe(row.deposit_address);
    }
  });

  it('credits a deposit made with the admin command on the next sync, exactly once', async () => {
    const m = await addMerchant(t, 'depositor');
    expect((await sync(m.headers)).json()).toEqual(
      coded({
        status: true,
        balance: 0,
        is_new: false,
        msg: 'No new deposit found',
      }),
    );
    const sent = await admin('deposit', 'Depositor', '25.5');
    expect(sent.code).toBe(0);
    const { address } = (await wallet(m.headers)).json().details;
    expect(sent.text).toContain(`Sent 25.500000 USDT to depositor (${address})`);
    // Nothing is credited before the user checks the balance, as on a real chain.
    expect((await wallet(m.headers)).json().details.balance).toBe(0);

    expect((await sync(m.headers)).json()).toEqual(coded(depositFound(25.5)));
    expect((await sync(m.headers)).json()).toMatchObject({ is_new: false, balance: 25.5 });

    await admin('deposit', 'depositor', '0.000001');
    const [again, concurrent] = await Promise.all([sync(m.headers), sync(m.headers)]);
    expect([again.json().is_new, concurrent.json().is_new].sort()).toEqual([false, true]);

    const body = (await wallet(m.headers)).json();
    expect(body.details).toMatchObject({
      balance: 25.500001,
      totalDepositCount: 2,
      totalDepositAmount: 25.500001,
    });
    expect(
      body.data.data.map((d: { amount: number; status: number }) => [d.amount, d.status]),
    ).toEqual([
      [0.000001, 1],
      [25.5, 1],
    ]);
    expect(body.data.data[0].tnx).toMatch(/^0x[0-9a-f]{64}$/);
    const credits = await t.db
      .selectFrom('ledger_entries')
      .select(['amount_micro', 'source'])
      .where('user_id', '=', m.id)
      .orderBy('amount_micro', 'desc')
      .execute();
    expect(credits).toEqual([
      { amount_micro: 25_500_000, source: 'deposit' },
      { amount_micro: 1, source: 'deposit' },
    ]);
  });

  it('dates the ledger credit at the deposit, so wallet and dashboard show the same time', async () => {
    const m = await addMerchant(t, 'punctual');
    await wallet(m.headers);
    await admin('deposit', 'punctual', '5');
    t.clock.advance(90_000); // the sync that credits it comes a minute and a half later
    expect((await sync(m.headers)).json()).toEqual(coded(depositFound(5)));
    const [deposit] = (await wallet(m.headers)).json().data.data;
    const dashboard = await t.call('getDashboard', { headers: m.headers });
    const [entry] = dashboard.json().data.latest_transacctions;
    expect(entry.tnx).toBe(deposit.tnx);
    expect(entry.created_at).toBe(deposit.created_at);
  });

  it('converts the 18-decimal token amount exactly and never credits sub-micro dust', async () => {
    const m = await addMerchant(t, 'precise');
    const { address } = (await wallet(m.headers)).json().details;
    // Each its own block, the chain's head, as the local chain records one.
    const transfer = async (amountRaw: string, block: number) => {
      await setLocalHead(t.db, 56, block);
      await t.db
        .insertInto('chain_transfers')
        .values({
          id: newId('ctx'),
          tx_hash: `0x${newId('h').slice(2).padEnd(64, '0')}`,
          log_index: 0,
          token_contract: '0x55d398326f99059fF775485246999027B3197955', // BEP20 USDT
          from_address: address,
          to_address: address,
          amount_raw: amountRaw,
          block_number: block,
          created_at: t.clock().toISOString(),
        })
        .execute();
    };
    const next = (await localHead(t.db)) + 1;
    await transfer('999999999999', next); // below 10^-6 USDT
    expect((await sync(m.headers)).json()).toMatchObject({ is_new: false, balance: 0 });
    await transfer('1234567891234567891', next + 1); // 1.234567891234567891 USDT
    expect((await sync(m.headers)).json()).toMatchObject({ is_new: true, balance: 1.234567 });
  });

  it("ignores transfers to other accounts' addresses", async () => {
    const payer = await addMerchant(t, 'payee_one');
    const bystander = await addMerchant(t, 'bystander');
    await wallet(bystander.headers);
    await admin('deposit', 'payee_one', '10');
    expect((await sync(bystander.headers)).json()).toMatchObject({ is_new: false, balance: 0 });
    expect((await sync(payer.headers)).json()).toMatchObject({ is_new: true, balance: 10 });
  });

  it('shows the subscription due: the active plan price less the balance, never below 0', async () => {
    const m = await addMerchant(t, 'due');
    await credit(t, m.id, '69');
    const buy = await t.call('purchasePackage', {
      headers: m.headers,
      body: { package_id: 'pkg_business' },
    });
    expect(buy.statusCode).toBe(200);
    expect((await wallet(m.headers)).json().details).toMatchObject({
      balance: 20,
      amountToPay: 29,
    });
    await credit(t, m.id, '100');
    expect((await wallet(m.headers)).json().details.amountToPay).toBe(0);
  });

  it('lists the 20 newest deposits', async () => {
    const m = await addMerchant(t, 'busy');
    await wallet(m.headers);
    for (let i = 1; i <= 22; i += 1) {
      await admin('deposit', 'busy', String(i));
      t.clock.advance(1000);
    }
    const fresh = await t.authHeader('busy');
    expect((await sync(fresh)).json()).toMatchObject({ is_new: true, balance: 253 });
    const body = (await wallet(fresh)).json();
    expect(body.details.totalDepositCount).toBe(22);
    expect(body.data.data.map((d: { amount: number }) => d.amount)).toEqual(
      Array.from({ length: 20 }, (_, i) => 22 - i),
    );
    // 22 operator commands, each opening the database as `npm run admin` does.
  }, 30_000);

  it('keeps a balance past 2^53 micro-USDT exact and answers it (no 500)', async () => {
    const m = await addMerchant(t, 'whale');
    await wallet(m.headers);
    for (let i = 0; i < 2; i += 1) {
      const sent = await admin('deposit', 'whale', '9007199254.740991');
      expect(sent.code).toBe(0);
    }
    const synced = await sync(m.headers);
    expect(synced.statusCode).toBe(200);
    // 18014398509.481982 USDT: the JSON number is the nearest double, the ledger exact.
    expect(synced.json()).toEqual(coded(depositFound(Number('18014398509.481982'))));
    expect(await balanceMicro(t.db, m.id)).toBe(18_014_398_509_481_982n);
    const balance = await t.call('getBalance', { headers: m.headers });
    expect(balance.statusCode).toBe(200);
    expect(balance.json()).toEqual({
      status: true,
      data: { payInBalance: Number('18014398509.481982') },
    });
    const details = await wallet(m.headers);
    expect(details.statusCode).toBe(200);
    expect(details.json().details).toMatchObject({
      balance: Number('18014398509.481982'),
      totalDepositCount: 2,
      totalDepositAmount: Number('18014398509.481982'),
      amountToPay: 0,
    });
    // And it still pays: a purchase debits the exact price.
    const buy = await t.call('purchasePackage', {
      headers: m.headers,
      body: { package_id: 'pkg_business' },
    });
    expect(buy.statusCode).toBe(200);
    expect(await balanceMicro(t.db, m.id)).toBe(18_014_398_509_481_982n - 49_000_000n);
  });

  it('admin deposit refuses an amount that would overflow the wallet, with a clear message', async () => {
    const m = await addMerchant(t, 'overflow');
    await wallet(m.headers);
    // 1023 credits of 2^53-1 micro: 9007199254.742014 USDT left below 2^63-1 micro.
    await t.db
      .insertInto('ledger_entries')
      .values(
        Array.from({ length: 1023 }, () => ({
          id: newId('led'),
          user_id: m.id,
          tnx: newId('tx'),
          amount_micro: Number.MAX_SAFE_INTEGER,
          type: 'credit' as const,
          source: 'test',
          note: null,
          created_at: t.clock().toISOString(),
        })),
      )
      .execute();
    const max = 2n ** 63n - 1n;
    expect(await balanceMicro(t.db, m.id)).toBe(max - 9_007_199_254_742_014n);
    expect((await admin('deposit', 'overflow', '9007199254')).code).toBe(0);
    const refused = await admin('deposit', 'overflow', '1');
    expect(refused).toEqual({
      code: 1,
      text:
        "Refused: overflow's wallet would take in more than 9223372036854.775807 USDT in all, " +
        'the most one wallet can hold (9223372036854.033793 USDT credited or on the way; ' +
        'at most 0.742014 more).',
    });
    const one = await admin('deposit', 'overflow', '9007199255');
    expect(one.code).toBe(2);
    expect(one.text).toContain('the largest single amount is 9007199254.740991 USDT');
    expect((await sync(m.headers)).statusCode).toBe(200);
    expect(await balanceMicro(t.db, m.id)).toBe(max - 742_014n);
    const balance = await t.call('getBalance', { headers: m.headers });
    expect(balance.statusCode).toBe(200);
    expect(balance.json().data.payInBalance).toBe(Number('9223372036854.033793'));
    expect((await wallet(m.headers)).statusCode).toBe(200);
  });

  it('admin deposit refuses bad input and unknown users', async () => {
    expect(await admin('deposit', 'nobody', '5')).toEqual({
      code: 1,
      text: "No user named 'nobody'.",
    });
    const bad = await admin('deposit', 'demo', '1.1234567');
    expect(bad.code).toBe(2);
    expect(bad.text).toContain("'1.1234567' is not an amount of USDT");
    expect((await admin('deposit', 'demo', '0')).text).toContain('greater than 0');
    expect((await admin('deposit', 'demo')).code).toBe(2);
  });
});
