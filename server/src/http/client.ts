import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../domain/account/events';

/** The address and user agent of a request, as the account's events record them. */
export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
