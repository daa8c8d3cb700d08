// The requests `npm run bench:api` makes itself, outside the measured load: the set-up calls, the
// recording of our answers and the check of the bare server's replay.
import http from 'node:http';

/**
 * A request whose answer is kept as raw bytes: node:http neither adds an accept-encoding header nor
 * decodes a compressed body, unlike fetch, so the bytes are those autocannon's requests get.
 * @param {string} url @param {Record<string, string>} headers
 * @param {{ method?: 'GET' | 'POST', body?: string }} [request]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }>}
 */
export function rawRequest(url, headers, { method = 'GET', body } = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent: false }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A JSON call of the set-up (sign-in, the gateway app and its key).
 * @param {string} url @param {{ body: unknown, token?: string, cookie: string }} options
 * @returns {Promise<Record<string, any>>}
 */
export async function postJson(url, { body, token, cookie }) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = /** @type {Record<string, any>} */ (await response.json());
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
