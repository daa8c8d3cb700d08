import { createAppContext } from './context';
import { buildServiceHandlers, HANDLER_MODULES } from './portal';
import { issueStepToken } from './domain/account/stepTokens';
import { ajvsFor, compileDeferred } from './http/validation';
import { listOperations, loadSpecification, type OperationInfo } from './openapi/spec';
import { GATEWAY_OPENAPI_PATH } from './paths';
import { createTestApp, type TestApp } from '../test/testApp';
import { multipart } from '../test/multipart';
import { expectRefusal } from '../test/expectations';

// The server against the real openapi.yaml: rules that hold for every operation, whether or not
// its feature is implemented yet.
// test:pg leaves this file to SQLite: the contract's wiring (routes, validators, refusals).

const spec = loadSpecification();
const ops = spec.operations;

/** Every path parameter of `op` set to a value no row has. */
/** Path parameters whose schema is an enum take one of its values; the others any id. */
const ENUM_PATH_VALUES: Record<string, string> = { kind: 'deposits' };

function placeholders(op: OperationInfo): Record<string, string> {
  return Object.fromEntries(
    [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => [
      name,
      ENUM_PATH_VALUES[name] ?? 'x1',
    ]),
  );
}

describe('openapi.yaml wiring', () => {
  let t: TestApp;
  let session: { authorization: string };
  let step: { authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    session = await t.authHeader();
    const demo = await t.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    step = {
      authorization: `Bearer ${issueStepToken(t.config.secretKey, demo.id, 'login', t.clock)}`,
    };
  });
  afterAll(() => t.close());

  const credentialsFor = (op: OperationInfo) =>
    op.securitySchemes.includes('stepToken') ? step : op.allowsAnonymous ? {} : session;

  it('lets the schema judge an over-long path parameter: 4xx envelope, never a bare 414', async () => {
    const res = await t.call('requeueDeposit', {
      params: { id: 'x'.repeat(101) },
      headers: session,
    });
    expect([404, 422]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({ status: false, msg: expect.any(String) });
  });

  it('compiles every request and response validator of both documents (strict mode holds)', () => {
    // Validators compile on first use (http/validation.ts); this is the start-up check they
    // replace: a schema Ajv refuses fails here, not at the first request that meets it.
    for (const document of [spec.document, loadSpecification(GATEWAY_OPENAPI_PATH).document]) {
      const ajvs = ajvsFor(document);
      const compiled = Object.values(ajvs).map((ajv) => compileDeferred(ajv));
      expect(compiled.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(Object.values(ajvs).map((ajv) => compileDeferred(ajv))).toEqual([0, 0, 0]);
    }
  });

  it('implements every operation in its tag module', () => {
    const ctx = createAppContext(t.config, t.db, t.clock);
    const missing = ops.filter((op) => {
      const module = HANDLER_MODULES[op.tag];
      return !module || !(op.operationId in module(ctx));
    });
    expect(missing.map((op) => op.operationId)).toEqual([]);
  });

  it('has operations, each with a known tag and a handler', () => {
    expect(ops.length).toBeGreaterThan(10);
    expect(listOperations(spec.document)).toEqual(ops);
    const ctx = createAppContext(t.config, t.db, t.clock);
    const handlers = buildServiceHandlers(ctx, ops, t.app.log);
    expect(Object.keys(handlers).sort()).toEqual(ops.map((o) => o.operationId).sort());
    for (const op of ops) expect(Object.keys(HANDLER_MODULES)).toContain(op.tag);
  });

  it.each(
    ops
      .filter((op) => !op.allowsAnonymous && op.securitySchemes.includes('bearerAuth'))
      .map((op) => [op.operationId, op] as const),
  )('%s refuses a request without a session (401)', async (_id, op) => {
    const res = await t.call(op.operationId, { params: placeholders(op) });
    expectRefusal(res, 401, 'Unauthenticated.');
  });

  it.each(
    ops
      .filter((op) => op.requestContentTypes.length > 0)
      .map((op) => [op.operationId, op] as const),
  )('%s refuses an undeclared content type (415) and unknown fields (422)', async (_id, op) => {
    const params = placeholders(op);
    const headers = credentialsFor(op);
    const plain = await t.call(op.operationId, {
      params,
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toMatchObject({ status: false, errors: {} });

    const unknown = op.requestContentTypes.includes('application/json')
      ? await t.call(op.operationId, { params, headers, body: { zz_unknown_field: 1 } })
      : await (async () => {
          const mp = multipart([{ name: 'zz_unknown_field', value: '1' }]);
          return t.call(op.operationId, {
            params,
            body: mp.payload,
            headers: { ...headers, ...mp.headers },
          });
        })();
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.zz_unknown_field).toEqual([
      'The zz_unknown_field field is not allowed.',
    ]);
  });

  it('answers unknown /api paths with the 404 envelope', async () => {
    // A raw URL: no operation of the contract has this path.
    const res = await t.inject({ method: 'GET', url: '/api/no/such/thing' });
    expectRefusal(res, 404, 'Not found.');
  });

  it('register refuses text/plain with 415', async () => {
    const res = await t.call('register', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(res.statusCode).toBe(415);
  });

  it('logout takes an empty body with a JSON content type', async () => {
    for (const headers of [{}, session]) {
      const res = await t.call('logout', {
        headers: { ...headers, 'content-type': 'application/json' },
      });
      expect([400, 415]).not.toContain(res.statusCode);
      expect(res.json()).toHaveProperty('status');
    }
  });
});
