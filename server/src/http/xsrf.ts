import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import { randomToken } from '../domain/ids';
import { GATEWAY_PREFIX } from './prefixes';

export const XSRF_COOKIE = 'XSRF-TOKEN';

/**
 * The client's request helper carries the XSRF-TOKEN cookie / X-XSRF-TOKEN header pair, so we
 * hand out the cookie. We do not require it: every state-changing call is authorised by a bearer
 * token that the browser never attaches on its own (no auth cookie exists), so a cross-site page
 * cannot forge an authenticated request and CSRF does not apply. The gateway's clients are
 * servers holding an API key: no cookie for them.
 *
 * The Set-Cookie value to add to the answer, or undefined when the request carries the cookie.
 * Called from app.ts's headers hook, where @fastify/cookie had put two hooks on every request
 * (parse, then serialize on send) beside an async hook of ours, for this one cookie.
 */
export function xsrfSetCookie(request: FastifyRequest): string | undefined {
  if (request.url.startsWith(GATEWAY_PREFIX)) return undefined;
  const header = request.headers.cookie;
  if (header && parseCookie(header)[XSRF_COOKIE]) return undefined;
  return stringifySetCookie({
    name: XSRF_COOKIE,
    value: randomToken(24),
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: request.protocol === 'https',
  });
}
