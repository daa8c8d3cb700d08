import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PlanLimitError } from '../domain/apps/plan';
import { InvoiceStateRefusal } from '../domain/invoices/stateMachine';
import { RateUnavailableError } from '../domain/rates/rates';
import {
  SettingsHoldError,
  WalletRefusedError,
  WhitelistRequiredError,
} from '../domain/payments/withdrawals';
import { toEnvelope } from '../http/errorHandler';
import { Refusal, type FieldErrors } from '../http/errors';
import { GATEWAY_PREFIX } from '../http/prefixes';
import { isObject } from '../openapi/spec';
import type { GatewaySchemas } from './types';

// The gateway's error body, `{"error": {"code", "message", "doc_url", "fields"?, "request_id"}}`
// (gateway.yaml `Error`). Everything the portal's error handler already understands (validation,
// Fastify's client errors, domain errors, the rate limiter's) is mapped through it once, then
// given a stable code. `doc_url` is the code's section of the reference page this server serves
// (gateway/docs.ts): gateway.yaml's Errors section has one heading per code, and Redoc makes
// each heading the anchor `section/<heading>`.

type ErrorBody = GatewaySchemas['Error'];

/** What a 415 says, whichever check refused the body. */
const UNSUPPORTED_MEDIA_TYPE = 'Send the body as application/json.';

/** The section of the reference page that explains `code`, on the origin the client called. */
export function errorDocUrl(request: FastifyRequest, code: string): string {
  return `${request.protocol}://${request.host}${GATEWAY_PREFIX}/docs#section/${code}`;
}

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

function isHeaderValidation(error: unknown): boolean {
  return (error as { validationContext?: unknown } | null)?.validationContext === 'headers';
}

/**
 * Header fields as the reference spells them (`Idempotency-Key`): Node gives the validator
 * header names in lower case.
 */
function headerSpelling(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([name, messages]) => [
      name.replace(
        /(^|-)([a-z])/g,
        (_m, dash: string, letter: string) => dash + letter.toUpperCase(),
      ),
      messages,
    ]),
  );
}

/** The gateway's answer to `error`, naming the request's id (the one in its log lines). */
export function gatewayErrorBody(error: unknown, request: FastifyRequest): [number, ErrorBody] {
  const body = (
    code: string,
    message: string,
    extra: Pick<ErrorBody['error'], 'fields' | 'hold_until' | 'invoice_status' | 'pair'> = {},
  ) => ({
    error: {
      code,
      message,
      doc_url: errorDocUrl(request, code),
      ...extra,
      request_id: request.id,
    },
  });
  if (error instanceof GatewayError) return [error.statusCode, body(error.code, error.message)];
  // 402: the merchant's package does not cover it (a portal user's 403 elsewhere).
  if (error instanceof PlanLimitError) return [402, body(error.code, error.message)];
  // A withdrawal's refusals by the app's settings or its wallet, each with its own code.
  if (error instanceof WhitelistRequiredError) return [403, body(error.code, error.message)];
  if (error instanceof WalletRefusedError) return [409, body(error.code, error.message)];
  if (error instanceof SettingsHoldError) {
    return [409, body(error.code, error.message, { hold_until: error.holdUntil })];
  }
  // An invoice's cancel or mark its status does not allow, naming that status.
  if (error instanceof InvoiceStateRefusal) {
    return [409, body('invoice_state', error.message, { invoice_status: error.status })];
  }
  // No fresh rate for a pair a new invoice needs: never a stale price.
  if (error instanceof RateUnavailableError) {
    return [503, body('rate_unavailable', error.message, { pair: error.pair })];
  }
  const [status, envelope] = toEnvelope(error);
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request');
  const errors = isHeaderValidation(error) ? headerSpelling(envelope.errors) : envelope.errors;
  const fields = Object.keys(errors).length > 0 ? { fields: errors } : {};
  return [status, body(code, status === 415 ? UNSUPPORTED_MEDIA_TYPE : envelope.msg, fields)];
}

/**
 * A preSerialization hook: an error body made elsewhere than gatewayErrorBody (the 404 and 405
 * answers, the reference page's own 404) gets its `doc_url` too.
 */
export function addErrorDocUrl(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  const error = isObject(payload) ? payload.error : undefined;
  if (
    reply.statusCode < 400 ||
    !isObject(payload) ||
    !isObject(error) ||
    typeof error.code !== 'string' ||
    'doc_url' in error
  ) {
    done(null, payload);
    return;
  }
  const { request_id: requestId, ...rest } = error;
  done(null, {
    ...payload,
    error: { ...rest, doc_url: errorDocUrl(request, error.code), request_id: requestId },
  });
}

export function gatewayErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const [status, body] = gatewayErrorBody(error, request);
  if (status >= 500) request.log.error({ err: error }, 'Gateway request failed');
  else request.log.info({ status, code: body.error.code }, 'Gateway request refused');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
