import type { FastifyInstance, FastifyRequest } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { AppContext } from '../context';
import { ajvsFor, createValidatorCompiler } from '../http/validation';
import { isObject, loadSpecification } from '../openapi/spec';
import { GATEWAY_OPENAPI_PATH } from '../paths';
import { gatewayAuthenticator } from './auth';
import { registerGatewayDocs } from './docs';
import { GatewayError, gatewayErrorHandler } from './errors';
import { gatewayHandlers } from './handlers';

/** Where the gateway API is served; the version is in the path, as integrators pin it. */
export const GATEWAY_PREFIX = '/gateway/v1';

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

/**
 * Every gateway body is required, and Fastify validates only a body it parsed: an absent or
 * empty one is refused here instead of reaching a handler without it.
 */
async function requireBody(request: FastifyRequest): Promise<void> {
  if (request.body !== undefined) return;
  if (request.headers['content-type'] === undefined) {
    throw new GatewayError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  throw new GatewayError(400, 'bad_request', 'The request has no body: send a JSON object.');
}

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
    async (gateway) => {
      gateway.decorateRequest('gatewayKey', null);
      gateway.setErrorHandler(gatewayErrorHandler);
      gateway.setNotFoundHandler((_request, reply) => {
        void reply
          .code(404)
          .send({ error: { code: 'not_found', message: 'No such gateway operation.' } });
      });
      gateway.get('/openapi.json', (_request, reply) => {
        void reply.type('application/json; charset=utf-8').send(published);
      });
      registerGatewayDocs(gateway, docsDir);

      await gateway.register(async (operations) => {
        operations.setValidatorCompiler(createValidatorCompiler(ajvsFor(spec.document)));
        const authenticate = gatewayAuthenticator(ctx);
        operations.addHook('onRoute', (route) => {
          const operationId = (route.schema as { operationId?: unknown } | undefined)?.operationId;
          const ability = typeof operationId === 'string' ? abilities.get(operationId) : undefined;
          if (ability) route.config = { ...route.config, ability };
          // After the rate limiter's hook on the route (unknown keys are limited too), before
          // the body is read.
          const earlier = route.onRequest ?? [];
          route.onRequest = [...(Array.isArray(earlier) ? earlier : [earlier]), authenticate];
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
      });
    },
    { prefix: GATEWAY_PREFIX },
  );
}
