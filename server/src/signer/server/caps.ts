import { parseUnits } from 'viem';
import { liveMethodId, PAYMENT_METHODS } from '../../domain/chain/paymentMethods';

// The daily caps on money out, per app and method: what the signer signs in withdrawals (and, to
// come, refunds) over any 24 hours, counted from its own record of signatures. Beyond it a request
// waits for the operator's approval (the signer's command, never the web). The default follows
// the app's plan, which reaches the signer only by a MACed registration; the operator can set an
// app's cap on the signer's host. docs/decisions.md says why these figures.

/** The smallest plan's cap per method, in the method's own units (about 10,000 USD a day). */
const SMALLEST_PLAN_CAPS: Readonly<Record<string, string>> = {
  pm_usdt_bsc: '10000',
  pm_usdt_eth: '10000',
  pm_usdt_polygon: '10000',
  pm_usdt_tron: '10000',
  pm_bnb: '15',
  pm_eth: '3',
  pm_pol: '40000',
  pm_trx: '40000',
};

/** How many times the smallest plan's cap a plan allows; anything else (no plan) is the smallest. */
const PLAN_FACTORS: Readonly<Record<string, bigint>> = {
  pkg_starter: 1n,
  pkg_business: 5n,
  pkg_enterprise: 25n,
};

/** Orders plans by the caps they allow: a move up is a raise (held), a move down a cut. */
export function planRank(packageId: string): bigint {
  return PLAN_FACTORS[packageId] ?? 1n;
}

/** The method's decimals as the code lists them (not as a database row says). */
export function methodDecimals(paymentMethodId: string): number | null {
  return PAYMENT_METHODS.find((m) => m.id === paymentMethodId)?.decimals ?? null;
}

/**
 * A plan's daily cap of a method in base units; 0 for a method the code does not list. A test
 * method has its live twin's cap, so test mode meets the caps a live app will.
 */
export function planCap(packageId: string, paymentMethodId: string): bigint {
  const units = SMALLEST_PLAN_CAPS[liveMethodId(paymentMethodId)];
  const decimals = methodDecimals(paymentMethodId);
  if (units === undefined || decimals === null) return 0n;
  return parseUnits(units, decimals) * planRank(packageId);
}
