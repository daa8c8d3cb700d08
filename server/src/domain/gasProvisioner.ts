import { HDKey } from '@scure/bip32';
import { createPublicClient, erc20Abi, getAddress, http } from 'viem';
import type { ResolvedConfig } from '../config';
import type { Db } from '../db/connection';
import type { NetworkType } from '../db/schema';
import { tronAddressFromEvm } from './addresses';
import { ChainUnavailableError, type ChainAdapter } from './chain/adapter';
import { deriveEvmAddress } from './hdWallet';
import { chainAmountToMicro } from './money';

// The operational (gas) wallet of each payment method an app uses pays that method's network
// fees. Like real gateways, it is created after the method is enabled, by a background job
// rather than inside the request: use-payment-method stores gas_address = null, and this job
// derives the address from the wallet's extended public key (no private key on this server).
//
// Gas wallets live on branch 1 of the account xpub (account/1/0/<gas_index>) so they can never
// collide with the users' deposit addresses (account/0/<index>, domain/hdWallet.ts). Tron
// methods use the same secp256k1 key in Tron form (0x41 prefix, base58check).

const GAS_BRANCH = 1;

export function gasAddressFor(xpub: string, networkType: string, index: number): string {
  const branchXpub = HDKey.fromExtendedKey(xpub).deriveChild(GAS_BRANCH).publicExtendedKey;
  const evm = deriveEvmAddress(branchXpub, index);
  return networkType === 'EVM' ? evm : tronAddressFromEvm(evm);
}

/** Gives every app payment method still without one its gas address; returns how many. */
export async function provisionGasAddresses(db: Db, xpub: string, batch = 50): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom('app_payment_methods')
      .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
      .select(['app_payment_methods.id', 'payment_methods.network_type'])
      .where('app_payment_methods.gas_address', 'is', null)
      .orderBy('app_payment_methods.created_at', 'asc')
      .orderBy('app_payment_methods.id', 'asc')
      .limit(batch)
      .execute();
    if (pending.length === 0) return 0;
    const { max } = await trx
      .selectFrom('app_payment_methods')
      .select((eb) => eb.fn.max('gas_index').as('max'))
      .executeTakeFirstOrThrow();
    let next = max === null ? 0 : Number(max) + 1;
    for (const row of pending) {
      await trx
        .updateTable('app_payment_methods')
        .set({ gas_index: next, gas_address: gasAddressFor(xpub, row.network_type, next) })
        .where('id', '=', row.id)
        .where('gas_address', 'is', null)
        .execute();
      next += 1;
    }
    return pending.length;
  });
}

export interface JobLogger {
  error(obj: object, msg: string): void;
}

export interface Job {
  /** Stops the timer and waits for a run in progress (so the database can close after it). */
  stop(): Promise<void>;
  /** Runs once now (after a run in progress); what tests use to drive the job deterministically. */
  runNow(): Promise<number>;
}

/**
 * Runs `provisionGasAddresses` every `intervalMs`, never two runs at once. The timer is unref'd
 * so it does not keep the process alive; failures are logged and retried on the next tick.
 */
export function startGasProvisioner(options: {
  db: Db;
  xpub: string;
  intervalMs: number;
  log: JobLogger;
}): Job {
  let running: Promise<number> | null = null;
  const settled = async () => {
    while (running) await running.catch(() => 0);
  };
  const runNow = async (): Promise<number> => {
    await settled();
    const run = provisionGasAddresses(options.db, options.xpub);
    running = run;
    try {
      return await run;
    } finally {
      running = null;
    }
  };
  const tick = () => {
    if (running) return;
    runNow().catch((err: unknown) => options.log.error({ err }, 'Gas address provisioning failed'));
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await settled();
    },
    runNow,
  };
}

// ---------------------------------------------------------------------------------------------
// Balances of a gas wallet (the Operational Wallet modal).
//
// BNB Smart Chain is the wallet slice's chain: over CHAIN_RPC_URL with its USDT at USDT_CONTRACT
// (the deployment deposits are read from), or the local chain of recorded transfers when no RPC
// is configured (the USDT transfers to the address, `npm run admin -- deposit` style; nothing for
// native coins, nor for other chains without an RPC of their own). Further EVM chains are read over BALANCE_RPC_URLS, the token at
// the payment method's own contract and decimals. With an RPC, the native balance is
// eth_getBalance and the token balance the contract's balanceOf. A chain without an RPC (and
// Tron, which is not EVM) cannot be read: a clear 422, never a made-up zero.

