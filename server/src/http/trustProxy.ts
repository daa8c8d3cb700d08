import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config';

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count becomes a function: Fastify 5 reads a plain
 * number as "trust nothing". Hop 0 is the peer itself, so n hops believe the last n entries of
 * X-Forwarded-For added by the proxies, and whatever the client wrote before them is ignored.
 */
export function fastifyTrustProxy(setting: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return [...setting];
}

/**
 * With TRUST_PROXY off, says once that requests carry X-Forwarded-For: behind a proxy, every
 * client then shares the proxy's address (one rate limit, one sign-in brake, whitelists that
 * see the proxy); otherwise someone is trying to choose their address. Called by app.ts's
 * onRequest hook (a hook of its own cost a promise per request).
 */
export function forwardedForWarning(): (request: FastifyRequest) => void {
  let warned = false;
  return (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn(
      { peer: request.ip },
      'A request carries X-Forwarded-For while TRUST_PROXY is off: it is ignored, and the client' +
        ' address is the peer. Behind a reverse proxy, set TRUST_PROXY to the number of proxies' +
        ' or their addresses (docs/operations.md, Configuration). Said once.',
    );
  };
}
