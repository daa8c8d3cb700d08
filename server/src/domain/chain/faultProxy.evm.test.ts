import {
  BaseError,
  createPublicClient,
  http,
  parseAbiItem,
  parseUnits,
  HttpRequestError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  LimitExceededRpcError,
  RpcRequestError,
  TimeoutError,
  type Address,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { startFaultProxy, type FaultProxy } from '../../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';

// The fault proxy in front of a Hardhat node, seen through a viem public client built as
// evmAdapter.ts builds its own: each fault, and what the client makes of it.

jest.setTimeout(120_000);

const TRANSFER = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const recipient: Address = privateKeyToAddress(`0x${'07'.padStart(64, '0')}`);

let node: LocalNode;
let token: Address;
/** The blocks of the four transfers to `recipient`, one a block. */
let transferBlocks: bigint[];
let proxy: FaultProxy;

beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, parseUnits('1000', 18));
  transferBlocks = [];
  for (let i = 0; i < 4; i += 1) {
    await node.transfer(token, recipient, parseUnits('1', 18));
    transferBlocks.push(await node.publicClient.getBlockNumber());
  }
});
afterAll(async () => {
  await node?.stop();
});
beforeEach(async () => {
  proxy = await startFaultProxy(node.url);
});
afterEach(async () => {
  await proxy.close();
});

function client(options: { timeout?: number; retryCount?: number; batch?: boolean } = {}) {
  return createPublicClient({
    cacheTime: 0,
    transport: http(proxy.url, {
      timeout: options.timeout ?? 5_000,
      retryCount: options.retryCount ?? 0,
      retryDelay: 10,
      batch: options.batch ? { batchSize: 20 } : false,
    }),
  });
}

/** The error a call fails with (and a failure of the test if it succeeds). */
async function failure(call: Promise<unknown>): Promise<BaseError> {
  const outcome = await call.then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof BaseError)) throw outcome;
  return outcome;
}

/** The JSON-RPC error as viem received it, with the HTTP status of a non-2xx answer. */
function received(error: BaseError): RpcRequestError {
  const found = error.walk((e) => e instanceof RpcRequestError);
  if (!(found instanceof RpcRequestError)) throw new Error(`no RpcRequestError in ${error.name}`);
  return found;
}

const transfersTo = (fromBlock: bigint, toBlock: bigint, viaClient = client()) =>
  viaClient.getLogs({
    address: token,
    event: TRANSFER,
    args: { to: recipient },
    fromBlock,
    toBlock,
  });