/** The chain the deposit adapter serves (the USDT BEP20 deposit chain). */
export const ADAPTER_CHAIN_ID = 56;
const NATIVE_DECIMALS = 18;

export class ChainNotServedError extends Error {}

export interface GasWalletMethod {
  chain_id: number;
  network_name: string;
  network_type: NetworkType;
  is_token: 0 | 1;
  token_contract_address: string | null;
  decimals: number;
}

export interface GasBalances {
  nativeMicro: number;
  /** null for a native coin method. */
  tokenMicro: number | null;
}

export interface GasBalanceReader {
  read(method: GasWalletMethod, address: string): Promise<GasBalances>;
}

const servesDepositToken = (method: GasWalletMethod) =>
  method.is_token === 1 && method.network_type === 'EVM' && method.chain_id === ADAPTER_CHAIN_ID;

async function localRead(
  chain: ChainAdapter,
  method: GasWalletMethod,
  address: string,
): Promise<GasBalances> {
  if (!servesDepositToken(method)) {
    return { nativeMicro: 0, tokenMicro: method.is_token === 1 ? 0 : null };
  }
  const transfers = await chain.transfersTo(address, 0, await chain.latestBlock());
  const raw = transfers.reduce((sum, t) => sum + t.amount, 0n);
  return { nativeMicro: 0, tokenMicro: chainAmountToMicro(raw, await chain.tokenDecimals()) };
}

/** Native and token balances of `address` over one chain's JSON-RPC. */
function rpcBalances(rpcUrl: string) {
  const client = createPublicClient({
    cacheTime: 0,
    transport: http(rpcUrl, { timeout: 10_000, retryCount: 1 }),
  });
  return async (
    address: string,
    token: { contract: string; decimals: () => Promise<number> } | null,
  ): Promise<GasBalances> => {
    const owner = getAddress(address);
    try {
      const native = await client.getBalance({ address: owner });
      const nativeMicro = chainAmountToMicro(native, NATIVE_DECIMALS);
      if (!token) return { nativeMicro, tokenMicro: null };
      const tokenRaw = await client.readContract({
        address: getAddress(token.contract),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      });
      return { nativeMicro, tokenMicro: chainAmountToMicro(tokenRaw, await token.decimals()) };
    } catch (error) {
      if (error instanceof ChainUnavailableError) throw error;
      throw new ChainUnavailableError('JSON-RPC balance read failed', { cause: error });
    }
  };
}

/** The reader for this server's configuration (see above). */
export function gasBalanceReader(
  config: Pick<ResolvedConfig, 'chainRpcUrl' | 'usdtContract' | 'balanceRpcUrls'>,
  chain: ChainAdapter,
): GasBalanceReader {
  const depositChain =
    chain.kind === 'evm' && config.chainRpcUrl && config.usdtContract
      ? { read: rpcBalances(config.chainRpcUrl), contract: config.usdtContract }
      : null;
  const otherChains = new Map(
    [...config.balanceRpcUrls].map(([chainId, url]) => [chainId, rpcBalances(url)] as const),
  );
  return {
    async read(method, address) {
      if (method.network_type === 'EVM' && method.chain_id === ADAPTER_CHAIN_ID) {
        if (!depositChain) return localRead(chain, method, address);
        const token =
          method.is_token === 1
            ? { contract: depositChain.contract, decimals: () => chain.tokenDecimals() }
            : null;
        return depositChain.read(address, token);
      }
      const read = method.network_type === 'EVM' ? otherChains.get(method.chain_id) : undefined;
      // With no RPC at all this is the local stand-in world, where other chains hold nothing;
      // once any RPC is configured, a chain without one says it cannot tell.
      if (!read && !depositChain && otherChains.size === 0) {
        return localRead(chain, method, address);
      }
      if (!read || (method.is_token === 1 && !method.token_contract_address)) {
        throw new ChainNotServedError(
          `Balances on ${method.network_name} cannot be read: this server has no RPC for it.`,
        );
      }
      const contract = method.token_contract_address;
      const token =
        method.is_token === 1 && contract
          ? { contract, decimals: () => Promise.resolve(method.decimals) }
          : null;
      return read(address, token);
    },
  };
}
