import type { User } from '../db/schema';
import { unauthenticated } from './errors';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearerAuth security handler on operations that require a session. */
    user: User | null;
    /** Id of the session behind `user` (logout revokes it). */
    sessionId: string | null;
    /** When that session was opened (its sign-in), read with it: the dashboard's last login. */
    sessionCreatedAt: string | null;
    /** Set by the stepToken security handler (login's second step). */
    stepUser: User | null;
    /** The step token's `jti`, so login can mark it spent (the contract makes it single-use). */
    stepTokenId: string | null;
  }
}

/** For handlers of bearerAuth operations: the signed-in user (401 if absent, which glue prevents). */
export function requireUser(request: FastifyRequest): User {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export function requireStepUser(request: FastifyRequest): User {
  if (!request.stepUser) throw unauthenticated();
  return request.stepUser;
}

/** `Authorization: Bearer <token>` -> token, else null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}
