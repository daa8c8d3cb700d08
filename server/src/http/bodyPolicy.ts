import type {
  FastifyRequest,
  RouteOptions,
  preParsingHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { HttpError, MSG, badRequest, validationFailed } from './errors';

// Fastify picks the body schema by Content-Type and skips validation when none matches, so a
// request with a missing or undeclared Content-Type would reach a handler unvalidated. These
// route hooks close that gap.

export function mediaType(request: FastifyRequest): string | null {
  const raw = request.headers['content-type'];
  if (typeof raw !== 'string') return null;
  const type = raw.split(';', 1)[0]?.trim().toLowerCase();
  return type ? type : null;
}

function hasPayload(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

function declaredBodyTypes(routeOptions: RouteOptions): string[] | null {
  const body = (routeOptions.schema as { body?: { content?: Record<string, unknown> } } | undefined)
    ?.body;
  if (!body) return null;
  return body.content
    ? Object.keys(body.content).map((t) => t.toLowerCase())
    : ['application/json'];
}

function toList(hooks: unknown): unknown[] {
  if (hooks === undefined || hooks === null) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/** Fastify reads no body of these methods (handle-request.js): a body sent is never parsed. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

export function readsNoBody(routeOptions: RouteOptions): boolean {
  const methods = [routeOptions.method].flat();
  return methods.every((method) => BODYLESS_METHODS.has(method));
}

/** The 415 for a body the operation does not take: `declared` types, or null for none at all. */
export type BodyTypeRefusal = (declared: string[] | null) => Error;

/**
 * The Content-Type gate of a route that reads a body (a GET's is ignored, as HTTP gives it no
 * meaning: nothing to add to a read), as a preParsing hook: a body of a type its operation does
 * not declare is refused (`refuse`), as is one sent to an operation that takes none, unless it
 * is JSON (clients often send `{}`).
 */
export function contentTypeGate(
  routeOptions: RouteOptions,
  refuse: BodyTypeRefusal,
): preParsingHookHandler | undefined {
  if (readsNoBody(routeOptions)) return undefined;
  const declared = declaredBodyTypes(routeOptions);
  return async (request, _reply, payload) => {
    const type = mediaType(request);
    if (declared) {
      if (!type || !declared.includes(type)) throw refuse(declared);
    } else if (hasPayload(request) && type !== null && type !== 'application/json') {
      throw refuse(null);
    }
    return payload;
  };
}

const portalBodyTypeRefusal: BodyTypeRefusal = (declared) =>
  new HttpError(
    415,
    declared
      ? `${MSG.unsupportedMediaType} Send ${declared.join(' or ')}.`
      : `${MSG.unsupportedMediaType} ${MSG.unexpectedBody}`,
  );

/**
 * onRoute: adds the Content-Type gate (before parsing) and the no-body check to every /api route
 * that reads a body (two hooks less per read).
 */
export function applyBodyPolicy(routeOptions: RouteOptions): void {
  if (!routeOptions.url.startsWith('/api')) return;
  const gate = contentTypeGate(routeOptions, portalBodyTypeRefusal);
  if (!gate) return;
  const declared = declaredBodyTypes(routeOptions);

  routeOptions.preParsing = [
    ...toList(routeOptions.preParsing),
    gate,
  ] as RouteOptions['preParsing'];

  if (!declared) {
    // Operations without a requestBody accept nothing, an empty body, or `{}` / `null`
    // (clients often send an empty JSON object with the JSON content type).
    const noBody: preValidationHookHandler = async (request) => {
      const body: unknown = request.body;
      if (body === undefined || body === null) return;
      if (typeof body === 'object' && !Array.isArray(body)) {
        const keys = Object.keys(body);
        if (keys.length === 0) return;
        throw validationFailed(
          Object.fromEntries(keys.map((k) => [k, [`The ${k} field is not allowed.`]])),
        );
      }
      throw badRequest(MSG.unexpectedBody);
    };
    routeOptions.preValidation = [
      ...toList(routeOptions.preValidation),
      noBody,
    ] as RouteOptions['preValidation'];
  }
}

/**
 * onRoute, registered after @fastify/rate-limit: glue attaches security handlers as preHandler,
 * i.e. after body parsing and validation. Running them in onRequest instead (after the rate
 * limiter) means unauthenticated callers get 401 rather than 422, and cannot make the server
 * parse uploads.
 */
export function securityBeforeBody(routeOptions: RouteOptions): void {
  if (!routeOptions.url.startsWith('/api') || !routeOptions.preHandler) return;
  routeOptions.onRequest = [
    ...toList(routeOptions.onRequest),
    ...toList(routeOptions.preHandler),
  ] as RouteOptions['onRequest'];
  routeOptions.preHandler = undefined;
}
