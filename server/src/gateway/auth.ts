import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { hashApiKey } from '../domain/apps/apiKeys';
import {
  findGatewayKey,
  keptGatewayKey,
  keyMay,
  touchGatewayKey,
  whitelistAllows,
  type GatewayKey,
} from '../domain/apps/gatewayKeys';
import { brakeAddress } from '../domain/clientAddress';
import { claimRequests } from '../domain/rateLimits';
import { bearerToken } from '../http/requestContext';
import { GatewayError } from './errors';

export const UNAUTHENTICATED = 'The API key is missing, unknown or revoked.';

/** The key text a request presents: `Authorization: Bearer …`, else `X-API-Key`. */
function presentedKey(request: FastifyRequest): string | null {
  const bearer = bearerToken(request);
  if (bearer) return bearer;
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : null;
}

/**
 * The SHA-256 of the key a request presents, made once per request: the limiter's bucket, the
 * key lookup and the API log's bucket all use it (three hashes a request otherwise).
 * Kept on the request itself: a WeakMap entry per request cost the garbage collector more.
 */
function presentedHash(request: FastifyRequest): string | null {
  if (request.gatewayKeyHash !== null) return request.gatewayKeyHash;
  const key = presentedKey(request);
  if (!key) return null;
  request.gatewayKeyHash = hashApiKey(key);
  return request.gatewayKeyHash;
}

/**
 * The rate limiter's bucket: the presented key (hashed, never kept in clear), or the address
 * when there is none. Keyed before the key is checked, so unknown keys are limited too. Made
 * once per request: the limiter and the API log hook both ask.
 */
export function gatewayRateLimitKey(request: FastifyRequest): string {
  if (request.gatewayBucket) return request.gatewayBucket;
  const hash = presentedHash(request);
  request.gatewayBucket = hash ? `key:${hash.slice(0, 32)}` : `ip:${request.ip}`;
  return request.gatewayBucket;
}

/** The rate_limits windows of the brake below, apart from the request budgets' (http/rateLimitStore.ts). */
const FAILURE_BUDGET = 'gateway key failures';
/** Braked addresses a process remembers; past it, the oldest is forgotten (its next failure counts it again). */
const REMEMBERED_ADDRESSES = 10_000;

/**
 * The brake on guessed keys. The request budget is per presented key, so made-up keys each got
 * a fresh one: failed checks (401) are counted per client address too (an IPv6 client as its
 * /64, domain/clientAddress.ts), in the database's rate-limit windows, so every process adds to
 * one count. Past GATEWAY_AUTH_FAILURE_MAX in a window the address gets 429, whatever key it
 * sends, until the window ends: letting a valid key through would answer a right guess
 * otherwise than the wrong ones (docs/decisions.md). A process refuses from the first failure
 * it counts past the budget on, without a database read per request.
 */
function failedKeyBrake(ctx: AppContext) {
  const { gatewayAuthFailureMax: max, gatewayAuthFailureWindowMs: windowMs } = ctx.config.rateLimit;
  const refusedUntil = new Map<string, number>();

  function refusal(reply: FastifyReply, until: number, now: number): GatewayError {
    const seconds = Math.max(1, Math.ceil((until - now) / 1000));
    void reply.header('retry-after', String(seconds));
    return new GatewayError(
      429,
      'rate_limited',
      'Too many requests with a missing, unknown or revoked API key from this address: try' +
        ` again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    );
  }

  return {
    /** The 429 of an address this process has seen past its budget, while its window lasts. */
    check(request: FastifyRequest, reply: FastifyReply): GatewayError | undefined {
      if (refusedUntil.size === 0) return undefined;
      const address = brakeAddress(request.ip);
      const until = refusedUntil.get(address);
      if (until === undefined) return undefined;
      const now = ctx.clock().getTime();
      if (until > now) return refusal(reply, until, now);
      refusedUntil.delete(address);
      return undefined;
    },

    /** Counts a failed check of the request's address: the 429 once it is past the budget. */
    async count(request: FastifyRequest, reply: FastifyReply): Promise<GatewayError | undefined> {
      const address = brakeAddress(request.ip);
      const now = ctx.clock().getTime();
      const window = await claimRequests(ctx.db, `${FAILURE_BUDGET}|${address}`, windowMs, now, 1);
      if (window.count <= max) return undefined;
      if (!refusedUntil.has(address) && refusedUntil.size >= REMEMBERED_ADDRESSES) {
        const oldest = refusedUntil.keys().next();
        if (!oldest.done) refusedUntil.delete(oldest.value);
      }
      refusedUntil.set(address, window.resetAt);
      return refusal(reply, window.resetAt, now);
    },
  };
}

/** How often this process writes a key's last use, at most (the database also checks). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The gateway's onRequest check: a live key (401), the caller inside the app's whitelist (403
 * naming the address seen), the operation's ability (403 naming it). Before the body is read.
 * Callback style: a key this process keeps is checked without a promise (an async hook awaiting
 * the lookup allocated about 2 KB a request); otherwise it is looked up first.
 */
export function gatewayAuthenticator(ctx: AppContext) {
  const touched = new Map<string, number>();
  const brake = failedKeyBrake(ctx);

  /** The checks of a found key; a promise only when its last use is written. */
  function admit(request: FastifyRequest, key: GatewayKey | null): Promise<void> | undefined {
    if (!key) throw new GatewayError(401, 'unauthenticated', UNAUTHENTICATED);
    request.gatewayAppId = key.appId;
    if (!whitelistAllows(key.whitelist, request.ip)) {
      throw new GatewayError(
        403,
        'ip_not_allowed',
        `The address ${request.ip} is not in this app's IP whitelist.`,
      );
    }
    const ability = request.routeOptions.config.ability;
    if (ability && !keyMay(key, ability)) {
      throw new GatewayError(403, 'ability_missing', `This API key lacks the ${ability} ability.`);
    }
    request.gatewayKey = key;
    const now = ctx.clock().getTime();
    if (now - (touched.get(key.id) ?? 0) < TOUCH_EVERY_MS) return undefined;
    touched.set(key.id, now);
    return touchGatewayKey(ctx.db, key.id, new Date(now));
  }

  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    /** A refusal; a 401 is counted by the brake first, which may turn it into its 429. */
    const fail = (error: unknown): void => {
      if (!(error instanceof GatewayError) || error.statusCode !== 401) {
        done(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      brake.count(request, reply).then(
        (braked) => done(braked ?? error),
        (err: unknown) => {
          // As the request budget does (http/rateLimitStore.ts): a database error fails open.
          request.log.error({ err }, 'Counting a failed API key check failed');
          done(error);
        },
      );
    };
    try {
      const braked = brake.check(request, reply);
      if (braked) throw braked;
      const presented = presentedHash(request);
      if (!presented) throw new GatewayError(401, 'unauthenticated', UNAUTHENTICATED);
      const kept = keptGatewayKey(ctx.db, presented);
      const admitted =
        kept === undefined
          ? findGatewayKey(ctx.db, presented).then((key) => admit(request, key))
          : admit(request, kept);
      if (admitted === undefined) done();
      else admitted.then(() => done(), fail);
    } catch (error) {
      fail(error);
    }
  };
}

/** The checked key of a gateway request (set by the authenticator for every operation). */
export function requireKey(request: FastifyRequest) {
  if (!request.gatewayKey) throw new GatewayError(401, 'unauthenticated', UNAUTHENTICATED);
  return request.gatewayKey;
}
