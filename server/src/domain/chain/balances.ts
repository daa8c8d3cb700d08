import { erc20Abi, getAddress } from 'viem';
import type { ResolvedConfig } from '../../config';
import type { Db } from '../../db/connection';
import type { NetworkType } from '../../db/schema';
import { chainAmountToMicro } from '../money';
import { ChainUnavailableError, type ChainAdapter } from './adapter';
import { localBalance } from './localAdapter';
import { providerPool } from './rpc';
import {
  isTestChain,
  servedTokenContract,
  specNativeDecimals,
  type SpecChainId,
} from './specChains';

// Balances of a gas wallet (the Operational Wallet modal): chain I/O, so it lives in chain/ while
// domain/payments/gasProvisioner.ts keeps the rule that creates those wallets.
//
// BNB Smart Chain is the wallet slice's chain: over CHAIN_RPC_URL with its USDT at USDT_CONTRACT
// (the deployment deposits are read from). Further EVM chains are read over CHAIN_RPC_URLS, the
// token at the payment method's own contract and decimals. With an RPC, the native balance is
// eth_getBalance and the token balance the contract's balanceOf. With no RPC at all, every chain
// is the local chain, which holds native coins and tokens of every chain id (its transfers in
// less its transfers out). Once any RPC is configured, a live chain without one (and Tron, which
// is not EVM) cannot be read: a clear 422, never a made-up zero. Test networks without one are
// always the local chain.

/** The chain the deposit adapter serves (the USDT BEP20 deposit chain). */
export const ADAPTER_CHAIN_ID = 56;
const NATIVE_DECIMALS = 18;

export class ChainNotServedError extends Error {}

export interface GasWalletMethod {
  chain_id: SpecChainId;
  network_name: string;
  network_type: NetworkType;
  is_token: 0 | 1;
  token_contract_address: string | null;
  decimals: number;
}

/** An exact amount: base units and the decimals they are counted in. */
export interface Units {
  raw: bigint;
  decimals: number;
}

export interface GasBalances {
  nativeMicro: bigint;
  /** null for a native coin method. */
  tokenMicro: bigint | null;
  /** The same balances, exact. */
  exact: { native: Units; token: Units | null };
}

function balancesOf(native: Units, token: Units | null): GasBalances {
  return {
    nativeMicro: chainAmountToMicro(native.raw, native.decimals),
    tokenMicro: token === null ? null : chainAmountToMicro(token.raw, token.decimals),
    exact: { native, token },
  };
}

export interface GasBalanceReader {
  read(method: GasWalletMethod, address: string): Promise<GasBalances>;
}

async function localRead(db: Db, method: GasWalletMethod, address: string): Promise<GasBalances> {
  const native = {
    raw: await localBalance(db, method.chain_id, null, address),
    decimals: specNativeDecimals(method.chain_id),
  };
  const contract = method.token_contract_address;
  if (method.is_token !== 1) return balancesOf(native, null);
  if (!contract) return balancesOf(native, { raw: 0n, decimals: method.decimals });
  const token = await localBalance(db, method.chain_id, contract, address);
  return balancesOf(native, { raw: token, decimals: method.decimals });
}

/** Native and token balances of `address` over one chain's providers (rpc.ts). */
function rpcBalances(chainId: number, rpcUrl: string) {
  const { client } = providerPool(chainId, rpcUrl);
  return async (
    address: string,
    token: { contract: string; decimals: () => Promise<number> } | null,
  ): Promise<GasBalances> => {
    const owner = getAddress(address);
    try {
      const native = {
        raw: await client.getBalance({ address: owner }),
        decimals: NATIVE_DECIMALS,
      };
      if (!token) return balancesOf(native, null);
      const tokenRaw = await client.readContract({
        address: getAddress(token.contract),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      });
      return balancesOf(native, { raw: tokenRaw, decimals: await token.decimals() });
    } catch (error) {
      if (error instanceof ChainUnavailableError) throw error;
      throw new ChainUnavailableError('JSON-RPC balance read failed', { cause: error });
    }
  };
}

/** The reader for this server's configuration (see above). */
export function gasBalanceReader(
  config: Pick<
    ResolvedConfig,
    'chainRpcUrl' | 'usdtContract' | 'chainRpcUrls' | 'chainTokenContracts'
  >,
  chain: ChainAdapter,
  db: Db,
): GasBalanceReader {
  const depositChain =
    chain.kind === 'evm' && config.chainRpcUrl && config.usdtContract
      ? {
          read: rpcBalances(ADAPTER_CHAIN_ID, config.chainRpcUrl),
          contract: config.usdtContract,
        }
      : null;
  const otherChains = new Map(
    [...config.chainRpcUrls].map(([chainId, url]) => [chainId, rpcBalances(chainId, url)] as const),
  );
  return {
    async read(method, address) {
      if (method.network_type === 'EVM' && method.chain_id === ADAPTER_CHAIN_ID) {
        if (!depositChain) return localRead(db, method, address);
        const token =
          method.is_token === 1
            ? { contract: depositChain.contract, decimals: () => chain.tokenDecimals() }
            : null;
        return depositChain.read(address, token);
      }
      const read = method.network_type === 'EVM' ? otherChains.get(method.chain_id) : undefined;
      // With no RPC at all this is the local stand-in world, where other chains hold nothing;
      // once any RPC is configured, a live chain without one says it cannot tell. A test
      // network without one is the local chain, whatever the live chains read.
      if (!read && ((!depositChain && otherChains.size === 0) || isTestChain(method.chain_id))) {
        return localRead(db, method, address);
      }
      if (!read || (method.is_token === 1 && !method.token_contract_address)) {
        throw new ChainNotServedError(
          `Balances on ${method.network_name} cannot be read: this server has no RPC for it.`,
        );
      }
      const listed = method.token_contract_address;
      const contract =
        listed && servedTokenContract(config.chainTokenContracts, method.chain_id, listed);
      const token =
        method.is_token === 1 && contract
          ? { contract, decimals: () => Promise.resolve(method.decimals) }
          : null;
      return read(address, token);
    },
  };
}
