import { loadConfig } from '../../config';
import { addUser } from '../../../test/accounts';
import { expectFieldErrors } from '../../../test/expectations';
import { testAppPerBlock, withTestApp } from '../../../test/withTestApp';
import { assertWebhookUrlAllowed, forbiddenAddress, pickTarget, type Resolver } from './ssrf';

// The SSRF guard: a Webhook URl that is, or resolves to, an address of the server's own network
// is refused when saved and again at send time.

describe('forbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local / metadata'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local / metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s)', (ip, kind) => {
    expect(forbiddenAddress(ip)).toBe(kind);
  });

  it.each(['93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (ip) => {
      expect(forbiddenAddress(ip)).toBeNull();
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
  ])('refuses %s when saved', async (url, address, kind) => {
    await expect(assertWebhookUrlAllowed(url, strict(nowhere))).rejects.toMatchObject({
      errors: { callback_url: [message(address, kind)] },
    });
  });

  it('refuses a name that resolves to a private address, accepts one that does not resolve', async () => {
    const toPrivate: Resolver = async () => [
      { address: '203.0.113.9', family: 4 },
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
    const publicOnly: Resolver = async () => [{ address: '203.0.113.9', family: 4 }];
    expect(await pickTarget('hooks.shop.test', strict(publicOnly))).toEqual({
      ok: true,
      target: { address: '203.0.113.9', family: 4 },
    });
  });

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
  it('keeps private targets off by default and out of production; reads a retry schedule', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivate: false,
      retryScheduleMs: undefined,
      bodyRetentionDays: 60,
    });
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: '1' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE is for development and tests, not production',
    );
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '500ms, 5s,2m,1h' }).webhooks).toEqual({
      allowPrivate: false,
      retryScheduleMs: [500, 5_000, 120_000, 3_600_000],
      bodyRetentionDays: 60,
    });
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5 days' })).toThrow(
      "WEBHOOK_RETRY_SCHEDULE takes waits such as 5s,5m,2h separated by commas, got '5 days'",
    );
  });
});
