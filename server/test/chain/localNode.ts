import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  pad,
  parseAbiParameters,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../../scripts/net.mjs';

// A real EVM chain for the adapter tests: a Hardhat 2 node in a child process on a free loopback
// port, our own minimal ERC-20 (TestUsdt.sol) and a Chainlink aggregator stand-in
// (MockAggregator.sol), compiled with the npm solc package.

// From __filename: tsx (scripts that start a node, e.g. bench:payments) defines no __dirname.
const HERE = path.dirname(__filename);
const ROOT = path.resolve(HERE, '..', '..', '..');
const HARDHAT_CLI = path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'cli.js');
/**
 * A Hardhat node standing in for a chain of the spec (BNB Smart Chain, 56, unless said): it
 * answers that chain id, as the gateway checks every provider's (domain/chain/rpc.ts). Defined
 * here, not taken from viem/chains: importing that evaluates its ~800 chain modules, about 8 s
 * per test file under Jest on this machine, for one definition.
 */
function standIn(chainId: number) {
  return defineChain({
    id: chainId,
    name: 'Hardhat',
    nativeCurrency: { decimals: 18, name: 'Ether', symbol: 'ETH' },
    rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  });
}
/** Hardhat's first default account (publicly known test key, funded on the local node only). */
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export interface CompiledToken {
  abi: Abi;
  bytecode: Hex;
}

/**
 * A test contract (TestUsdt, NoBoolUsdt whose transfer returns nothing, or MockAggregator) through
 * solc in a child process (Jest must not transform the compiler).
 */
