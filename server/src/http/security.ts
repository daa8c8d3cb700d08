import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { authenticateToken } from '../domain/sessions';
import { verifyStepToken } from '../domain/stepTokens';
import { HttpError, MSG, unauthenticated } from './errors';
import { bearerToken } from './requestContext';

export type SecurityHandler = (request: FastifyRequest) => Promise<void>;

export interface SecurityHandlers {
  bearerAuth: SecurityHandler;
  stepToken: SecurityHandler;
}

/** fastify-openapi-glue `securityHandlers`, keyed by the document's security scheme names. */
export function buildSecurityHandlers(ctx: AppContext): SecurityHandlers {
  return {
    async bearerAuth(request) {
      const token = bearerToken(request);
      if (!token) throw unauthenticated();
      const result = await authenticateToken(
        ctx.db,
        token,
        ctx.config.sessionIdleMinutes,
        ctx.clock,
      );
      if (!result.ok) {
        throw result.reason === 'expired'
          ? new HttpError(401, MSG.sessionTimedOut)
          : unauthenticated();
      }
      request.user = result.user;
      request.sessionId = result.sessionId;
    },

    async stepToken(request) {
      const token = bearerToken(request);
      if (!token) throw unauthenticated();
      const result = verifyStepToken(ctx.config.secretKey, token, 'login', ctx.clock);
      if (!result.ok) {
        throw unauthenticated(
          result.reason === 'expired'
            ? 'Sign-in step expired. Please sign in again.'
            : MSG.unauthenticated,
        );
      }
      const user = await ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', result.claims.sub)
        .executeTakeFirst();
      if (!user) throw unauthenticated();
      request.stepUser = user;
      request.stepTokenId = result.claims.jti;
    },
  };
}

/**
 * For operations whose security allows anonymous access (`[{}, {bearerAuth: []}]`, e.g.
 * getImage): glue accepts the anonymous alternative first, so the handler calls this. No
 * Authorization header -> null; a header with a bad or expired session -> 401, as the contract
 * says.
 */
export async function resolveOptionalUser(ctx: AppContext, request: FastifyRequest) {
  if (request.user) return request.user;
  if (request.headers.authorization === undefined) return null;
  await buildSecurityHandlers(ctx).bearerAuth(request);
  return request.user;
}
