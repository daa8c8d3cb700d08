import { getAddress, keccak256, parseAbi, type Hex } from 'viem';
import { ChainUnavailableError } from './adapter';
import { providerPool, type ProviderPool } from './rpc';
import { TransactionRejectedError, type ChainSender, type SentReceipt } from './sender';
import type { SpecChainId } from './specChains';

const ERC20 = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

/** An EVM chain's sending side over JSON-RPC. */
export class EvmChainSender implements ChainSender {
  readonly kind = 'evm';
  private readonly pool: ProviderPool;
  private readonly client;
  private chain: number | undefined;

  constructor(
    rpcUrl: string,
    readonly chainId: SpecChainId,
  ) {
    // The chain's providers (rpc.ts): a signed transaction sent again to another one after a
    // failure is the same bytes, so the same transaction.
    this.pool = providerPool(chainId, rpcUrl);
    this.client = this.pool.client;
  }

  async signingChainId(): Promise<number> {
    this.chain ??= await rpc('eth_chainId', () => this.client.getChainId());
    return this.chain;
  }

  async nonce(address: string, include: 'pending' | 'latest'): Promise<number> {
    return rpc('eth_getTransactionCount', () =>
      this.client.getTransactionCount({ address: getAddress(address), blockTag: include }),
    );
  }

  async gasPrice(): Promise<bigint> {
    return rpc('eth_gasPrice', () => this.client.getGasPrice());
  }

  async balance(address: string, token: string | null): Promise<bigint> {
    const owner = getAddress(address);
    if (token === null)
      return rpc('eth_getBalance', () => this.client.getBalance({ address: owner }));
    return rpc('balanceOf()', () =>
      this.client.readContract({
        address: getAddress(token),
        abi: ERC20,
        functionName: 'balanceOf',
        args: [owner],
      }),
    );
  }

  /**
   * Sent to every provider of the chain at once (rpc.ts `broadcast`): sent when one accepted it
   * or had it already; refused only when every one of them answered refusing it. When one did
   * not answer it may hold the transaction: unavailable, so its nonce is never freed.
   */
  async sendRaw(raw: Hex): Promise<Hex> {
    const outcome = await this.pool.broadcast(raw);
    if (outcome.sent) return keccak256(raw);
    if (!outcome.refused) {
      throw new ChainUnavailableError(`JSON-RPC eth_sendRawTransaction failed: ${outcome.why}`);
    }
    throw new TransactionRejectedError(`The node refused the transaction: ${outcome.why}`);
  }

  async receipt(hash: Hex): Promise<SentReceipt | null> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash });
      return { success: receipt.status === 'success', blockNumber: Number(receipt.blockNumber) };
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return null;
      throw new ChainUnavailableError('JSON-RPC eth_getTransactionReceipt failed', {
        cause: error,
      });
    }
  }

  async known(hash: Hex): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash });
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionNotFoundError') return false;
      throw new ChainUnavailableError('JSON-RPC eth_getTransactionByHash failed', { cause: error });
    }
  }
}

async function rpc<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new ChainUnavailableError(`JSON-RPC ${what} failed`, { cause: error });
  }
}
