import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { PlanLimitError } from '../domain/apps/plan';
import { ChainUnavailableError } from '../domain/chain';
import { InvoiceStateRefusal } from '../domain/invoices/stateMachine';
import { RateUnavailableError } from '../domain/rates/rates';
import { DomainError, type DomainErrorKind } from '../domain/errors';
import { HttpError, MSG, envelope, validationFailed, type ErrorEnvelope } from './errors';
import { redactUrl } from './logging';
import { toFieldErrors } from './validation';

interface LooseError {
  statusCode?: unknown;
  code?: unknown;
  name?: unknown;
  message?: unknown;
  errors?: unknown;
  validation?: unknown;
  validationContext?: unknown;
}

export const RESPONSE_MISMATCH = 'FST_RESPONSE_VALIDATION_FAILED_VALIDATION';

const CLIENT_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, MSG.unsupportedMediaType],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, MSG.badContentLength],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, MSG.malformedJson],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, MSG.malformedJson],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MSG.bodyTooLarge],
  FST_REQ_FILE_TOO_LARGE: [413, MSG.fileTooLarge],
  FST_FILES_LIMIT: [413, MSG.tooManyFiles],
  FST_PARTS_LIMIT: [413, MSG.tooManyParts],
  FST_FIELDS_LIMIT: [413, MSG.tooManyFields],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, MSG.unsupportedMediaType],
  FST_PROTO_VIOLATION: [400, MSG.malformedBody],
  // Router refusals (through Fastify's `frameworkErrors`): a path that does not decode as UTF-8.
  FST_ERR_BAD_URL: [400, MSG.badUrl],
  FST_ERR_MAX_PARAM_LENGTH: [414, MSG.urlTooLong],
};

// busboy (under @fastify/multipart) throws plain Errors with no code for a broken multipart body.
const BROKEN_MULTIPART =
  /^(Unexpected end of (form|file|multipart data)|Malformed part header|Multipart: Boundary not found)/;

const GENERIC: Record<number, string> = {
  400: MSG.badRequest,
  401: MSG.unauthenticated,
  403: MSG.unauthorized,
  404: MSG.notFound,
  405: MSG.methodNotAllowed,
  406: MSG.notAcceptable,
  408: MSG.requestTimeout,
  409: MSG.conflict,
  413: MSG.bodyTooLarge,
  415: MSG.unsupportedMediaType,
  422: MSG.invalidData,
  429: MSG.tooManyRequests,
  431: MSG.headersTooLarge,
};

/** The one place a domain refusal becomes an HTTP status. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  notFound: 404,
  forbidden: 403,
  conflict: 409,
  gone: 410,
  invalid: 422,
  unavailable: 503,
};

/** Maps anything thrown during a request to [status, envelope]; 5xx never expose details. */
export function toEnvelope(error: unknown): [number, ErrorEnvelope] {
  if (error instanceof HttpError) return [error.statusCode, error.toEnvelope()];
  // The gateway's refusals keep their status and reason in the portal's envelope too.
  if (error instanceof PlanLimitError) {
    return [402, { ...envelope(error.message), code: error.code }];
  }
  if (error instanceof InvoiceStateRefusal) {
    return [
      409,
      { ...envelope(error.message), code: 'invoice_state', invoice_status: error.status },
    ];
  }
  if (error instanceof RateUnavailableError) {
    return [503, { ...envelope(error.message), code: 'rate_unavailable', pair: error.pair }];
  }
  if (error instanceof DomainError) {
    return [DOMAIN_STATUS[error.kind], envelope(error.message, error.errors)];
  }
  if (error instanceof ChainUnavailableError) return [503, envelope(MSG.chainUnavailable)];
  const e = (typeof error === 'object' && error !== null ? error : {}) as LooseError;

  // fastify-openapi-glue wraps the security handlers' errors; surface ours (e.g. idle timeout).
  if (e.name === 'Unauthorized' && Array.isArray(e.errors)) {
    const inner = e.errors.find((x): x is HttpError => x instanceof HttpError);
    return inner ? [inner.statusCode, inner.toEnvelope()] : [401, envelope(MSG.unauthenticated)];
  }

  // @fastify/response-validation also sets `validation`, but a bad response is our bug: 500.
  if (e.code === RESPONSE_MISMATCH) return [500, envelope(MSG.internal)];

  if (Array.isArray(e.validation)) {
    const part = typeof e.validationContext === 'string' ? e.validationContext : 'body';
    const failed = validationFailed(toFieldErrors(e.validation as ErrorObject[], part));
    return [422, failed.toEnvelope()];
  }

  const code = typeof e.code === 'string' ? e.code : '';
  const known = CLIENT_MESSAGES[code];
  if (known) return [known[0], envelope(known[1])];

  if (typeof e.message === 'string' && BROKEN_MULTIPART.test(e.message)) {
    return [400, envelope(MSG.malformedMultipart)];
  }

  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500)
    return [status, envelope(GENERIC[status] ?? MSG.requestFailed)];
  return [500, envelope(MSG.internal)];
}

export function errorHandler(
  this: unknown,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const [status, body] = toEnvelope(error);
  if (status >= 500) {
    if (error.code === RESPONSE_MISMATCH) {
      // Contract drift: the handler's answer does not match openapi.yaml (tests see a 500).
      request.log.error(
        { url: redactUrl(request.url), route: request.routeOptions.url },
        `Response does not match openapi.yaml: ${error.message}`,
      );
    } else if (error instanceof ChainUnavailableError) {
      // The operator gets the RPC's own failure; the user a retry-later message.
      request.log.warn({ err: error.cause ?? error }, error.message);
    } else if (error instanceof HttpError || error instanceof DomainError) {
      // A deliberate 5xx (e.g. 503 when the mail server is down), already logged where it arose.
      request.log.warn({ status, msg: body.msg }, 'Request failed');
    } else {
      request.log.error({ err: error }, 'Unhandled error');
    }
  } else {
    request.log.info({ status, code: error.code, msg: body.msg }, 'Request rejected');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Node's `clientError`: a request the HTTP parser cannot read (headers past the size limit,
 * garbage, a timeout) never reaches Fastify, so the answer is written to the socket here, still
 * in the envelope. The path is unknown at this point: every such answer uses it.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  const body = JSON.stringify(envelope(GENERIC[status] ?? 'Bad request.'));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
