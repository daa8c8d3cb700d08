import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pickTarget, urlHost, type TargetPolicy } from './ssrf';

// One POST of a delivery. node:http never follows a redirect (a 3xx is an answer like any
// other), and the connection goes to the address pickTarget checked: the name is not resolved
// a second time, so it cannot be rebound between the check and the connect.

/** What a receiver may answer that we keep (View Details shows it). */
const EXCERPT_BYTES = 2048;

export type SendOutcome = 'delivered' | 'http_error' | 'network_error' | 'timeout' | 'refused';

export interface SendResult {
  outcome: SendOutcome;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  /** Retry-After of the answer, in ms, when it gave one. */
  retryAfterMs: number | null;
}

/** Retry-After: delay-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { policy: TargetPolicy; timeoutMs: number; now: number },
): Promise<SendResult> {
  const fail = (outcome: SendOutcome, error: string): SendResult => ({
    outcome,
    statusCode: null,
    error,
    excerpt: null,
    retryAfterMs: null,
  });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('refused', 'The Webhook URl is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return fail('refused', 'The Webhook URl must be http or https');
  }
  const picked = await pickTarget(urlHost(url), options.policy);
  if (!picked.ok) return fail('refused', picked.reason);
  const { address, family } = picked.target;
  // Node asks for every address (all: true) when it may race families; one is ever answered.
  const pinned = ((_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(parsed, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinned,
      agent: false,
    });
    // The whole exchange, answer included, gets timeoutMs.
    const timer = setTimeout(() => {
      finish(fail('timeout', `No answer within ${options.timeoutMs / 1000} s`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (err) => finish(fail('network_error', err.message)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const status = response.statusCode ?? 0;
        const retryAfter = response.headers['retry-after'];
        finish({
          outcome: status >= 200 && status < 300 ? 'delivered' : 'http_error',
          statusCode: status,
          error: null,
          excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
          retryAfterMs: parseRetryAfter(
            Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            options.now,
          ),
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough kept: the rest of a large answer is not read.
        if (size >= EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
