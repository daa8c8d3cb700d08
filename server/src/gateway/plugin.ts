import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { AppContext } from '../context';
import { ApiLogWriter } from '../domain/apps/apiLogs';
import { contentTypeGate, type BodyTypeRefusal } from '../http/bodyPolicy';
import { ajvsFor, createValidatorCompiler } from '../http/validation';
import { isObject, loadSpecification } from '../openapi/spec';
import { GATEWAY_OPENAPI_PATH } from '../paths';
import { gatewayAuthenticator, gatewayRateLimitKey } from './auth';
import { registerGatewayDocs } from './docs';
import { addErrorDocUrl, GatewayError, gatewayErrorHandler } from './errors';
import { gatewayHandlers } from './handlers';
import { GATEWAY_PREFIX } from '../http/prefixes';
import { named } from '../http/contexts';

/** operationId -> the `x-ability` its operation names in gateway.yaml. */
function abilitiesOf(document: Record<string, unknown>): Map<string, string> {
  const abilities = new Map<string, string>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      const { operationId, 'x-ability': ability } = operation;
      if (typeof operationId === 'string' && typeof ability === 'string') {
        abilities.set(operationId, ability);
      }
    }
  }
  return abilities;
}

/** Fastify's `/accounts/:unique_id` as the reference writes it: `/accounts/{unique_id}`. */
function routeTemplate(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

/**
 * A header parameter's schema with its names in lower case, as Node gives request headers:
 * Fastify does that itself only with its own validator compiler, and ours is custom.
 */
function lowerCaseHeaders(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const { properties, required } = schema;
  return {
    ...schema,
    ...(isObject(properties)
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([name, value]) => [name.toLowerCase(), value]),
          ),
        }
      : {}),
    ...(Array.isArray(required)
      ? { required: required.map((name) => (typeof name === 'string' ? name.toLowerCase() : name)) }
      : {}),
  };
}

/**
 * The methods each gateway path takes, for the answer to one it does not (405 with `Allow`):
 * fed by onRoute with every route of the gateway, asked with a request's path.
 */
function methodsByPath() {
  const paths: { source: string; pattern: RegExp; methods: string[] }[] = [];
  return {
    add(url: string, method: string | string[]): void {
      const source = `^${url
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}$`;
      let entry = paths.find((p) => p.source === source);
      if (!entry) {
        entry = { source, pattern: new RegExp(source), methods: [] };
        paths.push(entry);
      }
      entry.methods = [...new Set([...entry.methods, ...[method].flat()])].sort();
    },
    /** The methods of the request's path (its query and a trailing slash aside), or none. */
    of(url: string): string[] {
      const path = (url.split('?', 1)[0] ?? '').replace(/(.)\/$/, '$1');
      return paths.find((p) => p.pattern.test(path))?.methods ?? [];
    },
  };
}

/** Keys whose app the log hook remembers (by rate-limit bucket), for refusals before the check. */
const REMEMBERED_KEYS = 10_000;

/**
 * The API Logs hook: every answered operation becomes a row (domain/apps/apiLogs.ts, written in
 * batches) once its app is known, refusals included: a 403 after the key was found, and a 429
 * or a 401 (key revoked since) of a key this process has seen. A key nobody owns has no app
 * whose logs could show it.
 */
function apiLogHook(ctx: AppContext, logs: ApiLogWriter) {
  const appOfBucket = new Map<string, string>();
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const bucket = gatewayRateLimitKey(request);
    const appId = request.gatewayAppId ?? appOfBucket.get(bucket);
    if (!appId) {
      done();
      return;
    }
    if (request.gatewayAppId && !appOfBucket.has(bucket)) {
      if (appOfBucket.size >= REMEMBERED_KEYS) {
        const oldest = appOfBucket.keys().next();
        if (!oldest.done) appOfBucket.delete(oldest.value);
      }
      appOfBucket.set(bucket, request.gatewayAppId);
    }
    logs.add({
      appId,
      method: request.method,
      // Every operation's template is made once, as its route is added (below).
      route: request.routeOptions.config.apiLogRoute ?? request.url.split('?')[0] ?? '',
      ip: request.gatewayIp ?? request.ip,
      status: reply.statusCode,
      at: ctx.clock(),
    });
    done();
  };
}

/**
 * Every gateway body is required, and Fastify validates only a body it parsed: an empty one
 * (with the JSON type: the content-type gate refused every other) is refused here instead of
 * reaching a handler without it.
 */
async function requireBody(request: FastifyRequest): Promise<void> {
  if (request.body !== undefined) return;
  throw new GatewayError(400, 'bad_request', 'The request has no body: send a JSON object.');
}

/**
 * Fastify validates a body only against the schema of its Content-Type: a `text/plain` one
 * reached the handler unchecked. The gate (http/bodyPolicy.ts, as on /api) refuses it first.
 */
