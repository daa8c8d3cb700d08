import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PlanLimitError } from '../domain/apps/plan';
import { WalletRefusedError, WhitelistRequiredError } from '../domain/payments/withdrawals';
import { toEnvelope } from '../http/errorHandler';
import { Refusal } from '../http/errors';
import type { GatewaySchemas } from './types';

// The gateway's error body, `{"error": {"code", "message", "fields"?}}` (gateway.yaml `Error`).
// Everything the portal's error handler already understands (validation, Fastify's client errors,
// domain errors, the rate limiter's) is mapped through it once, then given a stable code.

type ErrorBody = GatewaySchemas['Error'];

/** A refusal with its own code (the two 403s differ only by it). */
export class GatewayError extends Refusal {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'bad_request',
  415: 'unsupported_media_type',
  422: 'invalid_request',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The gateway's answer to `error`; `requestId` is the one in the request's log lines. */
export function gatewayErrorBody(error: unknown, requestId: string): [number, ErrorBody] {
  const body = (code: string, message: string, extra: Pick<ErrorBody['error'], 'fields'> = {}) => ({
    error: { code, message, ...extra, request_id: requestId },
  });
  if (error instanceof GatewayError) return [error.statusCode, body(error.code, error.message)];
  // 402: the merchant's package does not cover it (a portal user's 403 elsewhere).
  if (error instanceof PlanLimitError) return [402, body(error.code, error.message)];
  // A withdrawal's refusals by the app's settings or its wallet, each with its own code.
  if (error instanceof WhitelistRequiredError) return [403, body(error.code, error.message)];
  if (error instanceof WalletRefusedError) return [409, body(error.code, error.message)];
  const [status, envelope] = toEnvelope(error);
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request');
  const fields = Object.keys(envelope.errors).length > 0 ? { fields: envelope.errors } : {};
  return [status, body(code, envelope.msg, fields)];
}

export function gatewayErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const [status, body] = gatewayErrorBody(error, request.id);
  if (status >= 500) request.log.error({ err: error }, 'Gateway request failed');
  else request.log.info({ status, code: body.error.code }, 'Gateway request refused');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
