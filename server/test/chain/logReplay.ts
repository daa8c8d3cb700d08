import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A JSON-RPC stand-in for a busy EVM chain, for the watcher's scale test and `npm run
// bench:watcher`: an HTTP server on loopback whose blocks each hold `transfersPerBlock` Transfer
// logs of one token and `nativePerBlock` native transfers, all to random recipients (made up from
// the block and position, the same on every run), except those sent to the `deposits` addresses:
// every tenth block's first token transfer and the next block's first native transfer go to one
// of them in turn. It answers what the watcher asks (eth_chainId, eth_blockNumber,
// eth_getBlockByNumber/ByHash, eth_getLogs, eth_getTransactionReceipt/ByHash; single and batched)
// and refuses, as Infura does, a log query with more than `resultCap` results. It counts the
// calls by method; `replay_setHead`, `replay_setDeposits` and `replay_calls` steer it over
// JSON-RPC from another process.

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const ZERO_WORD = `0x${'0'.repeat(64)}`;
/** Block 0's time (seconds); blocks come every 3 s, as on BNB Smart Chain. */
const GENESIS = 1_750_000_000;

export interface LogReplayOptions {
  chainId: number;
  /** The token contract whose Transfer logs the blocks hold. */
  token: string;
  transfersPerBlock: number;
  nativePerBlock: number;
  /** Most logs one eth_getLogs answers (Infura's 10,000 unless said). */
  resultCap?: number;
  head: number;
}

export interface LogReplay {
  url: string;
  setHead(head: number): void;
  setDeposits(addresses: readonly string[]): void;
  /** Calls answered so far, by method (each call of a batch counted). */
  calls(): Record<string, number>;
  close(): Promise<void>;
}

