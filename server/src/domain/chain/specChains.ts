import { getAddress, isAddress } from 'viem';
import type { PaymentMethodsTable } from '../../db/schema';
import { PAYMENT_METHODS } from './paymentMethods';

// The chains of the spec (its payment methods): every one runs on the local chain unless an RPC
// serves it, so the chain adapters and the background tasks take their list from here.

/** A chain id of the spec (EVM chain ids, 0 for Tron). */
export type SpecChainId = PaymentMethodsTable['chain_id'];

/** Every chain id of the spec's payment methods, in their order (0 is Tron). */
export const SPEC_CHAIN_IDS: readonly SpecChainId[] = [
  ...new Set(PAYMENT_METHODS.map((m) => m.chain_id)),
];

/** EVM chains can be served over JSON-RPC; Tron (not EVM) runs on the local chain only. */
export function isEvmChain(chainId: number): boolean {
  return PAYMENT_METHODS.some((m) => m.chain_id === chainId && m.network_type === 'EVM');
}

/** Tron (0) and its test network (-1): no EVM chain ids, their own address and hash forms. */
export function isTronChain(chainId: number): boolean {
  return PAYMENT_METHODS.some((m) => m.chain_id === chainId && m.network_type === 'TRON');
}

/** A test network's chain id (test mode's methods run there, on the local chain unless served). */
export function isTestChain(chainId: number): boolean {
  return PAYMENT_METHODS.some((m) => m.chain_id === chainId && m.livemode === 0);
}

/** The chain's USDT method (the users' wallet deposits on BNB Smart Chain read it). */
export function specUsdt(chainId: number): { contract: string; decimals: number } | undefined {
  const method = PAYMENT_METHODS.find(
    (m) => m.chain_id === chainId && m.is_token === 1 && m.token_contract_address,
  );
  if (!method?.token_contract_address) return undefined;
  return { contract: method.token_contract_address, decimals: method.decimals };
}

/**
 * Where a token a method lists is on a chain served over CHAIN_RPC_URLS: the chain's USDT at
 * CHAIN_TOKEN_CONTRACTS when given (a public testnet has no mainnet contract), else as listed.
 */
export function servedTokenContract(
  tokenContracts: ReadonlyMap<number, string>,
  chainId: number,
  listed: string,
): string {
  const served = tokenContracts.get(chainId);
  const usdt = specUsdt(chainId)?.contract;
  return served !== undefined && usdt !== undefined && addressKey(listed) === addressKey(usdt)
    ? addressKey(served)
    : listed;
}

/** The name of the chain's native coin, e.g. BNB. */
export function specNativeName(chainId: number): string {
  return (
    PAYMENT_METHODS.find((m) => m.chain_id === chainId && m.is_token === 0)?.name ?? 'native coin'
  );
}

/** Decimals of the chain's native coin (18 on EVM chains, 6 for TRX). */
export function specNativeDecimals(chainId: number): number {
  return PAYMENT_METHODS.find((m) => m.chain_id === chainId && m.is_token === 0)?.decimals ?? 18;
}

/** The stored form of an address: EIP-55 for EVM, as given for Tron (base58 is case-sensitive). */
export function addressKey(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}
