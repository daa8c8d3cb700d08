import { parseAbiItem, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { startFaultProxy, type Dialect, type FaultProxy } from '../../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { verifyProviders } from '.';
import { closeProviderPools, ProviderPool } from './rpc';

// A chain's providers as the gateway uses them (rpc.ts), in front of one Hardhat node through
// fault proxies: what a read gets when a provider vanishes, rate-limits, times out, refuses a
// log range in its own words, serves another chain or lags behind the others. Each read either
// gets what the chain holds or fails; none gets less.

jest.setTimeout(120_000);

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const usdt = (amount: string) => parseUnits(amount, 18);
const recipient: Address = privateKeyToAddress(`0x${'09'.padStart(64, '0')}`);

let node: LocalNode;
let token: Address;
/** The blocks of the eight transfers to `recipient`, one a block. */
let first = 0n;
let last = 0n;
const proxies: FaultProxy[] = [];
const pools: ProviderPool[] = [];

beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000'));
  for (let i = 1; i <= 8; i += 1) {
    await node.transfer(token, recipient, usdt(String(i)));
    if (i === 1) first = await node.publicClient.getBlockNumber();
  }
  last = await node.publicClient.getBlockNumber();
});
afterAll(async () => {
  closeProviderPools();
  await node?.stop();
});
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function proxy(): Promise<FaultProxy> {
  const made = await startFaultProxy(node.url);
  proxies.push(made);
  return made;
}

function pool(urls: string[], timeoutMs = 2_000): ProviderPool {
  // Ranked again every 100 ms (reordering while reads are in flight, as it may in production),
  // and a closed pool's ranking stops soon after the test.
  const made = new ProviderPool(56, urls, { timeoutMs, rankIntervalMs: 100 });
  pools.push(made);
  return made;
}

/** The amounts of the transfers to `recipient` the pool reads in first..last. */
async function amounts(p: ProviderPool): Promise<bigint[]> {
  const logs = await p.client.getLogs({
    address: token,
    event: TRANSFER,
    args: { to: recipient },
    fromBlock: first,
    toBlock: last,
    strict: true,
  });
  return logs.map((log) => log.args.value);
}

const EVERY = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => usdt(String(n)));

