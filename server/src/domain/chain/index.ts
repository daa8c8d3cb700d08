import { isAddress } from 'viem';
import type { ResolvedConfig } from '../../config';
import type { Db } from '../../db/connection';
import { ChainConfigError, type ChainAdapter } from './adapter';
import { EvmChainAdapter } from './evmAdapter';
import { LocalChainAdapter } from './localAdapter';

// What the rest of the server imports from chain/. The factory lives here, not beside the
// interface in adapter.ts, because the adapters import that interface.
export { ChainConfigError, ChainUnavailableError } from './adapter';

/**
 * CHAIN_RPC_URL + USDT_CONTRACT select the EVM adapter; neither selects the local adapter, whose
 * transfers `npm run admin -- deposit` records. One without the other is a configuration error.
 */
export function chainAdapterFor(
  config: Pick<ResolvedConfig, 'chainRpcUrl' | 'usdtContract'>,
  db: Db,
): ChainAdapter {
  const { chainRpcUrl, usdtContract } = config;
  if (!chainRpcUrl && !usdtContract) return new LocalChainAdapter(db);
  if (!chainRpcUrl || !usdtContract) {
    throw new ChainConfigError(
      'CHAIN_RPC_URL and USDT_CONTRACT go together: set both, or neither for the local chain',
    );
  }
  if (!/^https?:\/\//i.test(chainRpcUrl) || !URL.canParse(chainRpcUrl)) {
    throw new ChainConfigError(`CHAIN_RPC_URL must be an http(s) URL, got '${chainRpcUrl}'`);
  }
  if (!isAddress(usdtContract, { strict: false })) {
    throw new ChainConfigError(`USDT_CONTRACT must be a contract address, got '${usdtContract}'`);
  }
  return new EvmChainAdapter({ rpcUrl: chainRpcUrl, tokenAddress: usdtContract });
}
