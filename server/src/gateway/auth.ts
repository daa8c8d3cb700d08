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

  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    try {
      const presented = presentedHash(request);
      if (!presented) throw new GatewayError(401, 'unauthenticated', UNAUTHENTICATED);
      const kept = keptGatewayKey(ctx.db, presented);
      const admitted =
        kept === undefined
          ? findGatewayKey(ctx.db, presented).then((key) => admit(request, key))
          : admit(request, kept);
      if (admitted === undefined) done();
      else admitted.then(() => done(), done);
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

/** The checked key of a gateway request (set by the authenticator for every operation). */
export function requireKey(request: FastifyRequest) {
  if (!request.gatewayKey) throw new GatewayError(401, 'unauthenticated', UNAUTHENTICATED);
  return request.gatewayKey;
}