/** Until every provider's head is known (the ranking samples them when the pool starts). */
async function sampled(p: ProviderPool): Promise<void> {
  for (let i = 0; i < 100 && p.status().some((s) => s.head === null); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (p.status().some((s) => s.head === null)) throw new Error('The ranking sampled no head');
}

describe('a log range a provider refuses as too wide', () => {
  const dialects: Dialect[] = ['infura', 'alchemy', 'quicknode', 'ankr', 'bsc', 'reth'];
  it.each(dialects)('is halved until it passes, in %s’s words, and the width kept', async (d) => {
    const one = await proxy();
    one.set({ dialect: d, maxLogRange: 3 });
    const p = pool([one.url]);
    expect(await amounts(p)).toEqual(EVERY);
    const [status] = p.status();
    expect(status?.rangeRefusals).toBeGreaterThan(0);
    expect(status?.learnedLogRange).toBeLessThanOrEqual(3);
    // The next read asks in widths that pass at once.
    const refused = one.outcomes('eth_getLogs').refused;
    expect(await amounts(p)).toEqual(EVERY);
    expect(one.outcomes('eth_getLogs').refused).toBe(refused);
  });
});

describe('a log range whose result a provider refuses as too large', () => {
  const dialects: Dialect[] = ['infura', 'alchemy', 'reth'];
  it.each(dialects)('is halved until it passes, in %s’s words', async (d) => {
    const one = await proxy();
    one.set({ dialect: d, maxLogs: 2 });
    const p = pool([one.url]);
    expect(await amounts(p)).toEqual(EVERY);
    expect(p.status()[0]?.learnedLogRange).toBeLessThanOrEqual(2);
  });
});

describe('two providers, one failing', () => {
  it('reads through the other while one has vanished, and sets the vanished one aside', async () => {
    const [gone, up] = [await proxy(), await proxy()];
    const p = pool([gone.url, up.url]);
    await gone.vanish();
    expect(await amounts(p)).toEqual(EVERY);
    expect(Number(await p.client.getBlockNumber())).toBeGreaterThanOrEqual(Number(last));
    const [aside] = p.status();
    expect(aside?.setAside).toMatch(/^failing, tried again in \d+ ms$/);
    // While it is set aside the other answers. (At least one call more there, not exactly one:
    // viem's ranking samples each provider's head on its own interval meanwhile.)
    const before = up.calls();
    expect(Number(await p.client.getBlockNumber())).toBeGreaterThanOrEqual(Number(last));
    expect(up.calls()).toBeGreaterThan(before);
  });

  it('moves on from a provider answering 429, and from one that never answers', async () => {
    for (const fault of [{ status429: {} }, { drop: {} }] as const) {
      const [bad, good] = [await proxy(), await proxy()];
      bad.set(fault);
      const p = pool([bad.url, good.url], 500);
      expect(await amounts(p)).toEqual(EVERY);
      // Its failures were counted and passed on. (Whether it is still set aside depends on how
      // long the reads took: its back-off may have run out on a loaded machine.)
      expect(p.status()[0]?.errors).toBeGreaterThan(0);
      expect(p.status()[1]?.setAside).toBeNull();
      expect(p.status()[1]?.errors).toBe(0);
    }
  });

  it('refuses a provider of another chain at start, naming it, and reads through the other', async () => {
    const [wrong, right] = [await proxy(), await proxy()];
    wrong.set({ chainId: 1 });
    const p = pool([wrong.url, right.url]);
    const host = new URL(wrong.url).host;
    await expect(p.verify()).rejects.toThrow(
      `RPC provider 1:${host} is refused: it serves chain 1, not 56`,
    );
    expect(await amounts(p)).toEqual(EVERY);
    expect(wrong.calls('eth_getLogs')).toBe(0);
  });

  it('stops the start on a provider of another chain, naming the setting and the provider', async () => {
    const [right, wrong] = [await proxy(), await proxy()];
    wrong.set({ chainId: 97 });
    const host = new URL(wrong.url).host;
    await expect(
      verifyProviders({ chainRpcUrl: right.url, chainRpcUrls: new Map([[1, wrong.url]]) }),
    ).rejects.toThrow(
      `CHAIN_RPC_URLS: RPC provider 1:${host} is refused: it serves chain 97, not 1`,
    );
    // One unreachable for now is checked before its first use: the start goes on.
    const gone = await proxy();
    await gone.vanish();
    await expect(
      verifyProviders({ chainRpcUrl: gone.url, chainRpcUrls: new Map() }),
    ).resolves.toBeUndefined();
  });

  it('believes "not found" only when every provider says it', async () => {
    const hash = await node.transfer(token, recipient, usdt('1'));
    const [blind, seeing] = [await proxy(), await proxy()];
    blind.set({ notFound: ['eth_getTransactionReceipt'] });
    const p = pool([blind.url, seeing.url]);
    const receipt = await p.client.getTransactionReceipt({ hash });
    expect(receipt.transactionHash).toBe(hash);
    expect(blind.calls('eth_getTransactionReceipt')).toBe(1);
    // Both say so: it is not there.
    seeing.set({ notFound: ['eth_getTransactionReceipt'] });
    await expect(p.client.getTransactionReceipt({ hash })).rejects.toMatchObject({
      name: 'TransactionReceiptNotFoundError',
    });
    // One cannot be asked: the absence is not confirmed, and the read fails.
    await seeing.vanish();
    await expect(p.client.getTransactionReceipt({ hash })).rejects.not.toMatchObject({
      name: 'TransactionReceiptNotFoundError',
    });
  });

  it('sends a transaction to every provider; refused only when every one answered refusing it', async () => {
    const [gone, up] = [await proxy(), await proxy()];
    const p = pool([gone.url, up.url]);
    await gone.vanish();
    // One gone: the other takes it, and it is mined.
    const signed = await node.signTransfer(token, recipient, usdt('2'));
    expect(await p.broadcast(signed)).toEqual({ sent: true });
    // Bytes no node can take: the one answering refuses, but the gone one might have taken
    // them: not a refusal, so a nonce is never freed on it.
    expect(await p.broadcast('0x1234')).toMatchObject({ sent: false, refused: false });
    await gone.reappear();
    const both = pool([(await proxy()).url, (await proxy()).url]);
    expect(await both.broadcast('0x1234')).toMatchObject({ sent: false, refused: true });
  });

  it('never lets a lagging provider answer for blocks it has not reached', async () => {
    const [behind, ahead] = [await proxy(), await proxy()];
    // Three blocks behind: within the lag allowed, so it stays first for what it has.
    behind.set({ head: { behind: 3 } });
    const p = pool([behind.url, ahead.url]);
    await sampled(p);
    expect(await amounts(p)).toEqual(EVERY);
    // Asked up to the head, the lagging one said it had not got there; the other read it.
    expect(behind.calls('eth_getLogs')).toBe(0);
    expect(ahead.calls('eth_getLogs')).toBeGreaterThan(0);
  });

  it('sets aside a provider whose head stopped while the chain moved on', async () => {
    const [stuck, live] = [await proxy(), await proxy()];
    const stopped = Number(await node.publicClient.getBlockNumber());
    stuck.set({ head: { frozenAt: stopped } });
    await node.mine(12);
    const p = pool([stuck.url, live.url]);
    await sampled(p);
    expect(p.status()[0]?.setAside).toBe('12 blocks behind');
    expect(Number(await p.client.getBlockNumber())).toBe(stopped + 12);
    expect(stuck.calls('eth_blockNumber')).toBe(1); // the ranking's sample only
  });
});
