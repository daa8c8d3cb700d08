import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod } from '../../test/appRows';
import type { TestApp } from '../../test/testApp';
import { withTestApp } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// TRUST_PROXY against the gateway's IP whitelist: whatever a client writes in X-Forwarded-For,
// the address checked is the one the server (or the proxies it trusts) saw.
// test:pg leaves this file to SQLite: the address a request came from, decided before any query.

// Each test builds an app of its own (migrations and seed), slow on a busy PostgreSQL.
jest.setTimeout(60_000);

const CLIENT = '203.0.113.7';
const WHITELISTED = '198.51.100.9';
const PROXY = '10.0.0.2';

/** An app that lets in WHITELISTED only, and a key of it that may read methods. */
async function whitelistedKey(t: TestApp): Promise<string> {
  const now = t.clock().toISOString();
  const userId = await addUser(t, 'merchant_proxy');
  await insertApp(t, {
    id: 'app_proxy',
    user_id: userId,
    created_at: now,
    whitelist_ip: WHITELISTED,
  });
  await insertAppMethod(t, { id: 'apm_proxy', app_id: 'app_proxy' });
  const key = newApiKey();
  await t.db
    .insertInto('api_keys')
    .values({
      id: 'key_proxy',
      app_id: 'app_proxy',
      token_name: 'Server',
      token_hash: key.hash,
      token_prefix: key.prefix,
      abilities: JSON.stringify(['methods:read']),
      created_at: now,
    })
    .execute();
  return key.key;
}

/** GET /methods arriving from `peer`, with the X-Forwarded-For it carries (if any). */
const methods = (t: TestApp, key: string, peer: string, forwardedFor?: string) =>
  t.inject({
    method: 'GET',
    url: '/gateway/v1/methods',
    headers: {
      authorization: `Bearer ${key}`,
      ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
    },
    remoteAddress: peer,
  });

const refusedAs = (address: string) => ({
  error: {
    code: 'ip_not_allowed',
    doc_url: docUrl('ip_not_allowed'),
    message: `The address ${address} is not in this app's IP whitelist.`,
    request_id: REQUEST_ID,
  },
});

/** The app's warning lines, as JSON objects. */
function capturedLog() {
  const lines: { level: number; msg: string; peer?: string }[] = [];
  const logger = {
    level: 'warn',
    stream: { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) },
  };
  return { lines, logger };
}

describe('TRUST_PROXY and the gateway whitelist', () => {
  it('off (the default): X-Forwarded-For is ignored, and said once in the log', async () => {
    const { lines, logger } = capturedLog();
    await withTestApp({ logger }, async (t) => {
      const key = await whitelistedKey(t);
      const forged = await methods(t, key, CLIENT, WHITELISTED);
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual(refusedAs(CLIENT));
      expect((await methods(t, key, CLIENT, `${WHITELISTED}, ${WHITELISTED}`)).statusCode).toBe(
        403,
      );
      expect((await methods(t, key, WHITELISTED)).statusCode).toBe(200);

      const warnings = lines.filter((line) => /X-Forwarded-For/.test(line.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, peer: CLIENT });
      expect(warnings[0]?.msg).toMatch(/TRUST_PROXY is off/);
    });
  });

  it('one hop: a hop the client forges before the proxy is not believed', async () => {
    const { lines, logger } = capturedLog();
    await withTestApp({ env: { TRUST_PROXY: '1' }, logger }, async (t) => {
      const key = await whitelistedKey(t);
      // The client wrote the whitelisted address; the proxy appended the one it saw.
      const forged = await methods(t, key, PROXY, `${WHITELISTED}, ${CLIENT}`);
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual(refusedAs(CLIENT));
      // The whitelisted client through the same proxy is let in: the proxy's hop is read.
      expect((await methods(t, key, PROXY, WHITELISTED)).statusCode).toBe(200);
      expect(lines.filter((line) => /X-Forwarded-For/.test(line.msg))).toEqual([]);
    });
  });

  it('a list of proxies: only their hops are believed, and only when they are the peer', async () => {
    await withTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } }, async (t) => {
      const key = await whitelistedKey(t);
      const forged = await methods(t, key, PROXY, `${WHITELISTED}, ${CLIENT}`);
      expect(forged.json()).toEqual(refusedAs(CLIENT));
      // Around the proxy: the client is the peer, and not a trusted one.
      const direct = await methods(t, key, CLIENT, WHITELISTED);
      expect(direct.json()).toEqual(refusedAs(CLIENT));
      // Two trusted proxies in a row, then the whitelisted client.
      expect((await methods(t, key, PROXY, `${WHITELISTED}, 10.0.0.3`)).statusCode).toBe(200);
    });
  });
});
