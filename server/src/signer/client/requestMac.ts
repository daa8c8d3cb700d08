import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// What the web process vouches for, and how the signer checks it was the web process: an
// HMAC-SHA256, under the request key (requestKey.ts), of a canonical, versioned encoding of the
// fields that must not change once accepted. The web process computes it as it accepts the
// request (and stores it beside the row, or in the job that carries it); the signer recomputes it
// from what it is about to act on and signs nothing that does not match. A row edited in the
// database, or one inserted there, has no MAC the key made.

/**
 * A payment out of an app's wallet: a withdrawal, or a refund, which names its invoice and the
 * invoice's address whose payments it gives back (the signer's cap counts per that address).
 */
export interface MoneyOut {
  kind: 'withdrawal' | 'refund';
  id: string;
  appId: string;
  paymentMethodId: string;
  /** The wallet it is paid from (the app's operational wallet of the method, as accepted). */
  source: string | null;
  destination: string;
  /** The exact amount, in the method's base units. */
  amountRaw: string;
  /** The merchant's own reference of the payment (a withdrawal's unique_id). */
  purpose: string | null;
  invoiceId?: string | null;
  paidTo?: string | null;
}

/** An app's payout address for a method, as the merchant set it. */
export interface PayoutRegistration {
  kind: 'payout';
  appId: string;
  paymentMethodId: string;
  address: string;
  /** When the web process made the change (a later one supersedes it). */
  at: string;
}

/** An app's IP whitelist, as a hash of its normalised entries (whitelistHash). */
export interface WhitelistRegistration {
  kind: 'whitelist';
  appId: string;
  whitelistHash: string;
  at: string;
}

/** What a plan registration names when the merchant has no plan. */
export const NO_PLAN = 'none';

/**
 * An app's plan (its package id, or `none`) and when it ends (null: it does not): the signer's
 * default daily caps follow it, and fall to the smallest plan's at its end by the signer's clock.
 */
export interface PlanRegistration {
  kind: 'plan';
  appId: string;
  packageId: string;
  until: string | null;
  at: string;
}

export type MacedRequest = MoneyOut | PayoutRegistration | WhitelistRegistration | PlanRegistration;

/** A withdrawal's row (send_transactions) as the MAC covers it: both sides build it here. */
export function withdrawalRequest(row: {
  id: string;
  app_id: string;
  payment_method_id: string;
  from_address: string | null;
  to_address: string;
  amount_raw: string | null;
  unique_id: string | null;
}): MoneyOut {
  return {
    kind: 'withdrawal',
    id: row.id,
    appId: row.app_id,
    paymentMethodId: row.payment_method_id,
    source: row.from_address,
    destination: row.to_address,
    amountRaw: row.amount_raw ?? '',
    purpose: row.unique_id,
  };
}

/** A refund as the MAC covers it (the refund's row, with its paying wallet): both sides build it. */
export function refundRequest(row: {
  id: string;
  app_id: string;
  payment_method_id: string;
  from_address: string;
  address: string;
  amount_raw: string;
  invoice_id: string;
  paid_to: string;
}): MoneyOut {
  return {
    kind: 'refund',
    id: row.id,
    appId: row.app_id,
    paymentMethodId: row.payment_method_id,
    source: row.from_address,
    destination: row.address,
    amountRaw: row.amount_raw,
    purpose: null,
    invoiceId: row.invoice_id,
    paidTo: row.paid_to,
  };
}

/** Computes a request's MAC (the web process's side). */
export type RequestSigner = (request: MacedRequest) => string;

/** An EVM address in one case (the case is only a checksum); others (Tron) as they are. */
export function addressForm(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;
}

/** The bytes the MAC covers: one JSON array, its first element the encoding's version. */
export function encodeRequest(request: MacedRequest): string {
  switch (request.kind) {
    case 'withdrawal':
    case 'refund':
      return JSON.stringify([
        'money-out/v1',
        request.kind,
        request.id,
        request.appId,
        request.paymentMethodId,
        request.source === null ? null : addressForm(request.source),
        addressForm(request.destination),
        request.amountRaw,
        request.purpose,
        request.invoiceId ?? null,
        ...(request.kind === 'refund' ? [request.paidTo ? addressForm(request.paidTo) : null] : []),
      ]);
    case 'payout':
      return JSON.stringify([
        'payout/v1',
        request.appId,
        request.paymentMethodId,
        addressForm(request.address),
        request.at,
      ]);
    case 'whitelist':
      return JSON.stringify(['whitelist/v1', request.appId, request.whitelistHash, request.at]);
    case 'plan':
      // v1, before plans carried their end, is still what a registration queued then was MACed as.
      return request.until === null
        ? JSON.stringify(['plan/v1', request.appId, request.packageId, request.at])
        : JSON.stringify(['plan/v2', request.appId, request.packageId, request.until, request.at]);
  }
}

function macOf(key: Buffer, request: MacedRequest): Buffer {
  return createHmac('sha256', key).update(encodeRequest(request)).digest();
}

/** The web process's side: the MAC of each request it accepts, in hex. */
export function requestSigner(key: Buffer): RequestSigner {
  return (request) => macOf(key, request).toString('hex');
}

/** The signer's side: whether `mac` (hex, as stored) is the request's, in constant time. */
export function verifyRequestMac(key: Buffer, request: MacedRequest, mac: string | null): boolean {
  if (mac === null || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(macOf(key, request), Buffer.from(mac, 'hex'));
}

/** The hash a whitelist is registered by: SHA-256 of its normalised text ('' when empty). */
export function whitelistHash(normalised: string | null): string {
  return createHash('sha256')
    .update(normalised ?? '')
    .digest('hex');
}