export function compileTestToken(
  name: 'TestUsdt' | 'NoBoolUsdt' | 'MockAggregator' = 'TestUsdt',
): CompiledToken {
  const result = spawnSync(process.execPath, [path.join(HERE, 'compile.cjs'), name], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`solc failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as CompiledToken;
}

export interface LocalNode {
  url: string;
  /** The chain id it answers (56 unless started for another chain). */
  chainId: number;
  publicClient: ReturnType<typeof createLocalPublicClient>;
  /** Our ERC-20 (noBool: one whose transfer returns nothing, like USDT on Ethereum). */
  deployToken(decimals: number, supply: bigint, options?: { noBool?: boolean }): Promise<Address>;
  transfer(token: Address, to: Address, amount: bigint): Promise<Hex>;
  transferTwice(token: Address, to: Address, first: bigint, second: bigint): Promise<Hex>;
  /** A native coin transfer from the funded account. */
  sendNative(to: Address, value: bigint): Promise<Hex>;
  /** A Chainlink aggregator stand-in answering in units of 10^-decimals. */
  deployAggregator(decimals: number): Promise<Address>;
  /** Its latest round: `answer`, updated at `updatedAt` (Unix seconds). */
  setRound(aggregator: Address, answer: bigint, updatedAt: number): Promise<void>;
  /** A signed token transfer not sent yet: sent again after a reorg, it keeps its hash. */
  signTransfer(token: Address, to: Address, amount: bigint): Promise<Hex>;
  sendRaw(signed: Hex): Promise<Hex>;
  /** evm_snapshot: the chain as it is now, to return to with `revert` (a reorg). */
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  mine(blocks: number): Promise<void>;
  /**
   * Writes `owner`'s balance in a TestUsdt contract's storage (hardhat_setStorageAt), as a
   * token's own freeze (USDT's blacklist) would take it away from under a pending transfer.
   */
  setTokenBalance(token: Address, owner: Address, amount: bigint): Promise<void>;
  /** Off: transactions wait in the mempool until `mine`. */
  setAutomine(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

function createLocalPublicClient(url: string, chain: ReturnType<typeof standIn>) {
  return createPublicClient({ chain, transport: http(url), cacheTime: 0 });
}

async function waitForRpc(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`hardhat node did not answer at ${url} within 60 s`);
}

/** Starts `hardhat node` (automining, answering `chainId`) and returns helpers to use it. */
export async function startLocalNode(chainId = 56): Promise<LocalNode> {
  const hardhat = standIn(chainId);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // An empty project of its own, so the node compiles nothing and writes no cache here.
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-hardhat-'));
  const config = path.join(dir, 'hardhat.config.js');
  writeFileSync(
    config,
    `module.exports = { solidity: '0.8.20', networks: { hardhat: { chainId: ${chainId} } } };\n`,
  );
  const child = spawn(
    process.execPath,
    [HARDHAT_CLI, 'node', '--hostname', '127.0.0.1', '--port', String(port), '--config', config],
    {
      cwd: ROOT, // Hardhat refuses to run unless installed in the working directory's project
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      stdio: 'ignore',
    },
  );
  try {
    await waitForRpc(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const token = compileTestToken();
  let noBool: CompiledToken | undefined;
  let aggregator: CompiledToken | undefined;
  const account = privateKeyToAccount(DEPLOYER_KEY);
  const publicClient = createLocalPublicClient(url, hardhat);
  const wallet = createWalletClient({ account, chain: hardhat, transport: http(url) });
  const testClient = createTestClient({ mode: 'hardhat', chain: hardhat, transport: http(url) });
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };

  return {
    chainId,
    url,
    publicClient,
    async deployToken(decimals, supply, options = {}) {
      const compiled = options.noBool ? (noBool ??= compileTestToken('NoBoolUsdt')) : token;
      const hash = await wallet.deployContract({
        abi: compiled.abi,
        bytecode: compiled.bytecode,
        args: [decimals, supply],
      });
      const receipt = await mined(hash);
      if (!receipt.contractAddress) throw new Error('no contract address');
      return receipt.contractAddress;
    },
    async transfer(address, to, amount) {
      const hash = await wallet.writeContract({
        address,
        abi: token.abi,
        functionName: 'transfer',
        args: [to, amount],
      });
      await mined(hash);
      return hash;
    },
    async transferTwice(address, to, first, second) {
      const hash = await wallet.writeContract({
        address,
        abi: token.abi,
        functionName: 'transferTwice',
        args: [to, first, second],
      });
      await mined(hash);
      return hash;
    },
    async sendNative(to, value) {
      const hash = await wallet.sendTransaction({ to, value });
      await mined(hash);
      return hash;
    },
    async deployAggregator(decimals) {
      aggregator ??= compileTestToken('MockAggregator');
      const hash = await wallet.deployContract({
        abi: aggregator.abi,
        bytecode: aggregator.bytecode,
        args: [decimals],
      });
      const receipt = await mined(hash);
      if (!receipt.contractAddress) throw new Error('no contract address');
      return receipt.contractAddress;
    },
    async setRound(address, answer, updatedAt) {
      if (!aggregator) throw new Error('deploy an aggregator first');
      await mined(
        await wallet.writeContract({
          address,
          abi: aggregator.abi,
          functionName: 'setRound',
          args: [answer, BigInt(updatedAt)],
        }),
      );
    },
    async signTransfer(address, to, amount) {
      const request = await wallet.prepareTransactionRequest({
        to: address,
        data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [to, amount] }),
      });
      return wallet.signTransaction(request);
    },
    async sendRaw(signed) {
      const hash = await wallet.sendRawTransaction({ serializedTransaction: signed });
      await mined(hash);
      return hash;
    },
    async snapshot() {
      return testClient.snapshot();
    },
    async revert(id) {
      await testClient.revert({ id });
    },
    async mine(blocks) {
      await testClient.mine({ blocks });
    },
    async setTokenBalance(address, owner, amount) {
      // TestUsdt's storage: totalSupply at slot 0, balanceOf at slot 1.
      const index = keccak256(
        encodeAbiParameters(parseAbiParameters('address, uint256'), [owner, 1n]),
      );
      await testClient.setStorageAt({ address, index, value: pad(toHex(amount)) });
    },
    async setAutomine(on) {
      await testClient.setAutomine(on);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
