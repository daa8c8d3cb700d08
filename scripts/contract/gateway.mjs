// The gateway's side of a run: server/openapi/gateway.yaml, served under /gateway/v1 and called
// with an app's API key (`Authorization: Bearer csl_live_…` or `X-API-Key`) instead of a portal
// session. The same three properties as the portal's operations, with the key as the run's
// credential; its third property leaves the key out, forges it, or sends a revoked one.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { Generator } from './arbitraries.mjs';
import { Runner } from './runner.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./arbitraries.mjs').Auth} Auth
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./checks.mjs').Category} Category
 * @typedef {import('./runner.mjs').Options} Options
 * @typedef {import('./runner.mjs').Shared} Shared
 */

/** The header the gateway also takes the key in. */
export const KEY_HEADER = 'x-api-key';
/** Plainly made up, and shown in reports (it is the point of the request). */
const FORGED_KEY = 'csl_live_forged0contract0check0key0000';
const NO_KEY = 'no API key (pass --gateway-key or --register)';

// Fields of the gateway's requests and the earlier answers they take values from.
const GATEWAY_LINKS = /** @type {Record<string, string[]>} */ ({
  method: ['Method.code'],
  unique_id: ['Account.unique_id'],
  id: ['Deposit.id', 'Withdrawal.id'],
  cursor: ['AccountPage.next_cursor', 'DepositPage.next_cursor', 'WithdrawalPage.next_cursor'],
  after: ['EventPage.next'],
});

/**
 * The gateway's root beside a portal API root: `…/api` becomes `…/gateway/v1` on the same
 * origin (any other path: `/gateway/v1` at the origin's root).
 * @param {string} baseUrl
 */
export function gatewayUrlOf(baseUrl) {
  const url = new URL(baseUrl.replace(/\/+$/, ''));
  url.pathname = /\/api$/.test(url.pathname)
    ? url.pathname.replace(/\/api$/, '/gateway/v1')
    : '/gateway/v1';
  url.search = '';
  url.hash = '';
  return url.href;
}

/** A well-formed key no server issued (what a revoked key looks like), stable for a seed. @param {number} seed */
function lookalikeKey(seed) {
  const digest = createHash('sha256').update(`contract-check:${seed}`).digest();
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  return `csl_live_${Array.from(digest.subarray(0, 32), (b) => alphabet[b % 36]).join('')}`;
}

export class GatewayRunner extends Runner {
  /** @param {Contract} contract @param {Options} options @param {Shared} shared */
  constructor(contract, options, shared) {
    super(contract, options, shared);
    this.gen = new Generator(contract, (key) => this.poolValues(key), GATEWAY_LINKS);
    this.authTitle = 'without a valid key';
    /** @type {string | null} the API key the operations are called with */
    this.key = null;
    /** @type {string | null} a key of the same app, revoked (with --register) */
    this.revokedKey = null;
    /** @type {string | null} a key of the same app holding only `methods:read` (with --register) */
    this.narrowKey = null;
    /** @type {Runner | null} the portal's runner: its session, for flows' portal steps */
    this.portal = null;
    this.lookalike = lookalikeKey(options.seed);
    if (options.gatewayKey) this.useKey(options.gatewayKey);
  }

  /** @param {string} key */
  useKey(key) {
    this.key = key;
    this.transport.secrets.add(key);
    this.portal?.transport.secrets.add(key);
  }

  /** @override @param {Operation} _op @param {Auth} auth @returns {Promise<string | null>} */
  async tokenFor(_op, auth) {
    if (auth === 'session') return this.key;
    if (auth === 'forged') return FORGED_KEY;
    if (auth === 'revoked') return this.revokedKey ?? this.lookalike;
    if (auth === 'swapped') return this.portal?.session ?? null;
    return null;
  }

  /** @override @param {Operation} op @param {Category} category */
  categoryBlocker(op, category) {
    const blocked = super.categoryBlocker(op, category);
    if (blocked || category === 'auth') return blocked;
    return this.key ? null : NO_KEY;
  }

  /** Valid requests, the key sent as a bearer or in X-API-Key. @override @param {Operation} op */
  validArbitrary(op) {
    return fc
      .tuple(super.validArbitrary(op), fc.boolean())
      .map(([req, inHeader]) =>
        inHeader ? /** @type {RequestSpec} */ ({ ...req, keyHeader: KEY_HEADER }) : req,
      );
  }

  /** Requests that only lack a valid key. @override @param {Operation} op */
  authArbitrary(op) {
    const revoked = this.revokedKey
      ? 'a revoked key'
      : 'a well-formed key no server issued (as a revoked one looks)';
    /** @type {[Auth, string | undefined, string | undefined, string][]} */
    const modes = [
      ['none', undefined, undefined, 'without a key'],
      ['forged', undefined, undefined, 'with a forged key as the bearer'],
      ['forged', undefined, KEY_HEADER, 'with a forged key in X-API-Key'],
      ['revoked', undefined, undefined, `with ${revoked} as the bearer`],
      ['revoked', undefined, KEY_HEADER, `with ${revoked} in X-API-Key`],
      ['malformed', 'Basic Y29udHJhY3Q6Y2hlY2s=', undefined, 'with Basic credentials'],
      ['malformed', 'Bearer', undefined, 'with an empty bearer'],
    ];
    if (this.portal?.session) {
      modes.push(['swapped', undefined, undefined, 'with a portal session instead of a key']);
    }
    return fc
      .tuple(super.validArbitrary(op), fc.constantFrom(...modes))
      .map(([req, [auth, authHeader, keyHeader, reason]]) => ({
        ...req,
        auth,
        authHeader,
        keyHeader,
        reason,
      }));
  }
}