const gatewayBodyTypeRefusal: BodyTypeRefusal = (declared) =>
  declared
    ? new GatewayError(415, 'unsupported_media_type', `Send the body as ${declared.join(' or ')}.`)
    : new GatewayError(415, 'unsupported_media_type', 'This operation takes no body.');

/**
 * The gateway API (server/openapi/gateway.yaml) under GATEWAY_PREFIX, apart from the portal's
 * /api: its own validator, error body and 404, its contract at /openapi.json and its reference
 * page at /docs (built into `docsDir`; gateway/docs.ts), and every operation behind the API key
 * check (gateway/auth.ts) before the body is read.
 */
export async function registerGateway(
  app: FastifyInstance,
  ctx: AppContext,
  docsDir: string | undefined,
): Promise<void> {
  const spec = loadSpecification(GATEWAY_OPENAPI_PATH);
  const abilities = abilitiesOf(spec.document);
  const published = JSON.stringify(spec.document);

  await app.register(
    named('gateway', async (gateway) => {
      gateway.decorateRequest('gatewayKey', null);
      gateway.decorateRequest('gatewayAppId', null);
      gateway.decorateRequest('gatewayKeyHash', null);
      gateway.decorateRequest('gatewayBucket', null);
      gateway.decorateRequest('gatewayIp', null);
      // A row the writer or the database refuses is named (never the key: the log has none).
      const logs = new ApiLogWriter(ctx.db, (err, lost, entry) =>
        gateway.log.error(
          entry
            ? {
                err,
                lost,
                row: {
                  app_id: entry.appId,
                  method: entry.method,
                  route: entry.route,
                  ip: entry.ip,
                  status: entry.status,
                },
              }
            : { err, lost },
          'API log rows could not be written',
        ),
      );
      gateway.addHook('onClose', () => logs.close());
      gateway.setErrorHandler(gatewayErrorHandler);
      gateway.addHook('preSerialization', addErrorDocUrl);
      // Every answer names its request, so a merchant's support ticket can point at our logs.
      // The address is kept while the connection is open, for the API Logs row written after
      // the answer. Callback style, as the hooks below: no promise per request.
      gateway.addHook('onRequest', (request, reply, done) => {
        void reply.header('x-request-id', request.id);
        request.gatewayIp = request.ip ?? null;
        done();
      });
      const methods = methodsByPath();
      gateway.addHook('onRoute', (route) => methods.add(route.url, route.method));
      gateway.setNotFoundHandler((request, reply) => {
        // A path the gateway has, asked with another method: 405 naming the methods it takes.
        const allowed = methods.of(request.url);
        if (allowed.length > 0) {
          void reply
            .code(405)
            .header('allow', allowed.join(', '))
            .send({
              error: {
                code: 'method_not_allowed',
                message: `${request.method} is not allowed here: use ${allowed.join(' or ')}.`,
                request_id: request.id,
              },
            });
          return;
        }
        void reply.code(404).send({
          error: {
            code: 'not_found',
            message: 'No such gateway operation.',
            request_id: request.id,
          },
        });
      });
      gateway.get('/openapi.json', (_request, reply) => {
        void reply.type('application/json; charset=utf-8').send(published);
      });
      registerGatewayDocs(gateway, docsDir);

      await gateway.register(
        named('gateway operations', async (operations) => {
          operations.addHook('onResponse', apiLogHook(ctx, logs));
          operations.setValidatorCompiler(createValidatorCompiler(ajvsFor(spec.document)));
          const authenticate = gatewayAuthenticator(ctx);
          operations.addHook('onRoute', (route) => {
            const operationId = (route.schema as { operationId?: unknown } | undefined)
              ?.operationId;
            const ability =
              typeof operationId === 'string' ? abilities.get(operationId) : undefined;
            route.config = {
              ...route.config,
              apiLogRoute: routeTemplate(route.url),
              ...(ability ? { ability } : {}),
            };
            const schema = route.schema as { headers?: unknown } | undefined;
            if (schema?.headers) schema.headers = lowerCaseHeaders(schema.headers);
            // After the rate limiter's hook on the route (unknown keys are limited too), before
            // the body is read.
            const earlier = route.onRequest ?? [];
            route.onRequest = [...(Array.isArray(earlier) ? earlier : [earlier]), authenticate];
            const gate = contentTypeGate(route, gatewayBodyTypeRefusal);
            if (gate) {
              const parsing = route.preParsing ?? [];
              route.preParsing = [...(Array.isArray(parsing) ? parsing : [parsing]), gate];
            }
            if ((route.schema as { body?: unknown } | undefined)?.body) {
              const validation = route.preValidation ?? [];
              route.preValidation = [
                ...(Array.isArray(validation) ? validation : [validation]),
                requireBody,
              ];
            }
          });
          await operations.register(openapiGlue, {
            specification: spec.document,
            serviceHandlers: gatewayHandlers(ctx),
          });
        }),
      );
    }),
    { prefix: GATEWAY_PREFIX },
  );
}
