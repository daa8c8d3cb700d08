import type { TestApp } from '../../test/testApp';
import { withTestApp } from '../../test/withTestApp';

// Strict-Transport-Security: sent on answers to requests that arrived over https, directly or
// through a proxy the server trusts (TRUST_PROXY), never on plain http.
// test:pg leaves this file to SQLite: a header of every answer, decided before any query.

// Each test builds an app of its own (migrations and seed), slow on a busy PostgreSQL.
jest.setTimeout(60_000);

const HSTS = 'max-age=31536000; includeSubDomains';
const PROXY = '10.0.0.2';
const CLIENT = '203.0.113.7';

/** The HSTS header of a portal and a gateway answer to a request from `peer`. */
async function hstsOf(t: TestApp, peer: string, headers: Record<string, string> = {}) {
  const answers = await Promise.all(
    ['/api/countries', '/gateway/v1/methods'].map((url) =>
      t.inject({ method: 'GET', url, headers, remoteAddress: peer }),
    ),
  );
  return answers.map((answer) => answer.headers['strict-transport-security']);
}

describe('Strict-Transport-Security', () => {
  it('is sent when a trusted proxy says the request came over https, never otherwise', async () => {
    await withTestApp({ env: { TRUST_PROXY: PROXY } }, async (t) => {
      expect(await hstsOf(t, PROXY, { 'x-forwarded-proto': 'https' })).toEqual([HSTS, HSTS]);
      // Plain http through the proxy, or straight to the server.
      expect(await hstsOf(t, PROXY, { 'x-forwarded-proto': 'http' })).toEqual([
        undefined,
        undefined,
      ]);
      expect(await hstsOf(t, PROXY)).toEqual([undefined, undefined]);
      // A client the server does not trust cannot claim https.
      expect(await hstsOf(t, CLIENT, { 'x-forwarded-proto': 'https' })).toEqual([
        undefined,
        undefined,
      ]);
    });
  });

  it('ignores X-Forwarded-Proto while TRUST_PROXY is off', async () => {
    await withTestApp({}, async (t) => {
      expect(await hstsOf(t, PROXY, { 'x-forwarded-proto': 'https' })).toEqual([
        undefined,
        undefined,
      ]);
    });
  });
});
