import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApiKey, insertApp, insertAppMethod } from '../../test/appRows';
import { createTestApp, type TestApp } from '../../test/testApp';
import { testAppPerBlock } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
/** Every gateway error links to its code's section of the reference page. */
const docUrl = (code: string) => `http://localhost:80/gateway/v1/docs#section/${code}`;

// The brake on guessed keys: failed API key checks are counted per client address (an IPv6
// one as its /64) in the database, and past GATEWAY_AUTH_FAILURE_MAX in a window the address is
// refused with 429, whatever key it sends, until the window passes.

const ATTACKER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.1';
const WINDOW_MS = 60_000;
const env = {
  GATEWAY_RATE_LIMIT_MAX: '1000',
  GATEWAY_AUTH_FAILURE_MAX: '3',
  GATEWAY_AUTH_FAILURE_WINDOW_MS: String(WINDOW_MS),
};

const methods = (t: TestApp, key: string, remoteAddress: string) =>
  t.inject({
    method: 'GET',
    url: '/gateway/v1/methods',
    headers: { authorization: `Bearer ${key}` },
    remoteAddress,
  });

/** A made-up key from `address`: its status. */
const guess = async (t: TestApp, address: string) =>
  (await methods(t, newApiKey().key, address)).statusCode;

describe('the brake on failed API key checks', () => {
  const t = testAppPerBlock({ env });
  let serial = 0;

  /** A key of an app without a whitelist that may read methods. */
  async function realKey() {
    serial += 1;
    const appId = `app_brake${serial}`;
    const userId = await addUser(t, `merchant_brake${serial}`);
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_brake${serial}`, app_id: appId });
    return insertApiKey(t, {
      id: `key_brake${serial}`,
      app_id: appId,
      abilities: ['methods:read'],
    });
  }

  it('answers 401 up to the budget, then 429 with Retry-After, per address', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push(await guess(t, ATTACKER));
    expect(statuses).toEqual([401, 401, 401]);
    const braked = await methods(t, newApiKey().key, ATTACKER);
    expect(braked.statusCode).toBe(429);
    expect(Number(braked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(braked.headers['retry-after'])).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(braked.json()).toMatchObject({
      error: {
        code: 'rate_limited',
        doc_url: docUrl('rate_limited'),
        message: expect.stringMatching(
          /^Too many requests with a missing, unknown or revoked API key from this address: try again in \d+ seconds?\.$/,
        ),
        request_id: REQUEST_ID,
      },
    });
    // Without a key, the same.
    const keyless = await t.inject({
      method: 'GET',
      url: '/gateway/v1/methods',
      remoteAddress: ATTACKER,
    });
    expect(keyless.statusCode).toBe(429);
    // Another address has its own budget.
    expect(await guess(t, NEIGHBOUR)).toBe(401);
  });

  it('refuses a braked address even with a valid key until the window passes', async () => {
    const key = await realKey();
    const from = '192.0.2.44';
    expect((await methods(t, key, from)).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) await guess(t, from);
    expect(await guess(t, from)).toBe(429);
    // A right guess must not stand out from the wrong ones.
    expect((await methods(t, key, from)).statusCode).toBe(429);
    // Elsewhere the key works.
    expect((await methods(t, key, NEIGHBOUR)).statusCode).toBe(200);
    t.clock.advance(WINDOW_MS);
    expect((await methods(t, key, from)).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 1; i <= 3; i += 1) expect(await guess(t, `2001:db8:7:1::${i}`)).toBe(401);
    expect(await guess(t, '2001:db8:7:1::99')).toBe(429);
    expect(await guess(t, '2001:db8:7:2::1')).toBe(401);
  });

  it('counts the failures of every server process together', async () => {
    const other = await createTestApp({ beside: t, env });
    try {
      const from = '192.0.2.77';
      expect(await guess(t, from)).toBe(401);
      expect(await guess(other, from)).toBe(401);
      expect(await guess(t, from)).toBe(401);
      expect(await guess(other, from)).toBe(429);
      expect(await guess(t, from)).toBe(429);
    } finally {
      await other.close();
    }
  });
});
