import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { startLogReplay, type LogReplay } from '../../../test/chain/logReplay';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { EvmChainAdapter } from '../chain/evmAdapter';
import { recordLocalChainTransfer } from '../chain/localAdapter';
import { specUsdt } from '../chain/specChains';
import { closeProviderPools } from '../chain/rpc';
import { resolveWalletXpub } from '../chain/walletKey';
import { createInvoice } from '../invoices/invoices';
import { RateBook } from '../rates/rates';
import { FEW_ADDRESSES, scanChain, watchedMethods } from './depositScan';

// Many deposit addresses on a busy chain: the watcher reads each token's Transfer logs whole per
// block range and looks the recipients up, so what it asks of the chain does not grow with the
// number of addresses watched.

jest.setTimeout(60_000);

const TOKEN = '0x00000000000000000000000000000000000a11CE';
/** An address of digits only: its EIP-55 form is itself, as the database stores it. */
const addressOf = (n: number) => `0x${String(n).padStart(40, '0')}`;

describe('the deposit watcher with many addresses', () => {
  const t = testAppPerBlock();
  let chain: LogReplay;
  let appId: string;
  let accounts = 0;

  beforeAll(async () => {
    chain = await startLogReplay({
      chainId: 56,
      token: TOKEN,
      transfersPerBlock: 40,
      nativePerBlock: 10,
      head: 100,
    });
    const userId = await addUser(t, 'many_addresses');
    appId = 'app_many_addresses';
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    // The stand-in is another chain 56 than the local one the app was built on: read from its start.
    await t.db.deleteFrom('watch_cursors').where('chain_id', '=', 56).execute();
  });
  afterAll(async () => {
    closeProviderPools();
    await chain.close();
  });

  async function addAccounts(count: number, chainId: 56 | 137 = 56) {
    const rows = Array.from({ length: count }, (_, i) => {
      const n = accounts + i + 1;
      return {
        id: `acc_many_${n}`,
        app_id: appId,
        payment_method_id: chainId === 56 ? 'pm_usdt_bsc' : 'pm_usdt_polygon',
        unique_id: `customer-${n}`,
        chain_id: chainId,
        derivation_index: 900_000 + n,
        address: addressOf(n),
        created_at: t.clock().toISOString(),
      };
    });
    for (let i = 0; i < rows.length; i += 500) {
      await t.db
        .insertInto('app_accounts')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    accounts += count;
  }

  /** One pass over the next 100 blocks: what it found, and the eth_getLogs calls it made. */
  async function pass() {
    const adapter = new EvmChainAdapter({ rpcUrl: chain.url, tokenAddress: TOKEN, chainId: 56 });
    const before = chain.calls().eth_getLogs ?? 0;
    const scan = await scanChain(t.db, adapter, await watchedMethods(t.db, adapter), t.clock());
    await scan.advance();
    chain.setHead(scan.head + 100);
    return { scan, getLogs: (chain.calls().eth_getLogs ?? 0) - before };
  }

  it('finds deposits among thousands of addresses with as many log queries as among hundreds', async () => {
    await addAccounts(FEW_ADDRESSES + 100);
    // Every tenth block pays one of them in tokens, the block after in BNB.
    chain.setDeposits([addressOf(7), addressOf(FEW_ADDRESSES + 50)]);
    await pass(); // from the first blocks: the cursor is set
    const few = await pass();
    await addAccounts(5 * FEW_ADDRESSES);
    chain.setDeposits([addressOf(accounts - 3)]);
    const many = await pass();

    // One Transfer query per range for USDT, none per address (BNB is read from block bodies).
    expect(few.getLogs).toBe(1);
    expect(many.getLogs).toBe(few.getLogs);
    const paid = (found: typeof many.scan.found) =>
      found
        .map((f) => [f.transfer.blockNumber, f.method.id, f.account.unique_id, f.transfer.to])
        .sort((x, y) => Number(x[0]) - Number(y[0]));
    // Tokens in blocks 110, 120...; BNB in 101, 111...: to the deposit addresses in turn.
    const expected = (first: number, deposits: number[]) =>
      Array.from({ length: 20 }, (_, i) => {
        const block = first + 5 * i + (i % 2 === 0 ? 0 : 4);
        const nth = Math.floor(block / 10) % deposits.length;
        const n = deposits[nth] ?? 0;
        return [block, i % 2 === 0 ? 'pm_bnb' : 'pm_usdt_bsc', `customer-${n}`, addressOf(n)];
      });
    expect(paid(few.scan.found)).toEqual(expected(101, [7, FEW_ADDRESSES + 50]));
    expect(paid(many.scan.found)).toEqual(expected(201, [accounts - 3]));
  });

  it('matches the recipients of a local chain against many addresses too', async () => {
    const first = accounts + 1;
    await addAccounts(FEW_ADDRESSES + 1, 137);
    const last = accounts;
    const adapter = chainAdapterFor(t.config, t.db, 137);
    const usdt = specUsdt(137)?.contract ?? '';
    const send = (token: string | null, to: string) =>
      recordLocalChainTransfer(t.db, {
        chainId: 137,
        token,
        to,
        amount: 7n,
        createdAt: t.clock().toISOString(),
      });
    await scanChain(t.db, adapter, await watchedMethods(t.db, adapter), t.clock()).then((s) =>
      s.advance(),
    );
    const paid = [await send(usdt, addressOf(last)), await send(null, addressOf(first))];
    await send(usdt, addressOf(last + 1)); // not watched
    const scan = await scanChain(t.db, adapter, await watchedMethods(t.db, adapter), t.clock());
    expect(
      scan.found
        .map((f) => [f.transfer.txHash, f.method.id, f.account.unique_id])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    ).toEqual([
      [paid[1]?.txHash, 'pm_pol', `customer-${first}`],
      [paid[0]?.txHash, 'pm_usdt_polygon', `customer-${last}`],
    ]);
  });
  it("flags an invoice's token sent on another chain, found among many addresses", async () => {
    await addAccounts(FEW_ADDRESSES + 1, 137);
    const userId = await addUser(t, 'many_invoiced');
    await insertSubscription(t, userId);
    await insertApp(t, {
      id: 'app_many_invoiced',
      user_id: userId,
      created_at: t.clock().toISOString(),
    });
    await insertAppMethod(t, { id: 'apm_many_invoiced', app_id: 'app_many_invoiced' });
    const local = chainAdapterFor(t.config, t.db, 56);
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId: 'app_many_invoiced',
        amount: '10',
        currency: 'USD',
        expiresIn: 900,
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => local.tokenContract(listed),
      },
    );
    // The invoice offers USDT on BNB Smart Chain; the shopper sends it on Polygon.
    expect(invoice.payment_options.map((o) => o.chain_id)).toEqual([56]);
    const address = invoice.payment_options[0]?.address ?? '';
    const polygon = chainAdapterFor(t.config, t.db, 137);
    await scanChain(t.db, polygon, await watchedMethods(t.db, polygon), t.clock()).then((s) =>
      s.advance(),
    );
    const sent = await recordLocalChainTransfer(t.db, {
      chainId: 137,
      token: specUsdt(137)?.contract ?? '',
      to: address,
      amount: 10_000_000n,
      createdAt: t.clock().toISOString(),
    });
    const scan = await scanChain(t.db, polygon, await watchedMethods(t.db, polygon), t.clock());
    expect(
      scan.invoiceTransfers.map((f) => [f.transfer.txHash, f.method.id, f.invoice.id, f.flag]),
    ).toEqual([[sent.txHash, 'pm_usdt_polygon', invoice.id, 'wrong_network']]);
  });
});
