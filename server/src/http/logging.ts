import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// What the log keeps of a request. A key sent in a query string is refused, but the request
// line was logged whole before that: the URL and the headers that carry credentials are written
// with their secrets replaced.

const REDACTED = '[redacted]';

/** Query parameters whose value is a secret by their name: api_key, token, password, sig… */
const SECRET_PARAMETER =
  /key|token|secret|passw|pwd|signature|^sig$|auth|session|cookie|credential/i;

/** An API key or a webhook secret, whatever carries it. */
const SECRET_TEXT = /(?:csl_live_|csl_test_|whsec_)[^&#/?\s]*/gi;

/** A refund's claim link: whoever holds the token in its path chooses where the money goes. */
const CLAIM_LINK = /^\/refund\/[^/?#]+/;

/** The headers that carry credentials, wherever a log line holds a request's headers. */
const SECRET_HEADERS = ['authorization', 'x-api-key', 'cookie', 'set-cookie'];

function parameterName(part: string): string {
  const name = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * `url` with the values of its secret query parameters, any key text and a claim link's token
 * `[redacted]`.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  let redacted = url;
  if (start !== -1) {
    const query = url
      .slice(start + 1)
      .split('&')
      .map((part) =>
        part.includes('=') && SECRET_PARAMETER.test(parameterName(part))
          ? `${part.split('=', 1)[0] ?? ''}=${REDACTED}`
          : part,
      )
      .join('&');
    redacted = `${url.slice(0, start)}?${query}`;
  }
  return redacted.replace(SECRET_TEXT, REDACTED).replace(CLAIM_LINK, `/refund/${REDACTED}`);
}

/**
 * Fastify's default request fields (fastify/lib/logger-pino.js), the URL redacted. Pino applies
 * it to whatever a line logs as `req`, so it takes what it finds.
 */
function requestForLog(request: Partial<FastifyRequest>) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : undefined,
    version: Array.isArray(version) ? version.join(', ') : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The app's logger options: `given` (tests pass a stream) or the configured level, with the
 * request serializer above and the credential headers censored in any logged `headers`.
 */
export function loggerOptions(
  given: FastifyServerOptions['logger'],
  level: string,
): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const options = typeof given === 'object' ? given : { level };
  return {
    ...options,
    serializers: { req: requestForLog, ...options.serializers },
    redact: {
      paths: SECRET_HEADERS.flatMap((name) => [`req.headers["${name}"]`, `headers["${name}"]`]),
      censor: REDACTED,
    },
  };
}
