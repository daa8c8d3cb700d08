import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { randomToken } from '../domain/ids';
import { GATEWAY_PREFIX } from '../gateway/plugin';

export const XSRF_COOKIE = 'XSRF-TOKEN';

/**
 * The client's request helper carries the XSRF-TOKEN cookie / X-XSRF-TOKEN header pair, so we
 * hand out the cookie. We do not require it: every state-changing call is authorised by a bearer
 * token that the browser never attaches on its own (no auth cookie exists), so a cross-site page
 * cannot forge an authenticated request and CSRF does not apply. The gateway's clients are
 * servers holding an API key: no cookie for them.
 */
export async function registerXsrfCookie(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.addHook('onRequest', async (request, reply) => {
    if (request.cookies[XSRF_COOKIE] || request.url.startsWith(GATEWAY_PREFIX)) return;
    reply.setCookie(XSRF_COOKIE, randomToken(24), {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: request.protocol === 'https',
    });
  });
}
