import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import responseValidation from '@fastify/response-validation';
import openapiGlue from 'fastify-openapi-glue';
import type { ResolvedConfig } from './config';
import {
  CHECKOUT_ASSETS_PREFIX,
  CHECKOUT_PREFIX,
  CHECKOUT_RATE_LIMIT_GROUP,
  registerCheckout,
} from './checkout/plugin';
import { LINK_PREFIX, registerLinks } from './checkout/links';
import { REFUND_CLAIM_RATE_LIMIT_GROUP, REFUND_PREFIX, registerClaims } from './checkout/claims';
import { registerSimulations } from './checkout/simulate';
import { createAppContext } from './context';
import type { Db } from './db/connection';
import type { Clock } from './domain/time';
import { gatewayRateLimitKey } from './gateway/auth';
import { registerGateway } from './gateway/plugin';
import { GATEWAY_PREFIX } from './http/prefixes';
import { buildServiceHandlers } from './portal';
import type { HandlerMap } from './http/operationTypes';
import { applyBodyPolicy, readsNoBody, securityBeforeBody } from './http/bodyPolicy';
import { HttpError, MSG, badRequest, envelope } from './http/errors';
import { SURROGATE_ESCAPE, wholeText } from './http/unicodeText';
import { clientErrorHandler, errorHandler } from './http/errorHandler';
import { registerHealth } from './http/health';
import { registerAddressPoolGauge, registerJobGauges } from './http/jobMetrics';
import { resolveWalletXpub } from './domain/chain/walletKey';
import { loggerOptions } from './http/logging';
import { registerProviderCounters, registerWatcherGauges } from './http/watcherMetrics';
import { addMessageCodes } from './http/messageCodes';
import { registerMetrics } from './http/metrics';
import { registerMultipart, takesUploads } from './http/multipart';
import { GATEWAY_RATE_LIMIT_GROUP, databaseRateLimitStore } from './http/rateLimitStore';
import { COMPRESSION, sendKeptEncoded, serializeAnswer } from './http/keptAnswers';
import { fastifyTrustProxy, forwardedForWarning } from './http/trustProxy';
import { buildSecurityHandlers, strictTransportSecurity } from './http/security';
import { ajvsFor, createValidatorCompiler } from './http/validation';
import { isApiUrl, registerWeb, wantsSpaShell, webAvailable } from './http/web';
import { xsrfSetCookie } from './http/xsrf';
import { shareMetaSchemaValidators } from './openapi/metaSchema';
import { shareDocumentParses } from './openapi/sharedParses';
import { loadSpecification, mediaTypesIn, withOperations } from './openapi/spec';
import { newId } from './domain/ids';
import { OPENAPI_PATH } from './paths';
import { named } from './http/contexts';

export const API_PREFIX = '/api';
/** Sign-in and password recovery operations get the stricter AUTH_RATE_LIMIT_MAX budget. */
export const AUTH_RATE_LIMITED_OPERATIONS: readonly string[] = [
  'preLogin',
  'login',
  'requestPasswordReset',
  'resetPassword',
];

// Cheap defaults for every answer (API and SPA); the SPA's CSP is http/web.ts SPA_CSP.
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/**
 * Defaults for every /api answer, errors included. No /api answer is worth caching: most are one
 * account's data, and the anonymous ones (sign-in steps, registration, error envelopes) are
 * per-request too, so all of them are `no-store` rather than only those with a session: that
 * also covers a shared proxy keeping an answer to a request whose session turned out dead. The
 * image route sets its own (avatars are public and named once). A JSON answer opened as a
 * document may run nothing and be framed by no one.
 */
const API_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

export interface BuildAppOptions {
  config: ResolvedConfig;
  db: Db;
  /** Fastify logger options; defaults to `{ level: config.logLevel }`; secrets redacted either way. */
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  /** openapi.yaml to serve (tests may pass a fixture). */
  specification?: string;
  /** Directory of the built SPA to serve with history fallback (main passes dist/web). */
  webDir?: string;
  /** Directory of the built gateway reference page (main passes dist/gateway-docs). */
  gatewayDocsDir?: string;
  /** Directory of the checkout page's built script and style sheet (main passes dist/checkout). */
  checkoutDir?: string;
  /** How often the checkout's status feed looks for changes (ms; tests make it short). */
  checkoutFeedTickMs?: number;
  /** Test seam: handlers that replace the tag modules' ones for the given operationIds. */
  handlerOverrides?: HandlerMap;
}

/** The operations of the portal's main context: all but those that take uploads. */
const takesNoUploads: typeof takesUploads = (operation) => !takesUploads(operation);

