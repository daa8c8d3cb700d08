import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { findUser } from '../domain/account/security';
import { authenticateToken } from '../domain/account/sessions';
import { verifyStepToken } from '../domain/account/stepTokens';
import { HttpError, MSG, unauthenticated, validationFailed } from './errors';
import { bearerToken } from './requestContext';

const STEP_EXPIRED = 'Sign-in step expired. Please sign in again.';
const STEP_INVALID = 'Sign-in step is not valid. Please sign in again.';

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
        { idleMinutes: ctx.config.sessionIdleMinutes, maxHours: ctx.config.sessionMaxHours },
        ctx.clock,
      );
      if (!result.ok) {
        if (result.reason === 'expired') throw new HttpError(401, MSG.sessionTimedOut);
        if (result.reason === 'lifetime') throw new HttpError(401, MSG.sessionLifetimeOver);
        throw unauthenticated();
      }
      request.user = result.user;
      request.sessionId = result.sessionId;
      request.sessionCreatedAt = result.sessionCreatedAt;
    },

    // A failed step token is a failed sign-in (422), not an ended session (401): the client
    // must not run its session-end flow for someone who is not signed in yet.
    async stepToken(request) {
      const token = bearerToken(request);
      const result = token
        ? verifyStepToken(ctx.config.secretKey, token, 'login', ctx.clock)
        : ({ ok: false, reason: 'malformed' } as const);
      if (!result.ok) {
        throw validationFailed({}, result.reason === 'expired' ? STEP_EXPIRED : STEP_INVALID);
      }
      const user = await findUser(ctx.db, result.claims.sub);
      if (!user) throw validationFailed({}, STEP_INVALID);
      request.stepUser = user;
      request.stepTokenId = result.claims.jti;
    },
  };
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Strict-Transport-Security for an answer to a request that arrived over https: directly, or as
 * a proxy the server trusts says in X-Forwarded-Proto (Fastify believes it only from TRUST_PROXY's
 * proxies, as X-Forwarded-For). Over plain http a browser ignores it, and an untrusted client's
 * header must not decide it. A year, subdomains included: the portal and the gateway share the
 * origin, and nothing of either is meant to be reached over http.
 */
export function strictTransportSecurity(request: FastifyRequest): string | undefined {
  return request.protocol.toLowerCase() === 'https' ? HSTS : undefined;
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
