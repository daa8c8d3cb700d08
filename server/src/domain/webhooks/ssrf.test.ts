import { loadConfig } from '../../config';
import { addUser } from '../../../test/accounts';
import { expectFieldErrors } from '../../../test/expectations';
import { testAppPerBlock, withTestApp } from '../../../test/withTestApp';
import { postWebhook } from './send';
import { assertWebhookUrlAllowed, forbiddenAddress, pickTarget, type Resolver } from './ssrf';

// The SSRF guard: a Webhook URl that is, or resolves to, an address of the server's own network
// is refused when saved and again at send time.

describe('forbiddenAddress', () => {
  // Every form tried so far: only global unicast may receive webhooks.
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.254', 'shared (carrier-grade NAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local / metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard-only'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2002:7f00:1::', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['4000::1', 'not global unicast'],
    // IPv4 inside IPv6: mapped forms are judged as their IPv4, other embeddings refused.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local / metadata'],
    ['::ffff:a9fe:a9fe', 'link-local / metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::7f00:1', 'NAT64 (local use)'],
    ['64:ff9b:1::8.8.8.8', 'NAT64 (local use)'],
  ])('refuses %s (%s)', (ip, kind) => {
    expect(forbiddenAddress(ip)).toBe(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '198.20.0.1',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    // NAT64's well-known prefix reaches the IPv4 it embeds (DNS64 networks).
    '64:ff9b::8.8.8.8',
  ])('allows %s', (ip) => {
    expect(forbiddenAddress(ip)).toBeNull();
  });

  it.each(['', 'localhost', '1.2.3', '::ffff:1.2.3.4.5', 'fe80::1::2'])(
    'refuses %j, which is not an IP address',
    (text) => {
      expect(forbiddenAddress(text)).toBe('not an IP address');
    },
  );
});

describe('assertWebhookUrlAllowed and pickTarget', () => {
  const strict = (resolve: Resolver) => ({ allowPrivate: false, resolve });
  const nowhere: Resolver = async () => {
    throw new Error('getaddrinfo ENOTFOUND');
  };
  const message = (address: string, kind: string) =>
    `Webhook URl must reach a public address: ${address} is ${kind}.`;

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'link-local / metadata'],
    ['http://0x7f000001/', '127.0.0.1', 'loopback'],
    ['http://2130706433:8080/hook', '127.0.0.1', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1', 'loopback'],
    ['https://[::1]/', '::1', 'loopback'],
    ['http://0.0.0.0/', '0.0.0.0', 'unspecified'],
    ['http://10.0.0.5/x', '10.0.0.5', 'private'],
    ['http://[::ffff:0:127.0.0.1]/hook', '::ffff:0:7f00:1', 'IPv4-translated'],
    ['http://[64:ff9b:1::7f00:1]/hook', '64:ff9b:1::7f00:1', 'NAT64 (local use)'],
    ['http://[2002:7f00:1::]/hook', '2002:7f00:1::', '6to4'],
    ['http://[fec0::1]/hook', 'fec0::1', 'site-local'],
    ['http://[::127.0.0.1]/hook', '::7f00:1', 'IPv4-compatible'],
    ['http://[::ffff:7f00:1]/hook', '::ffff:7f00:1', 'loopback'],
    ['http://[2001::1]/hook', '2001::1', 'Teredo'],
    ['http://[fd00::1]/hook', 'fd00::1', 'unique-local'],
    ['http://[fe80::]/hook', 'fe80::', 'link-local'],
    ['http://[ff02::1]/hook', 'ff02::1', 'multicast'],
    ['http://100.64.0.1/hook', '100.64.0.1', 'shared (carrier-grade NAT)'],
    ['http://198.18.0.1/hook', '198.18.0.1', 'reserved'],
    ['http://255.255.255.255/hook', '255.255.255.255', 'broadcast'],
    ['http://192.0.2.1/hook', '192.0.2.1', 'reserved'],
    ['http://[2001:db8::1]/hook', '2001:db8::1', 'reserved'],
  ])('refuses %s when saved', async (url, address, kind) => {
    await expect(assertWebhookUrlAllowed(url, strict(nowhere))).rejects.toMatchObject({
      errors: { callback_url: [message(address, kind)] },
    });
  });

  it('refuses a name that resolves to a private address, accepts one that does not resolve', async () => {
    const toPrivate: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.0.7', family: 4 },
    ];
    await expect(
      assertWebhookUrlAllowed('https://hooks.shop.test/in', strict(toPrivate)),
    ).rejects.toMatchObject({ errors: { callback_url: [message('192.168.0.7', 'private')] } });
    await expect(
      assertWebhookUrlAllowed('https://offline.shop.test/in', strict(nowhere)),
    ).resolves.toBeUndefined();
    // ... and checked again when sent.
    expect(await pickTarget('offline.shop.test', strict(nowhere))).toEqual({
      ok: false,
      reason: 'DNS lookup of offline.shop.test failed: getaddrinfo ENOTFOUND',
    });
    expect(await pickTarget('hooks.shop.test', strict(toPrivate))).toEqual({
      ok: false,
      reason: message('192.168.0.7', 'private'),
    });
    const publicOnly: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];
    expect(await pickTarget('hooks.shop.test', strict(publicOnly))).toEqual({
      ok: true,
      target: { address: '93.184.215.14', family: 4 },
    });
  });

  it.each([
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['64:ff9b:1::7f00:1', 'NAT64 (local use)'],
    ['2002:7f00:1::', '6to4'],
    ['fec0::1', 'site-local'],
    ['::7f00:1', 'IPv4-compatible'],
  ])('refuses a name that resolves to %s (%s), when saved and when sent', async (address, kind) => {
    const rebound: Resolver = async () => [{ address, family: 6 }];
    await expect(
      assertWebhookUrlAllowed('https://hooks.shop.test/in', strict(rebound)),
    ).rejects.toMatchObject({ errors: { callback_url: [message(address, kind)] } });
    expect(await pickTarget('hooks.shop.test', strict(rebound))).toEqual({
      ok: false,
      reason: message(address, kind),
    });
  });

  it.each([
    ['http://[::ffff:0:127.0.0.1]:9/hook', '::ffff:0:7f00:1', 'IPv4-translated'],
    ['http://[64:ff9b:1::7f00:1]:9/hook', '64:ff9b:1::7f00:1', 'NAT64 (local use)'],
    ['http://[2002:7f00:1::]:9/hook', '2002:7f00:1::', '6to4'],
    ['http://[fec0::1]:9/hook', 'fec0::1', 'site-local'],
  ])(
    'does not connect to %s when a delivery is sent (saved before it was refused)',
    async (url, address, kind) => {
      const sent = await postWebhook(url, {}, '{}', {
        policy: strict(nowhere),
        timeoutMs: 1_000,
        now: 0,
      });
      expect(sent).toMatchObject({ outcome: 'refused', error: message(address, kind) });
    },
  );

  it('allows anything with WEBHOOK_ALLOW_PRIVATE', async () => {
    const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const open = { allowPrivate: true, resolve: loopback };
    await expect(assertWebhookUrlAllowed('http://127.0.0.1:9/', open)).resolves.toBeUndefined();
    expect(await pickTarget('receiver.test', open)).toMatchObject({ ok: true });
  });
});

