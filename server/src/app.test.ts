import net from 'node:net';
import { createAppContext } from './context';
import { buildServiceHandlers } from './portal';
import { loadSpecification } from './openapi/spec';
import { issueStepToken } from './domain/account/stepTokens';
import { MSG } from './http/errors';
import { resolveOptionalUser } from './http/security';
import { createTestApp, FIXTURE_SPEC, type TestApp } from '../test/testApp';
import { multipart } from '../test/multipart';
import { coded, expectFieldErrors, expectRefusal } from '../test/expectations';
import { testAppPerBlock } from '../test/withTestApp';

// The HTTP machinery against a small fixture contract (server/test/fixtures/openapi.yaml), so
// these tests do not move when features land. openapi.test.ts covers the real document.

const envelopeShape = { status: false, msg: expect.any(String), errors: expect.any(Object) };

describe('app foundation (fixture contract)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      specification: FIXTURE_SPEC,
      handlerOverrides: {
        async fxBoard(request) {
          return { status: true, msg: JSON.stringify(request.query), errors: {} };
        },
        async fxSignOut(request) {
          return { status: true, msg: `bye ${request.user?.username}`, errors: {} };
        },
        async fxUpload(request) {
          const body = request.body as Record<string, unknown>;
          const described = Object.entries(body).map(
            ([k, v]) => `${k}=${Buffer.isBuffer(v) ? `file(${v.length})` : String(v)}`,
          );
          return { status: true, msg: described.join(','), errors: {} };
        },
        async login(request) {
          return { status: true, msg: `step ok for ${request.stepUser?.username}`, errors: {} };
        },
        async fxMaybeUser(request) {
          const ctx = createAppContext(t.config, t.db, t.clock);
          const user = await resolveOptionalUser(ctx, request);
          return { status: true, msg: user ? user.username : 'anonymous', errors: {} };
        },
      },
    });
  });

  afterAll(() => t.close());

  it('answers unknown /api routes with a 404 envelope', async () => {
    // Raw URLs: no operation of the contract has these paths.
    const res = await t.inject({ method: 'GET', url: '/api/does-not-exist' });
    expectRefusal(res, 404, MSG.notFound);
    const post = await t.inject({ method: 'POST', url: '/api/nope', payload: { a: 1 } });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject(envelopeShape);
  });

  it('answers a URL that is not valid UTF-8 with a 400 envelope', async () => {
    for (const url of ['/api/%E0%A4%A', '/api/check/username/%C0%AF', '/%FF']) {
      const res = await t.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 400]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ status: false, msg: 'The URL is not valid.', errors: {} });
    }
  });

  it('answers headers too large to read (431) and other unparsable requests with an envelope', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
    const split = (text: string) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: head.split(' ')[1], head, body: JSON.parse(body) as unknown };
    };
    const huge = split(
      await raw(`GET /api/countries HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(huge.status).toBe('431');
    expect(huge.head).toMatch(/content-type: application\/json/i);
    expect(huge.body).toEqual({
      status: false,
      msg: 'Request headers are too large.',
      errors: {},
    });
    const garbage = split(await raw('NOT HTTP AT ALL\r\n\r\n'));
    expect(garbage.status).toBe('400');
    expect(garbage.body).toEqual({ status: false, msg: 'Bad request.', errors: {} });
  });

  it('will not start while an operation of the contract has no handler', () => {
    const ctx = createAppContext(t.config, t.db, t.clock);
    const { operations } = loadSpecification(FIXTURE_SPEC);
    expect(() => buildServiceHandlers(ctx, operations, t.app.log)).toThrow(
      /operations without a handler: fxListItems \(Auth\), fxCreateItem \(Auth\)/,
    );
  });

  it('refuses a secured operation without a bearer token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer sess_unknown' },
      { authorization: 'Basic x' },
    ]) {
      const res = await t.call('fxBoard', { headers });
      expectRefusal(res, 401, MSG.unauthenticated);
    }
  });

  it('authenticates before reading the body (401, not 422 or 415)', async () => {
    const res = await t.call('fxUpload', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(res.statusCode).toBe(401);
  });

  it('ends an idle session with the timed-out message', async () => {
    const auth = await t.authHeader();
    expect((await t.call('fxBoard', { headers: auth })).statusCode).toBe(200);
    // The idle time, plus the minute by which last_seen_at may lag the last use.
    t.clock.advance((t.config.sessionIdleMinutes + 1) * 60_000 + 1);
    const res = await t.call('fxBoard', { headers: auth });
    expectRefusal(res, 401, MSG.sessionTimedOut);
  });

  it('refuses a JSON operation called with another or no content type (415)', async () => {
    const plain = await t.call('fxCreateItem', {
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toMatchObject(envelopeShape);
    const none = await t.call('fxCreateItem');
    expect(none.statusCode).toBe(415);
    const form = await t.call('fxCreateItem', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a',
    });
    expect(form.statusCode).toBe(415);
    // Multipart is parsed only for the operations that take uploads (app.ts).
    const upload = await t.call('fxCreateItem', {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nA\r\n--x--\r\n',
    });
    expect(upload.statusCode).toBe(415);
    expect(upload.json()).toMatchObject(envelopeShape);
  });

  it('refuses unknown fields with 422 instead of stripping them', async () => {
    const res = await t.call('fxCreateItem', {
      body: {
        name: 'A',
        username: 'a_b',
        email: 'a@example.com',
        password: 'p',
        spassword: '1234',
        country: 'IN',
        phone: '1234567',
        is_checked: 1,
        is_admin: true,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: false,
      msg: 'The is_admin field is not allowed.',
      errors: { is_admin: ['The is_admin field is not allowed.'] },
    });
  });

  it('maps schema failures to field messages (x-messages, title, defaults)', async () => {
    const res = await t.call('fxCreateItem', {
      body: { name: 'A', email: 'nope', spassword: '12', phone: '1', is_checked: '1' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors).toMatchObject({
      username: ['Username is required'],
      email: ['Please Enter Valid email'],
      spassword: ['4 digit Pin format is invalid'],
      phone: ['Phone must be at least 6 characters'],
      // No coercion for JSON bodies; allErrors reports every broken rule.
      is_checked: ['Is checked must be of type integer', 'Is checked must be one of: 0, 1'],
      password: ['Password is required'],
    });
    expect(body.msg).toBe(Object.values<string[]>(body.errors)[0]?.[0]);
  });

  /** fxCreateItem with a body as written, declared JSON. */
  const sendJsonText = (body: string) =>
    t.call('fxCreateItem', { headers: { 'content-type': 'application/json' }, body });

  it('answers malformed JSON with 400', async () => {
    const res = await sendJsonText('{"name": ');
    expectRefusal(res, 400, MSG.malformedJson);
  });

  it('refuses prototype poisoning', async () => {
    const res = await sendJsonText('{"__proto__": {"x": 1}}');
    expect(res.statusCode).toBe(400);
  });

  it('accepts an empty body on a body-less operation, with or without a JSON content type', async () => {
    const auth = await t.authHeader();
    for (const extra of [
      { headers: { 'content-type': 'application/json' } },
      { headers: { 'content-type': 'application/json' }, body: '' },
      { headers: { 'content-type': 'application/json' }, body: '{}' },
      { headers: {} },
    ]) {
      const res = await t.call('fxSignOut', { ...extra, headers: { ...auth, ...extra.headers } });
      expect(res.statusCode).toBe(200);
      expect(res.json().msg).toBe('bye demo');
    }
  });

  it('refuses a non-empty body on a body-less operation', async () => {
    const auth = await t.authHeader();
    const json = await t.call('fxSignOut', { headers: auth, body: { everywhere: true } });
    expectFieldErrors(json, { everywhere: ['The everywhere field is not allowed.'] });
    const text = await t.call('fxSignOut', {
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.statusCode).toBe(415);
  });

  it('answers a GET as it is whatever body it carries (HTTP gives a GET body no meaning)', async () => {
    const auth = await t.authHeader();
    for (const [type, body] of [
      ['text/plain', 'x'],
      ['application/json', '{"page":2}'],
    ] as const) {
      const res = await t.call('fxBoard', { headers: { ...auth, 'content-type': type }, body });
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.json().msg)).toEqual({ page: 1 });
    }
  });

  it('coerces and defaults query parameters but validates them', async () => {
    const auth = await t.authHeader();
    const ok = await t.call('fxBoard', { query: { page: 3 }, headers: auth });
    expect(JSON.parse(ok.json().msg)).toEqual({ page: 3 });
    const def = await t.call('fxBoard', { headers: auth });
    expect(JSON.parse(def.json().msg)).toEqual({ page: 1 });
    const bad = await t.call('fxBoard', { query: { page: 0 }, headers: auth });
    expectFieldErrors(bad, { page: ['Page must be at least 1'] });
  });

  it('validates multipart bodies, files included', async () => {
    const auth = await t.authHeader();
    const send = (parts: Parameters<typeof multipart>[0]) => {
      const { payload, headers } = multipart(parts);
      return t.call('fxUpload', { body: payload, headers: { ...auth, ...headers } });
    };
    const png = Buffer.alloc(1000, 1);

    const ok = await send([
      { name: 'photo', value: png, filename: 'a.png', contentType: 'image/png' },
      { name: 'caption', value: 'hello' },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().msg).toBe('photo=file(1000),caption=hello');

    const missing = await send([{ name: 'caption', value: 'hello' }]);
    expectFieldErrors(missing, { photo: ['Photo is required'] });

    const textForFile = await send([{ name: 'photo', value: 'not a file' }]);
    expectFieldErrors(textForFile, { photo: ['Photo must be a file'] });

    const extra = await send([
      { name: 'photo', value: png, filename: 'a.png' },
      { name: 'admin', value: '1' },
    ]);
    expectFieldErrors(extra, { admin: ['The admin field is not allowed.'] });

    const two = await send([
      { name: 'photo', value: png, filename: 'a.png' },
      { name: 'photo', value: png, filename: 'b.png' },
    ]);
    expectFieldErrors(two, { photo: ['Only one file is allowed.'] });

    const big = await send([
      { name: 'photo', value: Buffer.alloc(2 * 1024 * 1024 + 1), filename: 'a.png' },
    ]);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual(
      coded({
        status: false,
        msg: 'The photo may not be greater than 2 MB.',
        errors: { photo: ['The photo may not be greater than 2 MB.'] },
      }),
    );
    expect(big.json().codes.msg).toEqual({ code: 'http.fileTooLargeFor', values: ['photo'] });

    const exactly2mb = await send([
      { name: 'photo', value: Buffer.alloc(2 * 1024 * 1024), filename: 'a.png' },
    ]);
    expect(exactly2mb.statusCode).toBe(200);

    const json = await t.call('fxUpload', { headers: auth, body: { photo: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('answers a broken multipart body with 400, not 500', async () => {
    const res = await t.call('fxUpload', {
      body: '{',
      headers: {
        ...(await t.authHeader()),
        'content-type': 'multipart/form-data; boundary=broken',
      },
    });
    expectRefusal(res, 400, 'Malformed multipart body.');
  });

  it('accepts a valid step token on login only', async () => {
    const demo = await t.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const step = issueStepToken(t.config.secretKey, demo.id, 'login', t.clock);
    const body = { username: 'demo', password: 'x', mpin: '1234' };
    const ok = await t.call('login', { headers: { authorization: `Bearer ${step}` }, body });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().msg).toBe('step ok for demo');

    // A step token is not a session, and a session token is not a step token.
    expect(
      (await t.call('fxBoard', { headers: { authorization: `Bearer ${step}` } })).statusCode,
    ).toBe(401);
    // A bad step token is a failed sign-in step (422), never a 401 that would end a session.
    const session = await t.authHeader();
    expect((await t.call('login', { headers: session, body })).statusCode).toBe(422);

    t.clock.advance(5 * 60_000);
    const expired = await t.call('login', { headers: { authorization: `Bearer ${step}` }, body });
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toMatchObject(envelopeShape);
  });

  it('lets anonymous-or-session operations check an optional session', async () => {
    expect((await t.call('fxMaybeUser')).json().msg).toBe('anonymous');
    const auth = await t.authHeader();
    expect((await t.call('fxMaybeUser', { headers: auth })).json().msg).toBe('demo');
    const bad = await t.call('fxMaybeUser', { headers: { authorization: 'Bearer sess_revoked' } });
    expect(bad.statusCode).toBe(401);
  });

  it('sends basic security headers', async () => {
    const res = await t.call('fxListItems');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
    });
  });

  it('keeps every /api answer out of caches and unrunnable as a document', async () => {
    const auth = await t.authHeader();
    const answers = [
      await t.call('fxSignOut', { headers: auth }), // a session's data
      await t.call('fxListItems'), // anonymous
      await t.call('fxSignOut'), // 401
      await t.inject({ method: 'GET', url: '/api/does-not-exist' }), // 404
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 401, 404]);
    for (const res of answers) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it('sets a readable XSRF-TOKEN cookie when absent', async () => {
    const first = await t.call('fxListItems');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Lax$/);
    const again = await t.call('fxListItems', { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(again.headers['set-cookie']).toBeUndefined();
  });
});

describe('response validation', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('turns a response that breaks the contract into a 500', async () => {
    t = await createTestApp({
      specification: FIXTURE_SPEC,
      handlerOverrides: {
        async fxListItems() {
          return {
            status: true,
            data: [{ id: 'IN', name: 'India', calling_code: '+91', secret: 'x' }],
          };
        },
      },
    });
    const res = await t.call('fxListItems');
    expectRefusal(res, 500, MSG.internal);
  });

  it('passes a response that matches, and stays off when disabled', async () => {
    const data = [{ id: 'IN', name: 'India', calling_code: '+91', secret: 'x' }];
    t = await createTestApp({
      specification: FIXTURE_SPEC,
      env: { RESPONSE_VALIDATION: 'false' },
      handlerOverrides: { fxListItems: async () => ({ status: true, data }) },
    });
    const res = await t.call('fxListItems');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(data); // serialised as is, nothing hidden
  });

  it('hides internal errors behind a generic 500', async () => {
    t = await createTestApp({
      specification: FIXTURE_SPEC,
      handlerOverrides: {
        fxListItems: async () => {
          throw new Error('database exploded at /var/lib/secret');
        },
      },
    });
    const res = await t.call('fxListItems');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('exploded');
    expect(res.json()).toEqual(coded({ status: false, msg: MSG.internal, errors: {} }));
  });
});

describe('rate limiting', () => {
  const t = testAppPerBlock({
    specification: FIXTURE_SPEC,
    env: { RATE_LIMIT_MAX: '5', AUTH_RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' },
  });

  it('limits sign-in operations more strictly, with Retry-After', async () => {
    const preLogin = () => t.call('preLogin', { body: {} });
    expect((await preLogin()).statusCode).toBe(422);
    expect((await preLogin()).statusCode).toBe(422);
    const limited = await preLogin();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ status: false, errors: {} });
    expect(limited.json().msg).toMatch(/^Too many requests/);
  });

  it('applies the general limit to other operations', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await t.call('fxListItems')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
