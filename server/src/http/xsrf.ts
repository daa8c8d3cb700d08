import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { randomToken } from '../domain/ids';

export const XSRF_COOKIE = 'XSRF-TOKEN';

/**
 * The client's request helper carries the XSRF-TOKEN cookie / X-XSRF-TOKEN header pair, so we
 * hand out the cookie. We do not require it: every state-changing call is authorised by a bearer
 * token that the browser never attaches on its own (no auth cookie exists), so a cross-site page
 * cannot forge an authenticated request and CSRF does not apply.
 */
export async function registerXsrfCookie(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.addHook('onRequest', async (request, reply) => {
    if (request.cookies[XSRF_COOKIE]) return;
    reply.setCookie(XSRF_COOKIE, randomToken(24), {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: request.protocol === 'https',
    });
  });
}