describe('the Webhook URl in Merchant Setting', () => {
  const t = testAppPerBlock();
  const body = (callback_url: string) => ({
    app_name: 'Hooked',
    project_url: 'https://shop.example.com',
    callback_url,
  });

  it('refuses the metadata address and a name resolving to loopback, with a message', async () => {
    await addUser(t, 'ssrf');
    const headers = await t.authHeader('ssrf');
    const metadata = await t.call('createApp', {
      headers,
      body: body('http://169.254.169.254/latest/meta-data/'),
    });
    expectFieldErrors(metadata, {
      callback_url: [
        'Webhook URl must reach a public address: 169.254.169.254 is link-local / metadata.',
      ],
    });
    const local = await t.call('createApp', { headers, body: body('http://localhost:8080/hook') });
    expect(local.statusCode).toBe(422);
    expect(local.json().errors.callback_url[0]).toMatch(
      /^Webhook URl must reach a public address: (127\.0\.0\.1|::1) is loopback\.$/,
    );
  });

  it('refuses IPv4 hidden in IPv6 and site-local, as the save-time check of the portal', async () => {
    await addUser(t, 'ssrf_v6');
    const headers = await t.authHeader('ssrf_v6');
    for (const [url, refusal] of [
      ['http://[::ffff:0:127.0.0.1]/hook', '::ffff:0:7f00:1 is IPv4-translated'],
      ['http://[64:ff9b:1::7f00:1]/hook', '64:ff9b:1::7f00:1 is NAT64 (local use)'],
      ['http://[2002:7f00:1::]/hook', '2002:7f00:1:: is 6to4'],
      ['http://[fec0::1]/hook', 'fec0::1 is site-local'],
    ] as const) {
      const res = await t.call('createApp', { headers, body: body(url) });
      expectFieldErrors(res, {
        callback_url: [`Webhook URl must reach a public address: ${refusal}.`],
      });
    }
  });

  it('accepts a loopback receiver with WEBHOOK_ALLOW_PRIVATE=1', async () => {
    await withTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } }, async (dev) => {
      await addUser(dev, 'ssrf_dev');
      const created = await dev.call('createApp', {
        headers: await dev.authHeader('ssrf_dev'),
        body: body('http://127.0.0.1:8080/hook'),
      });
      expect(created.statusCode).toBe(200);
    });
  }, 60_000);
});

describe('webhook settings', () => {
  it('keeps private targets off by default and out of production; reads a retry schedule and the test events a minute', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivate: false,
      retryScheduleMs: undefined,
      bodyRetentionDays: 60,
      testEventsPerMinute: 5,
    });
    expect(loadConfig({ WEBHOOK_TEST_EVENTS_PER_MINUTE: '60' }).webhooks.testEventsPerMinute).toBe(
      60,
    );
    expect(() => loadConfig({ WEBHOOK_TEST_EVENTS_PER_MINUTE: '0' })).toThrow(
      'WEBHOOK_TEST_EVENTS_PER_MINUTE',
    );
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: '1' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE is for development and tests, not production',
    );
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '500ms, 5s,2m,1h' }).webhooks).toEqual({
      allowPrivate: false,
      retryScheduleMs: [500, 5_000, 120_000, 3_600_000],
      bodyRetentionDays: 60,
      testEventsPerMinute: 5,
    });
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5 days' })).toThrow(
      "WEBHOOK_RETRY_SCHEDULE takes waits such as 5s,5m,2h separated by commas, got '5 days'",
    );
  });
});
