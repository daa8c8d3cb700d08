// What the web process may ask the signer, and what it answers: three requests that move money,
// each naming only a row of the database (and, for a sweep, where the web wants the money to go;
// the signer checks it against the payout address its own store has in effect), and two that
// register an app's settings in that store, each with the MAC the web process made when the
// merchant changed them (requestMac.ts). One JSON object per line each way.

export type SignerRequest =
  /** Top up the gas of a credited (3) token deposit's address from the operational wallet. */
  | { op: 'topUpGas'; depositId: string }
  /** Sweep a deposit's address (4, or 3 for the native coin) to the app's payout address. */
  | { op: 'sweep'; depositId: string; to: string }
  /** Send a queued (2) withdrawal from the app's operational wallet, once. */
  | { op: 'sendWithdrawal'; withdrawalId: string }
  /** The app's payout address for a method, as changed at `at`. */
  | {
      op: 'registerPayout';
      appId: string;
      paymentMethodId: string;
      address: string;
      at: string;
      mac: string;
    }
  /** The app's IP whitelist (the hash of its normalised entries), as changed at `at`. */
  | { op: 'registerWhitelist'; appId: string; whitelistHash: string; at: string; mac: string }
  /**
   * The app's plan (its package id, or `none`) and its end (absent: none), as changed at `at`:
   * its default daily caps.
   */
  | {
      op: 'registerPlan';
      appId: string;
      packageId: string;
      until?: string;
      at: string;
      mac: string;
    };

/** A wait the merchant ends: the operational wallet lacks the coin to top up a deposit's gas. */
export const OPERATIONAL_WALLET_NEEDS_GAS = 'operational_wallet_needs_gas';
/** A wait the operator ends: money out beyond the app's daily cap, until approved or rejected. */
export const HELD_FOR_APPROVAL = 'held_for_approval';
export type WaitingCode = typeof OPERATIONAL_WALLET_NEEDS_GAS | typeof HELD_FOR_APPROVAL;

/** A refusal of a request the signer could not trust (a withdrawal's failure_reason too). */
export const SIGNER_REFUSED = 'signer_refused';

export type SignerAnswer =
  /** A transaction was signed and broadcast now. */
  | { state: 'sent'; txHash: string }
  /** The request's transaction is in flight (broadcast again or replaced as needed). */
  | { state: 'pending'; txHash: string }
  /** Nothing left to sign: the gas is there, the sweep or withdrawal is mined (its hash). */
  | { state: 'done'; txHash: string | null }
  /**
   * Not now (an unfunded wallet, a balance below the minimum, another transaction in flight);
   * `code` names a wait the merchant can end, with `reason` saying how.
   */
  | { state: 'waiting'; reason: string; code?: WaitingCode }
  /** A sweep whose address lacks the gas (the price rose): top it up again. */
  | { state: 'needsGas'; reason: string }
  /** The request's transaction was mined and reverted. */
  | { state: 'failed'; txHash: string; reason: string }
  /**
   * A registration is in the signer's store; `heldUntil`: when its hold ends, by the signer's
   * clock (null: in effect now).
   */
  | { state: 'registered'; heldUntil: string | null }
  /**
   * The re-check said no: nothing was signed. `signer_refused`: the signer could not trust the
   * request (its MAC does not match, or it names a payout address the signer does not know), and
   * has recorded it and alerted the operator and the merchant.
   */
  | { state: 'refused'; reason: string; code?: typeof SIGNER_REFUSED };

const OPS = [
  'topUpGas',
  'sweep',
  'sendWithdrawal',
  'registerPayout',
  'registerWhitelist',
  'registerPlan',
] as const;

/** Parses one request line; null for anything else (the signer answers refused). */
export function parseRequest(line: string): SignerRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  const text = (key: string) => (typeof r[key] === 'string' && r[key] !== '' ? r[key] : null);
  if (!OPS.includes(r.op as (typeof OPS)[number])) return null;
  if (r.op === 'sendWithdrawal') {
    const withdrawalId = text('withdrawalId');
    return withdrawalId ? { op: 'sendWithdrawal', withdrawalId } : null;
  }
  const appId = text('appId');
  const at = text('at');
  const mac = text('mac');
  if (r.op === 'registerPayout') {
    const paymentMethodId = text('paymentMethodId');
    const address = text('address');
    return appId && at && mac && paymentMethodId && address
      ? { op: 'registerPayout', appId, paymentMethodId, address, at, mac }
      : null;
  }
  if (r.op === 'registerWhitelist') {
    const whitelistHash = text('whitelistHash');
    return appId && at && mac && whitelistHash
      ? { op: 'registerWhitelist', appId, whitelistHash, at, mac }
      : null;
  }
  if (r.op === 'registerPlan') {
    const packageId = text('packageId');
    const until = text('until');
    if (r.until !== undefined && until === null) return null;
    return appId && at && mac && packageId
      ? { op: 'registerPlan', appId, packageId, ...(until === null ? {} : { until }), at, mac }
      : null;
  }
  const depositId = text('depositId');
  if (!depositId) return null;
  if (r.op === 'topUpGas') return { op: 'topUpGas', depositId };
  const to = text('to');
  return to ? { op: 'sweep', depositId, to } : null;
}