function operationIdOf(schema: unknown): string | undefined {
  const id = (schema as { operationId?: unknown } | undefined)?.operationId;
  return typeof id === 'string' ? id : undefined;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const ctx = createAppContext(config, db, options.clock);
  const spec = loadSpecification(options.specification ?? OPENAPI_PATH);
  shareMetaSchemaValidators();
  shareDocumentParses();

  const app = Fastify({
    // Secrets in a request's URL or headers never reach the log (http/logging.ts).
    logger: loggerOptions(options.logger, config.logLevel),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    exposeHeadRoutes: false,
    // Unique across processes and restarts (Fastify's default counts from 1 in each process): the
    // gateway hands it to merchants as their answer's request id.
    genReqId: () => newId('req'),
    bodyLimit: 1024 * 1024,
    // Fastify's default (100) answers a longer path parameter with a bare 414; let the schema
    // refuse it with a 422 in the envelope instead. A trailing slash reaches the operation
    // without it (`/deposits/` was `/deposits/{id}` with an empty id).
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    // Refusals made before any route runs (bad URL encoding, unreadable headers) answer in the
    // error envelope too.
    frameworkErrors: errorHandler,
    clientErrorHandler,
  });

  const ajvs = ajvsFor(spec.document);
  app.setValidatorCompiler(createValidatorCompiler(ajvs));
  // Plain JSON.stringify: fast-json-stringify would silently drop properties the schema lacks;
  // response validation (below) reports them instead. Handlers build explicit response objects.
  // Kept answers are sent as their kept bytes (http/keptAnswers.ts). Fastify's reply takes a
  // serializer's string or Buffer alike (reply.js onSendEnd); only its typing says string.
  app.setSerializerCompiler(() => serializeAnswer as (data: unknown) => string);
  app.setErrorHandler(errorHandler);

  // An empty body with `Content-Type: application/json` is no body (logout sends exactly that).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // Only a \u escape can write half of a surrogate pair (the bytes are read as UTF-8), so only
    // a body with a surrogate's escape is looked through.
    if (!SURROGATE_ESCAPE.test(text)) return parseJson(request, text, done);
    parseJson(request, text, (error, value) => {
      if (error || wholeText(value)) done(error, value);
      else done(badRequest(MSG.malformedJson), undefined);
    });
  });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('sessionCreatedAt', null);
  app.decorateRequest('stepUser', null);
  app.decorateRequest('stepTokenId', null);
  // What this process keeps holds for commits of other processes made before the request
  // arrived (db/ownerChanges.ts; on SQLite a read of the wal-index header), heard of once per
  // turn of the event loop that reads requests, at the first use of anything kept after the
  // turn's first request: the requests a turn reads had arrived when its poll for input
  // returned, so before that check. The exceptions (a request pipelined behind another, or one
  // a turn with over 1,024 ready sockets polls for again) may miss a commit made during that
  // turn: a window the size of PostgreSQL's notification delay.
  let arrivalsMarked = false;
  const turnOver = () => {
    arrivalsMarked = false;
  };
  const warnForwardedFor = config.trustProxy === false ? forwardedForWarning() : undefined;
  // Callback style: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    warnForwardedFor?.(request);
    if (!arrivalsMarked) {
      arrivalsMarked = true;
      setImmediate(turnOver);
      ctx.changes?.requestsArrived();
    }
    reply.headers(SECURITY_HEADERS);
    const hsts = strictTransportSecurity(request);
    if (hsts !== undefined) reply.header('strict-transport-security', hsts);
    if (isApiUrl(request.url)) reply.headers(API_HEADERS);
    const xsrf = xsrfSetCookie(request);
    if (xsrf !== undefined) reply.header('set-cookie', xsrf);
    done();
  });

  // The contract says which operations may answer 429; the others are never limited. Today that
  // is the countries, kept in memory: a refusal cost 62 µs of CPU against 39 for the answer it
  // would refuse (one process), so limiting it would shed no load, only add cost.
  const unlimitedOperations = new Set(
    spec.operations.filter((op) => !op.rateLimited).map((op) => op.operationId),
  );
  // onRoute order matters: config + body policy, then the rate limiter's hook, then security.
  app.addHook('onRoute', (route) => {
    // Fastify reads no body of a GET: nothing to decompress (@fastify/compress's hooks otherwise).
    if (readsNoBody(route)) route.decompress = false;
    if (route.url.startsWith(GATEWAY_PREFIX)) {
      // Each API key has one budget (gateway/auth.ts) for every operation (the group; each
      // route had its own before), shared by every process.
      route.config = {
        ...route.config,
        rateLimit: {
          max: config.rateLimit.gatewayMax,
          timeWindow: config.rateLimit.windowMs,
          keyGenerator: gatewayRateLimitKey,
          groupId: GATEWAY_RATE_LIMIT_GROUP,
        },
      };
      return;
    }
    if (route.url.startsWith(`${CHECKOUT_PREFIX}/`) || route.url.startsWith(`${LINK_PREFIX}/`)) {
      // One budget per client address for the checkout's pages and status answers, and payment
      // links' pages (its assets are files named by their content, cached for good). The
      // invoices a link's page makes have a budget of their own besides (checkout/links.ts).
      route.config = {
        ...route.config,
        rateLimit: route.url.startsWith(CHECKOUT_ASSETS_PREFIX)
          ? false
          : {
              max: config.rateLimit.checkoutMax,
              timeWindow: config.rateLimit.windowMs,
              groupId: CHECKOUT_RATE_LIMIT_GROUP,
            },
      };
      return;
    }
    if (route.url.startsWith(`${REFUND_PREFIX}/`)) {
      // A refund's claim page and its form: a budget per client address of their own.
      route.config = {
        ...route.config,
        rateLimit: {
          max: config.rateLimit.refundClaimMax,
          timeWindow: config.rateLimit.windowMs,
          groupId: REFUND_CLAIM_RATE_LIMIT_GROUP,
        },
      };
      return;
    }
    if (!route.url.startsWith(API_PREFIX)) {
      route.config = { ...route.config, rateLimit: false };
      return;
    }
    const operationId = operationIdOf(route.schema) ?? '';
    if (unlimitedOperations.has(operationId)) {
      route.config = { ...route.config, rateLimit: false };
    } else if (AUTH_RATE_LIMITED_OPERATIONS.includes(operationId)) {
      route.config = {
        ...route.config,
        rateLimit: { max: config.rateLimit.authMax, timeWindow: config.rateLimit.windowMs },
      };
    }
    applyBodyPolicy(route);
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    // Counts shared by every process on the database; a store error lets the request through
    // (logged: see http/rateLimitStore.ts for why failing open).
    store: databaseRateLimitStore(db, ctx.clock, app.log),
    skipOnError: true,
    // RateLimit-Limit/-Remaining/-Reset (IETF draft names) on every answer, so a gateway client
    // paces itself before it meets a 429.
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, `Too many requests, please try again in ${context.after}.`),
  });
  app.addHook('onRoute', securityBeforeBody);

  if (config.responseValidation) {
    await app.register(responseValidation, { ajv: ajvs.response });
  }

  await app.register(compress, { global: true, ...COMPRESSION });
  // Before the plugin's own onSend (a route's hooks run after the instance's): kept answers go
  // out compressed from bytes made once (http/keptAnswers.ts).
  app.addHook('onSend', sendKeptEncoded);

  // The portal's messages get their codes (`codes`), for a client in another language.
  app.addHook('preSerialization', addMessageCodes);

  const glue = {
    prefix: API_PREFIX,
    serviceHandlers: buildServiceHandlers(ctx, spec.operations, app.log, options.handlerOverrides),
    securityHandlers: buildSecurityHandlers(ctx),
  };
  // Multipart parsing in a context of its own, with only the operations that take uploads: the
  // plugin hooks every route of its context (three async hooks and a 'close' listener a
  // request), about a tenth of a kept read's CPU on routes that can never receive a file.
  await app.register(
    named('uploads', async (uploads) => {
      await registerMultipart(uploads);
      await uploads.register(openapiGlue, {
        ...glue,
        specification: withOperations(spec.document, takesUploads),
      });
    }),
  );

  // glue warns about media types without a parser (e.g. image/png answers); those can never be
  // request bodies here, so give them a parser that refuses, as Fastify would.
  // (The uploads context above copied the parsers before these: it keeps multipart's own.)
  for (const type of mediaTypesIn(spec.document)) {
    if (app.hasContentTypeParser(type)) continue;
    app.addContentTypeParser(type, (_request, _payload, done) =>
      done(new HttpError(415, MSG.unsupportedMediaType), undefined),
    );
  }

  await app.register(openapiGlue, {
    ...glue,
    specification: withOperations(spec.document, takesNoUploads),
  });

  await registerGateway(app, ctx, options.gatewayDocsDir);
  await registerCheckout(app, ctx, {
    assetsDir: options.checkoutDir,
    feedTickMs: options.checkoutFeedTickMs,
    refreshSeconds: config.checkoutRefreshSeconds,
  });
  await registerLinks(app, ctx, { assetsDir: options.checkoutDir });
  await registerSimulations(app, ctx, { assetsDir: options.checkoutDir });
  await registerClaims(app, ctx, { assetsDir: options.checkoutDir });

  // Operator routes outside /api: after the onRoute hooks (no rate limit: load balancers and
  // Prometheus poll them) and after compression, which attaches itself as routes are added.
  // The metrics hook still counts every route (Fastify binds root hooks when it gets ready);
  // `app.metrics` lets the code that builds the app register gauges.
  registerHealth(app, db, { lagDegradedSeconds: config.chainLagDegradedSeconds, clock: ctx.clock });
  registerMetrics(app, { token: config.metricsToken });
  registerJobGauges(app.metrics, db, ctx.clock);
  registerAddressPoolGauge(app.metrics, db, resolveWalletXpub(config));
  registerWatcherGauges(app.metrics, db, config, ctx.clock);
  const stopProviderCounters = registerProviderCounters(app.metrics);
  app.addHook('onClose', async () => {
    stopProviderCounters();
  });

  const webDir = options.webDir && webAvailable(options.webDir) ? options.webDir : undefined;
  const spaShell = webDir ? await registerWeb(app, webDir) : undefined;

  // Callback style: returning the reply from an async handler while sendFile streams makes
  // Fastify await the reply and pile up 'close' listeners.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    if (spaShell && wantsSpaShell(request)) {
      spaShell(request.url, reply);
      return;
    }
    void reply.code(404).send(envelope(MSG.notFound));
  });

  return app;
}