interface Tx {
  hash: string;
  block: number;
  index: number;
  from: string;
  to: string;
  value: bigint;
  /** The Transfer log's recipient, for a token transfer. */
  recipient: string | null;
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const word = (address: string) => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
const blockHash = (block: number) => `0x${'b'.repeat(32)}${block.toString(16).padStart(32, '0')}`;
const txHash = (block: number, index: number) =>
  `0x${block.toString(16).padStart(32, '0')}${index.toString(16).padStart(32, '0')}`;

/** 20 bytes of a fixed pseudo-random stream for (block, index, salt). */
function randomAddress(block: number, index: number, salt: number): string {
  let state = (Math.imul(block, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b) ^ salt) >>> 0;
  let out = '0x';
  for (let i = 0; i < 5; i += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += ((t ^ (t >>> 14)) >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

export async function startLogReplay(options: LogReplayOptions): Promise<LogReplay> {
  const token = options.token.toLowerCase();
  const cap = options.resultCap ?? 10_000;
  let head = options.head;
  let deposits: readonly string[] = [];
  const counts: Record<string, number> = {};

  const txsOf = (block: number): Tx[] => {
    const txs: Tx[] = [];
    for (let i = 0; i < options.transfersPerBlock; i += 1) {
      const deposit = i === 0 && block % 10 === 0 ? deposits[(block / 10) % deposits.length] : null;
      txs.push({
        hash: txHash(block, txs.length),
        block,
        index: txs.length,
        from: randomAddress(block, i, 1),
        to: token,
        value: 0n,
        recipient: deposit?.toLowerCase() ?? randomAddress(block, i, 2),
      });
    }
    for (let i = 0; i < options.nativePerBlock; i += 1) {
      const deposit =
        i === 0 && block % 10 === 1 ? deposits[((block - 1) / 10) % deposits.length] : null;
      txs.push({
        hash: txHash(block, txs.length),
        block,
        index: txs.length,
        from: randomAddress(block, i, 3),
        to: deposit?.toLowerCase() ?? randomAddress(block, i, 4),
        value: 10n ** 15n + BigInt(i),
        recipient: null,
      });
    }
    return txs;
  };
  const txJson = (tx: Tx) => ({
    hash: tx.hash,
    blockHash: blockHash(tx.block),
    blockNumber: hex(tx.block),
    transactionIndex: hex(tx.index),
    from: tx.from,
    to: tx.to,
    value: hex(tx.value),
    input: tx.recipient ? '0xa9059cbb' : '0x',
    gas: '0x5208',
    gasPrice: '0x3b9aca00',
    nonce: '0x1',
    type: '0x0',
    chainId: hex(options.chainId),
  });
  const block = (number: number, full: boolean) => {
    if (number > head) return null;
    const txs = txsOf(number);
    return {
      number: hex(number),
      hash: blockHash(number),
      parentHash: number === 0 ? ZERO_WORD : blockHash(number - 1),
      timestamp: hex(GENESIS + number * 3),
      gasLimit: '0x8000000',
      gasUsed: '0x0',
      transactions: full ? txs.map(txJson) : txs.map((tx) => tx.hash),
    };
  };
  const logOf = (tx: Tx) => ({
    address: token,
    topics: [TRANSFER_TOPIC, word(tx.from), word(tx.recipient ?? '')],
    data: `0x${(10n ** 18n + BigInt(tx.index)).toString(16).padStart(64, '0')}`,
    blockNumber: hex(tx.block),
    blockHash: blockHash(tx.block),
    transactionHash: tx.hash,
    transactionIndex: hex(tx.index),
    logIndex: hex(tx.index),
    removed: false,
  });
  const txAt = (hash: unknown): Tx | null => {
    if (typeof hash !== 'string' || hash.length !== 66) return null;
    const number = Number.parseInt(hash.slice(2, 34), 16);
    const index = Number.parseInt(hash.slice(34), 16);
    if (number > head) return null;
    return txsOf(number)[index] ?? null;
  };

  const answer = (method: string, params: unknown[]): unknown => {
    counts[method] = (counts[method] ?? 0) + 1;
    switch (method) {
      case 'eth_chainId':
        return hex(options.chainId);
      case 'eth_blockNumber':
        return hex(head);
      case 'eth_getBlockByNumber': {
        const tag = params[0];
        const number = tag === 'latest' ? head : Number.parseInt(String(tag), 16);
        return block(number, params[1] === true);
      }
      case 'eth_getBlockByHash': {
        const hash = String(params[0]);
        return hash.startsWith(`0x${'b'.repeat(32)}`)
          ? block(Number.parseInt(hash.slice(34), 16), params[1] === true)
          : null;
      }
      case 'eth_getLogs': {
        const filter = (params[0] ?? {}) as {
          address?: string | string[];
          topics?: (string | string[] | null)[];
          fromBlock?: string;
          toBlock?: string;
        };
        const from = Number.parseInt(filter.fromBlock ?? '0x0', 16);
        const to = Math.min(head, Number.parseInt(filter.toBlock ?? hex(head), 16));
        const addresses = [filter.address ?? []].flat().map((a) => a.toLowerCase());
        if (addresses.length > 0 && !addresses.includes(token)) return [];
        const [event, , recipients] = filter.topics ?? [];
        if (event && ![event].flat().includes(TRANSFER_TOPIC)) return [];
        const wanted = recipients ? new Set([recipients].flat().map((r) => r.toLowerCase())) : null;
        const logs = [];
        for (let n = from; n <= to; n += 1) {
          for (const tx of txsOf(n)) {
            if (tx.recipient === null) continue;
            if (wanted && !wanted.has(word(tx.recipient))) continue;
            logs.push(logOf(tx));
            if (logs.length > cap) {
              throw new RpcError(-32005, `query returned more than ${cap} results`);
            }
          }
        }
        return logs;
      }
      case 'eth_getTransactionByHash': {
        const tx = txAt(params[0]);
        return tx ? txJson(tx) : null;
      }
      case 'eth_getTransactionReceipt': {
        const tx = txAt(params[0]);
        if (!tx) return null;
        return {
          transactionHash: tx.hash,
          transactionIndex: hex(tx.index),
          blockHash: blockHash(tx.block),
          blockNumber: hex(tx.block),
          from: tx.from,
          to: tx.to,
          status: '0x1',
          gasUsed: '0x5208',
          cumulativeGasUsed: '0x5208',
          effectiveGasPrice: '0x3b9aca00',
          contractAddress: null,
          logs: tx.recipient ? [logOf(tx)] : [],
          logsBloom: `0x${'0'.repeat(512)}`,
          type: '0x0',
        };
      }
      case 'replay_setHead':
        head = Number(params[0]);
        return hex(head);
      case 'replay_setDeposits':
        deposits = (params as string[]).slice();
        return true;
      case 'replay_calls':
        return counts;
      default:
        throw new RpcError(-32601, `the method ${method} does not exist`);
    }
  };
  const reply = (request: { id?: unknown; method?: unknown; params?: unknown }) => {
    try {
      const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
      const result = answer(String(request.method), params);
      return { jsonrpc: '2.0', id: request.id ?? null, result };
    } catch (error) {
      const code = error instanceof RpcError ? error.code : -32603;
      return {
        jsonrpc: '2.0',
        id: request.id ?? null,
        error: { code, message: error instanceof Error ? error.message : String(error) },
      };
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const out = Array.isArray(body)
        ? (body as object[]).map((r) => reply(r))
        : reply(body as object);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  // Idle connections stay open longer than a busy client takes between calls: a connection the
  // server closes as the client reuses it fails that call ("other side closed").
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setHead: (n) => {
      head = n;
    },
    setDeposits: (addresses) => {
      deposits = addresses.slice();
    },
    calls: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
