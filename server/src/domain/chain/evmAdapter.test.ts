import { getAddress, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { withTestApp } from '../../../test/withTestApp';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { coded } from '../../../test/expectations';
import { addMerchant, depositFound } from '../../../test/moneyFixtures';
import { ChainUnavailableError } from './adapter';
import { BSC_CONFIRMATIONS, EvmChainAdapter } from './evmAdapter';
import { expectRefusal } from '../../../test/expectations';

// The EVM JSON-RPC adapter against a real local chain (Hardhat node + our own ERC-20), and the
// whole balance-sync through HTTP with CHAIN_RPC_URL / USDT_CONTRACT pointing at it.

jest.setTimeout(120_000);

const usdt = (amount: string) => parseUnits(amount, 18);
const someAddress = (n: number): Address =>
  privateKeyToAddress(`0x${n.toString(16).padStart(64, '0')}`);

let node: LocalNode;
let token: Address;
beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000000'));
});
afterAll(async () => {
  await node?.stop();
});

describe('EvmChainAdapter', () => {
  it('reads the token decimals and the Transfer logs to one address only', async () => {
    const alice = someAddress(1);
    const bob = someAddress(2);
    const other = await node.deployToken(6, 1_000_000_000n);
    const start = Number(await node.publicClient.getBlockNumber());
    const first = await node.transfer(token, alice, usdt('12.5'));
    await node.transfer(token, bob, usdt('7'));
    await node.transfer(other, alice, 5_000_000n); // another token: never a USDT deposit
    const twice = await node.transferTwice(token, alice, usdt('1'), usdt('0.000001'));

    const adapter = new EvmChainAdapter({ rpcUrl: node.url, tokenAddress: token });
    expect(adapter.confirmations).toBe(BSC_CONFIRMATIONS);
    expect(await adapter.tokenDecimals()).toBe(18);
    const head = await adapter.latestBlock();
    expect(head).toBe(Number(await node.publicClient.getBlockNumber()));

    const transfers = await adapter.transfersToAny([alice.toLowerCase()], start + 1, head);
    expect(transfers.map((t) => [t.txHash, t.amount, t.to])).toEqual([
      [first, usdt('12.5'), alice],
      [twice, usdt('1'), alice],
      [twice, usdt('0.000001'), alice],
    ]);
    const [, a, b] = transfers;
    expect(a?.logIndex).not.toBe(b?.logIndex);
    expect(transfers[0]?.from).toBe(
      getAddress(
        privateKeyToAddress('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'),
      ),
    );
    expect(await adapter.transfersToAny([alice], head + 1, head)).toEqual([]);
  });

  it('splits wide block ranges into several log queries', async () => {
    const carol = someAddress(3);
    const start = Number(await node.publicClient.getBlockNumber()) + 1;
    for (const amount of ['1', '2', '3', '4', '5']) await node.transfer(token, carol, usdt(amount));
    const head = Number(await node.publicClient.getBlockNumber());
    const narrow = new EvmChainAdapter({ rpcUrl: node.url, tokenAddress: token, maxBlockRange: 2 });
    const transfers = await narrow.transfersToAny([carol], start, head);
    expect(transfers.map((t) => t.amount)).toEqual(['1', '2', '3', '4', '5'].map(usdt));
  });

  it('reports an unreachable RPC as ChainUnavailableError', async () => {
    const down = new EvmChainAdapter({
      rpcUrl: 'http://127.0.0.1:9/',
      tokenAddress: token,
      timeoutMs: 2_000,
    });
    await expect(down.latestBlock()).rejects.toBeInstanceOf(ChainUnavailableError);
  });
});

describe('balance-sync on an EVM chain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CHAIN_RPC_URL: node.url, USDT_CONTRACT: token } });
  });
  afterAll(async () => {
    await t.close();
  });

  const wallet = (headers: object) => t.call('getCryptoDeposit', { headers: { ...headers } });
  const sync = (headers: object) => t.call('syncBalance', { headers: { ...headers } });

  it('lists a deposit as Pending until it has 15 confirmations, then credits it once', async () => {
    const m = await addMerchant(t, 'onchain');
    const { address } = (await wallet(m.headers)).json().details;
    const hash = await node.transfer(token, address, usdt('12.5'));

    const seen = await sync(m.headers);
    expect(seen.json()).toEqual(coded(depositFound(0)));
    const pending = (await wallet(m.headers)).json();
    expect(pending.data.data).toEqual([
      { tnx: hash, amount: 12.5, status: 0, created_at: expect.any(String) },
    ]);
    expect(pending.details).toMatchObject({ balance: 0, totalDepositCount: 0 });

    await node.mine(BSC_CONFIRMATIONS - 2);
    const waiting = await sync(m.headers);
    expect(waiting.json()).toMatchObject({ is_new: false, balance: 0 });
    expect(waiting.json().msg).toBe('Your deposit is waiting for 15 block confirmations.');

    await node.mine(1);
    const credited = await sync(m.headers);
    expect(credited.json()).toEqual(coded(depositFound(12.5)));
    expect((await sync(m.headers)).json()).toMatchObject({ is_new: false, balance: 12.5 });
    const after = (await wallet(m.headers)).json();
    expect(after.data.data).toEqual([
      { tnx: hash, amount: 12.5, status: 1, created_at: expect.any(String) },
    ]);
    expect(after.details).toMatchObject({
      balance: 12.5,
      totalDepositCount: 1,
      totalDepositAmount: 12.5,
    });
  });

  it('answers 503 and credits nothing when the RPC is down, and still shows the address', async () => {
    const env = { CHAIN_RPC_URL: 'http://127.0.0.1:9/', USDT_CONTRACT: token };
    await withTestApp({ env }, async (down) => {
      const headers = await down.authHeader();
      const res = await down.call('syncBalance', { headers });
      expectRefusal(res, 503, 'The blockchain could not be reached. Please try again in a minute.');
      const details = await down.call('getCryptoDeposit', { headers });
      expect(details.statusCode).toBe(200);
      expect(details.json().details.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    });
  });
});