describe('the fault proxy', () => {
  it('forwards single and batched calls, counting them by method and outcome', async () => {
    const head = await node.publicClient.getBlockNumber();
    expect(await client().getBlockNumber()).toBe(head);
    const batched = client({ batch: true });
    const [one, two] = await Promise.all([
      batched.getBlock({ blockNumber: 1n }),
      batched.getBlock({ blockNumber: 2n }),
    ]);
    expect([one.number, two.number]).toEqual([1n, 2n]);
    const first = transferBlocks[0] ?? 0n;
    expect(await transfersTo(first, head)).toHaveLength(4);
    expect(proxy.calls()).toBe(4);
    expect(proxy.calls('eth_getBlockByNumber')).toBe(2);
    expect(proxy.outcomes()).toEqual({ forwarded: 4 });
  });

  it('drops answers: the client times out', async () => {
    proxy.set({ drop: { methods: ['eth_blockNumber'] } });
    const error = await failure(client({ timeout: 300 }).getBlockNumber());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(await client().getChainId()).toBe(node.chainId); // other methods pass
    expect(proxy.outcomes('eth_blockNumber')).toEqual({ dropped: 1 });
  });

  it('delays answers by N ms, past the client’s timeout or within it', async () => {
    proxy.set({ delay: { ms: 400 } });
    const started = Date.now();
    expect(await client().getBlockNumber()).toBe(await node.publicClient.getBlockNumber());
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(await failure(client({ timeout: 100 }).getBlockNumber())).toBeInstanceOf(TimeoutError);
    expect(proxy.outcomes()).toEqual({ delayed: 2, forwarded: 1 });
  });

  it.each([
    ['infura', LimitExceededRpcError, -32005, 'project ID request rate exceeded'],
    ['alchemy', RpcRequestError, 429, 'Your app has exceeded its compute units per second'],
    ['quicknode', RpcRequestError, -32007, '50/second request limit reached'],
  ] as const)('answers HTTP 429 in the %s dialect', async (dialect, errorClass, code, message) => {
    proxy.set({ dialect, status429: { retryAfter: 2 } });
    const error = await failure(client().getBlockNumber());
    expect(error).toBeInstanceOf(errorClass);
    const rpc = received(error);
    expect(rpc).toMatchObject({ code, status: 429 });
    expect(rpc.details).toContain(message);
    expect(rpc.headers?.get('retry-after')).toBe('2');
    expect(proxy.outcomes()).toEqual({ status429: 1 });
  });

  it('answers 429 to every 2nd call only; viem waits Retry-After and tries again', async () => {
    proxy.set({ status429: { every: 2, retryAfter: 0 } });
    const retrying = client({ retryCount: 1 });
    await retrying.getBlockNumber(); // the 1st call
    await retrying.getBlockNumber(); // the 2nd, refused, and its retry (the 3rd)
    expect(proxy.calls('eth_blockNumber')).toBe(3);
    expect(proxy.outcomes()).toEqual({ forwarded: 2, status429: 1 });
  });

  it('refuses the whole batch when one of its calls is picked', async () => {
    proxy.set({ status429: { methods: ['eth_blockNumber'] } });
    const batched = client({ batch: true });
    const results = await Promise.allSettled([
      batched.getBlock({ blockNumber: 1n }),
      batched.getBlockNumber(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(proxy.outcomes()).toEqual({ status429: 2 });
  });

  it('picks the same calls from the same seed, and only the methods named', async () => {
    const pattern = async () => {
      proxy.set({ status429: { methods: ['eth_getLogs'], fraction: 0.5, seed: 42 } });
      const refused: boolean[] = [];
      for (let i = 0; i < 12; i += 1) {
        const from = transferBlocks[0] ?? 0n;
        refused.push(
          await transfersTo(from, from).then(
            () => false,
            () => true,
          ),
        );
        await client().getBlockNumber();
      }
      return refused;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first).toContain(true);
    expect(first).toContain(false);
    expect(proxy.outcomes('eth_blockNumber')).toEqual({ forwarded: 24 });
  });

  // Each provider's refusal of a span wider than it serves, as viem surfaces it.
  it.each([
    ['infura', InvalidParamsRpcError, -32602, undefined, 'range 4 exceeds limit of 3'],
    [
      'alchemy',
      InvalidRequestRpcError,
      -32600,
      400,
      'Under the Free tier plan, you can make eth_getLogs requests with up to a 3 block range.',
    ],
    ['quicknode', RpcRequestError, -32614, 413, 'eth_getLogs is limited to a 3 range'],
    ['ankr', InvalidRequestRpcError, -32600, undefined, 'block range is too wide'],
    ['bsc', InvalidInputRpcError, -32000, undefined, 'exceed maximum block range: 3'],
    ['reth', InvalidParamsRpcError, -32602, undefined, 'query exceeds max block range 3'],
  ] as const)(
    'refuses eth_getLogs over more than N blocks in the %s dialect',
    async (dialect, errorClass, code, status, message) => {
      proxy.set({ dialect, maxLogRange: 3 });
      const fourth = transferBlocks[3] ?? 0n;
      expect(await transfersTo(fourth - 2n, fourth)).toHaveLength(3);
      const error = await failure(transfersTo(fourth - 3n, fourth));
      expect(error).toBeInstanceOf(errorClass);
      const rpc = received(error);
      expect(rpc).toMatchObject({ code, status });
      expect(rpc.details).toContain(message);
      expect(proxy.outcomes()).toEqual({ forwarded: 1, refused: 1 });
    },
  );

  // Each provider's refusal of a result too large, with the range it says would fit.
  it.each([
    [
      'infura',
      LimitExceededRpcError,
      -32005,
      'query returned more than 2 results. Try with this block range [0x%A, 0x%B].',
    ],
    [
      'alchemy',
      InvalidParamsRpcError,
      -32602,
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x%a, 0x%b]',
    ],
    [
      'reth',
      InvalidParamsRpcError,
      -32602,
      'query exceeds max results 2, retry with the range %d-%e',
    ],
  ] as const)(
    'refuses eth_getLogs matching more than N logs in the %s dialect',
    async (dialect, errorClass, code, template) => {
      proxy.set({ dialect, maxLogs: 2 });
      const [first = 0n, second = 0n, , fourth = 0n] = transferBlocks;
      expect(await transfersTo(first, second)).toHaveLength(2);
      const error = await failure(transfersTo(first, fourth));
      expect(error).toBeInstanceOf(errorClass);
      const rpc = received(error);
      expect(rpc.code).toBe(code);
      // The first two logs fit: the range ends on the block before the third transfer's.
      const end = (transferBlocks[2] ?? 0n) - 1n;
      expect(rpc.details).toBe(
        template
          .replace('%A', first.toString(16).toUpperCase())
          .replace('%B', end.toString(16).toUpperCase())
          .replace('%a', first.toString(16))
          .replace('%b', end.toString(16))
          .replace('%d', `${first}`)
          .replace('%e', `${end}`),
      );
      // The upstream was asked each time; both answers counted.
      expect(proxy.outcomes()).toEqual({ forwarded: 1, refused: 1 });
    },
  );

  // viem retries by JSON-RPC code (-32005) and by HTTP status (413), not an HTTP 400 -32600.
  it.each([
    ['Infura’s result refusal', { dialect: 'infura', maxLogs: 2 }, 2],
    ['QuickNode’s range refusal', { dialect: 'quicknode', maxLogRange: 3 }, 2],
    ['Alchemy’s range refusal', { dialect: 'alchemy', maxLogRange: 3 }, 1],
  ] as const)('costs a call per retry of %s', async (_name, faults, calls) => {
    proxy.set(faults);
    const [first = 0n, , , fourth = 0n] = transferBlocks;
    await failure(transfersTo(first, fourth, client({ retryCount: 1 })));
    expect(proxy.calls('eth_getLogs')).toBe(calls);
  });

  it('refuses a fault its dialect has no words for', () => {
    expect(() => proxy.set({ dialect: 'bsc', maxLogs: 10 })).toThrow(
      'no results refusal is known in the bsc dialect',
    );
    expect(() => proxy.set({ dialect: 'ankr', status429: {} })).toThrow(/rateLimit/);
  });

  it('serves a stale head: eth_blockNumber and the latest block frozen', async () => {
    const head = await node.publicClient.getBlockNumber();
    proxy.set({ head: { frozenAt: Number(head) } });
    await node.mine(3);
    expect(await client().getBlockNumber()).toBe(head);
    expect((await client().getBlock()).number).toBe(head);
    expect(await node.publicClient.getBlockNumber()).toBe(head + 3n);
    expect(proxy.outcomes()).toEqual({ rewritten: 2 });
  });

  it('serves a head that steps back N blocks, then lags by N', async () => {
    const seen = await client().getBlockNumber();
    proxy.set({ head: { behind: 5 } });
    expect(await client().getBlockNumber()).toBe(seen - 5n);
    await node.mine(2);
    expect(await client().getBlockNumber()).toBe(seen - 3n);
    expect((await client().getBlock({ blockTag: 'latest' })).number).toBe(seen - 3n);
  });

  it('reports a wrong chain id', async () => {
    proxy.set({ chainId: 1 });
    expect(await client().getChainId()).toBe(1);
    expect(await client().request({ method: 'net_version' })).toBe('1');
    proxy.set({});
    expect(await client().getChainId()).toBe(node.chainId);
  });

  it('vanishes (connection refused, open calls cut), then comes back on the same port', async () => {
    proxy.set({ drop: {} });
    const waiting = failure(client({ timeout: 60_000 }).getBlockNumber());
    while (proxy.calls() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = proxy.url;
    await proxy.vanish();
    const cut = await waiting;
    expect(cut).toBeInstanceOf(HttpRequestError);
    expect(cut).not.toBeInstanceOf(TimeoutError);
    const refused = await failure(client().getBlockNumber());
    expect(refused).toBeInstanceOf(HttpRequestError);
    expect(JSON.stringify(causes(refused))).toContain('ECONNREFUSED');
    expect(proxy.calls()).toBe(1); // nothing reached it while away
    await proxy.reappear();
    proxy.set({});
    expect(proxy.url).toBe(url);
    expect(await client().getBlockNumber()).toBe(await node.publicClient.getBlockNumber());
  });
});

/** The chain of causes under an error, as plain records (for what sits below viem's errors). */
function causes(error: unknown): { name?: unknown; code?: unknown; message?: unknown }[] {
  const out: { name?: unknown; code?: unknown; message?: unknown }[] = [];
  for (
    let e: unknown = error;
    typeof e === 'object' && e !== null;
    e = (e as { cause?: unknown }).cause
  ) {
    const { name, code, message } = e as { name?: unknown; code?: unknown; message?: unknown };
    out.push({ name, code, message });
  }
  return out;
}
