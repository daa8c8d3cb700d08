import { isAddress } from 'viem';
import type { ResolvedConfig } from '../../config';
import type { Db } from '../../db/connection';
import { ChainConfigError, type ChainAdapter } from './adapter';
import { EvmChainAdapter } from './evmAdapter';
import { EvmChainSender } from './evmSender';
import { LocalChainAdapter } from './localAdapter';
import { LocalChainSender } from './localSender';
import { providerPool, providerUrls } from './rpc';
import type { ChainSender } from './sender';
import { isEvmChain, SPEC_CHAIN_IDS, specUsdt, type SpecChainId } from './specChains';

// What the rest of the server imports from chain/. The factory lives here, not beside the
// interface in adapter.ts, because the adapters import that interface.
export { ChainConfigError, ChainUnavailableError } from './adapter';

export type ChainConfig = Pick<
  ResolvedConfig,
  'chainRpcUrl' | 'usdtContract' | 'chainRpcUrls' | 'chainTokenContracts'
>;

/**
 * The adapter of one chain id of the spec (BNB Smart Chain, 56, unless said): over JSON-RPC when
 * an RPC serves that chain, else the local chain. BNB Smart Chain: CHAIN_RPC_URL +
 * USDT_CONTRACT select the EVM adapter, neither the local one, and one without the other is a
 * configuration error. Other EVM chains: CHAIN_RPC_URLS, their tokens at CHAIN_TOKEN_CONTRACTS
 * or else the payment methods' own contracts.
 */
export function chainAdapterFor(
  config: Partial<ChainConfig> & Pick<ChainConfig, 'chainRpcUrl' | 'usdtContract'>,
  db: Db,
  chainId: SpecChainId = 56,
): ChainAdapter {
  if (chainId !== 56) {
    const rpcUrl = isEvmChain(chainId) ? config.chainRpcUrls?.get(chainId) : undefined;
    const usdt = specUsdt(chainId);
    if (!rpcUrl || !usdt) return new LocalChainAdapter(db, chainId);
    const tokenAddress = config.chainTokenContracts?.get(chainId) ?? usdt.contract;
    return new EvmChainAdapter({ rpcUrl, tokenAddress, chainId });
  }
  const { chainRpcUrl, usdtContract } = config;
  if (!chainRpcUrl && !usdtContract) return new LocalChainAdapter(db);
  if (!chainRpcUrl || !usdtContract) {
    throw new ChainConfigError(
      'CHAIN_RPC_URL and USDT_CONTRACT go together: set both, or neither for the local chain',
    );
  }
  const urls = providerUrls(chainRpcUrl);
  if (urls.length === 0 || !urls.every((url) => /^https?:\/\//i.test(url) && URL.canParse(url))) {
    throw new ChainConfigError(
      `CHAIN_RPC_URL must be an http(s) URL, or several separated by |, got '${chainRpcUrl}'`,
    );
  }
  if (!isAddress(usdtContract, { strict: false })) {
    throw new ChainConfigError(`USDT_CONTRACT must be a contract address, got '${usdtContract}'`);
  }
  return new EvmChainAdapter({ rpcUrl: chainRpcUrl, tokenAddress: usdtContract });
}

/** One adapter per chain id of the spec, each local or over its RPC (the watcher's chains). */
export function specChainAdapters(config: ChainConfig, db: Db): ChainAdapter[] {
  return SPEC_CHAIN_IDS.map((chainId) => chainAdapterFor(config, db, chainId));
}

/** The sending side of the chain `chainAdapterFor` reads: the same node, or the local chain. */
export function chainSenderFor(
  config: Partial<ChainConfig> & Pick<ChainConfig, 'chainRpcUrl' | 'usdtContract'>,
  db: Db,
  chainId: SpecChainId,
): ChainSender {
  const adapter = chainAdapterFor(config, db, chainId);
  return adapter instanceof EvmChainAdapter
    ? new EvmChainSender(adapter.rpcUrl, chainId)
    : new LocalChainSender(db, chainId);
}

/**
 * Every configured provider's chain id, read at start: one serving another chain stops the start
 * with the setting and the provider named. One that cannot be reached within `waitMs` is checked
 * before its first use instead, and skipped if it then serves another chain.
 */
export async function verifyProviders(
  config: Pick<ChainConfig, 'chainRpcUrl' | 'chainRpcUrls'>,
  waitMs = 5_000,
): Promise<void> {
  const settings: [number, string, string][] = [
    ...(config.chainRpcUrl
      ? [[56, config.chainRpcUrl, 'CHAIN_RPC_URL'] as [number, string, string]]
      : []),
    ...[...config.chainRpcUrls].map(
      ([chainId, setting]) => [chainId, setting, 'CHAIN_RPC_URLS'] as [number, string, string],
    ),
  ];
  await Promise.all(
    settings.map(async ([chainId, setting, key]) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      try {
        await Promise.race([providerPool(chainId, setting).verify(), late]);
      } catch (error) {
        if (error instanceof ChainConfigError) {
          throw new ChainConfigError(`${key}: ${error.message}`);
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
