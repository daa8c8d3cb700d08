import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAddress } from 'viem';
import { isTronAddress } from '../../server/src/domain/chain/addresses';
import { GATEWAY_KEY, startBrokenServer } from '../../test/contract/fixtures/brokenServer';
import { checkValidRequest } from './checks.mjs';
import { gatewayUrlOf } from './gateway.mjs';
import { unboundedIntegers } from './lint.mjs';
import { Contract } from './spec.mjs';

// The tool runs as users run it: `node scripts/contract/cli.mjs ...` in a child process.
const CLI = path.resolve(__dirname, 'cli.mjs');
const FIXTURE_OPS =
  'listCountries,checkUsername,preLogin,getBalance,getDashboard,getAuthentication';

function runNode(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: path.resolve(__dirname, '../..') });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('contract tool against a deliberately broken server', () => {
  let server: Awaited<ReturnType<typeof startBrokenServer>>;
  let dir: string;

  beforeAll(async () => {
    server = await startBrokenServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-tool-'));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('reports exactly the four breaches, each with its smallest request', async () => {
    const junit = path.join(dir, 'broken.xml');
    const { code, output } = await runNode([
      CLI,
      ...['--base-url', server.baseUrl, '--token', 'fixture-session', '--only', FIXTURE_OPS],
      ...['--seed', '7', '--runs', '15', '--junit', junit],
    ]);

    expect(code).toBe(1);
    const xml = fs.readFileSync(junit, 'utf8');
    const failed = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*><failure type="([^"]+)"/g)]
      .map(([, name, type]) => `${name} -> ${type}`)
      .sort();
    expect(failed).toEqual([
      'checkUsername: invalid requests -> invalid-accepted',
      'getBalance: valid requests -> server-error',
      'getDashboard: valid requests -> status-undeclared',
      'listCountries: valid requests -> response-unknown-field',
    ]);
    expect(output).toContain('4 failures');
    expect(output).toContain('body has field(s) its schema does not declare: /data/0/flag');
    expect(output).toContain('answered 204, which getDashboard does not declare');
    // Shrunk to the shortest username that breaks maxLength 32.
    expect(output).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/check\/username\/x{33}\n/);
    expect(output).toContain('reproduce: npm run contract -- --base-url');
    expect(output).not.toContain('fixture-session'); // the session token is never printed
  }, 60_000);

  test('passes the operations the fixture implements correctly', async () => {
    const { code, output } = await runNode([
      CLI,
      ...['--base-url', server.baseUrl, '--token', 'fixture-session'],
      ...['--only', 'preLogin,getAuthentication', '--seed', '11', '--runs', '20'],
    ]);
    expect(output).toContain('0 failures');
    expect(code).toBe(0);
  }, 60_000);

  test('reports the breaches of its gateway, each property run with the API key', async () => {
    const junit = path.join(dir, 'gateway.xml');
    const { code, output } = await runNode([
      CLI,
      ...['--base-url', server.baseUrl, '--token', 'fixture-session', '--gateway-key', GATEWAY_KEY],
      ...['--only', 'listMethods,listAccounts,listBalances,getDeposit'],
      ...['--seed', '5', '--runs', '15', '--junit', junit],
    ]);

    expect(code).toBe(1);
    const xml = fs.readFileSync(junit, 'utf8');
    const failed = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*><failure type="([^"]+)"/g)]
      .map(([, name, type]) => `${name} -> ${type}`)
      .sort();
    expect(failed).toEqual([
      'listAccounts: without a valid key -> response-unknown-field',
      'listBalances: without a valid key -> auth-not-401',
      'listMethods: valid requests -> response-schema',
    ]);
    // The gateway's root is derived from --base-url: /api becomes /gateway/v1.
    expect(output).toMatch(
      /gateway\.yaml \S+ \(\d+ operations\) against http:\/\/127\.0\.0\.1:\d+\/gateway\/v1\n/,
    );
    expect(output).toContain(
      '200 body does not match its schema: body/data/0/decimals must be integer',
    );
    // A 401 outside the gateway's envelope: the portal's fields named, the envelope missed.
    expect(output).toContain(
      '401 body has field(s) its schema does not declare: /status, /msg, /errors',
    );
    expect(output).toContain(
      "401 body does not match its schema: body must have required property 'error'",
    );
    expect(output).toContain('a request without a key answered 200, expected 401');
    expect(output).toMatch(/skip flow: gateway: test deposit .*: needs --mine/);
    expect(output).not.toContain(GATEWAY_KEY); // the key is never printed
  }, 60_000);

  test('bad usage and an unreachable server exit with 2', async () => {
    expect((await runNode([CLI, '--runs', '3'])).code).toBe(2);
    expect(
      (await runNode([CLI, '--base-url', server.baseUrl, '--only', 'noSuchOperation'])).code,
    ).toBe(2);
    const closed = await runNode([CLI, '--base-url', 'http://127.0.0.1:9/api']);
    expect(closed.code).toBe(2);
    expect(closed.output).toContain('cannot reach');
  }, 30_000);
});

test('generated addresses are valid EIP-55 and base58check Tron addresses', async () => {
  const script = `
    import fc from 'fast-check';
    import { evmAddress, tronAddress } from './scripts/contract/values.mjs';
    console.log(JSON.stringify({
      evm: fc.sample(evmAddress, { numRuns: 30, seed: 1 }),
      tron: fc.sample(tronAddress, { numRuns: 30, seed: 1 }),
    }));`;
  const { code, output } = await runNode(['--input-type=module', '-e', script]);
  expect(code).toBe(0);
  const { evm, tron } = JSON.parse(output) as { evm: string[]; tron: string[] };
  expect(evm.every((a) => isAddress(a, { strict: true }) && a !== a.toLowerCase())).toBe(true);
  expect(tron.every((a) => isTronAddress(a))).toBe(true);
}, 30_000);

test("the gateway's root is beside the portal API's, on the same origin", () => {
  expect(gatewayUrlOf('http://127.0.0.1:8080/api')).toBe('http://127.0.0.1:8080/gateway/v1');
  expect(gatewayUrlOf('https://pay.example.com/portal/api/')).toBe(
    'https://pay.example.com/portal/gateway/v1',
  );
  expect(gatewayUrlOf('http://localhost:3000/v2?x=1')).toBe('http://localhost:3000/gateway/v1');
});

describe('a 422 for a schema-valid request', () => {
  const file = path.join(os.tmpdir(), `contract-checks-${process.pid}.yaml`);
  beforeAll(() => {
    fs.writeFileSync(
      file,
      `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /register:
    post:
      operationId: register
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties:
                username:
                  type: string
                  pattern: '^[a-z_]+$'
                  x-messages: { pattern: Username may only contain letters. }
                password:
                  type: string
                  minLength: 8
                  x-messages: { minLength: 'Password must have 8 characters, a digit and a capital.' }
                country: { type: string, x-messages: { default: Country is required } }
      responses:
        '200': { description: ok }
        '422': { description: refused }
`,
    );
  });
  afterAll(() => fs.rmSync(file, { force: true }));

  const refusal = (body: Record<string, string>, errors: Record<string, string[]>) => {
    const contract = new Contract(file);
    const op = contract.operation('register');
    const req = { path: {}, query: {}, body: { kind: 'json', value: body }, auth: 'none' } as const;
    const res = {
      status: 422,
      headers: {},
      bytes: Buffer.alloc(0),
      text: '',
      json: { status: false, msg: 'refused', errors },
      jsonError: null,
      ms: 0,
    };
    return checkValidRequest(contract, op, req, res).map((p) => p.kind);
  };

  test('is fine when a business rule refuses it', () => {
    expect(refusal({ username: 'asha' }, { username: ['Username already taken.'] })).toEqual([]);
    // The contract's own minLength message doubles as a stricter checklist: allowed.
    const checklist = 'Password must have 8 characters, a digit and a capital.';
    expect(refusal({ password: 'abcdefgh' }, { password: [checklist] })).toEqual([]);
    expect(refusal({ country: 'ZZ' }, { country: ['Country is required'] })).toEqual([]);
    // A field the request did not send may be required by another field's value.
    expect(refusal({ username: 'asha' }, { password: ['Password is required'] })).toEqual([]);
    // Whitespace-only text may be trimmed away by the server.
    expect(refusal({ username: ' ' }, { username: ['Username is required'] })).toEqual([]);
  });

  test('is a failure when it applies a schema rule the value satisfies', () => {
    const bad = 'Username may only contain letters.';
    expect(refusal({ username: 'asha' }, { username: [bad] })).toEqual(['malformed-refusal']);
    expect(refusal({ username: 'asha' }, { username: ['Username is required'] })).toEqual([
      'malformed-refusal',
    ]);
    expect(refusal({ username: 'asha' }, { username: ['must be integer'] })).toEqual([
      'malformed-refusal',
    ]);
    expect(
      refusal({ username: 'asha' }, { username: ['The username field is not allowed.'] }),
    ).toEqual(['malformed-refusal']);
  });
});

describe('the document lint', () => {
  const file = path.join(os.tmpdir(), `contract-lint-${process.pid}.yaml`);
  beforeAll(() => {
    fs.writeFileSync(
      file,
      `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: page, in: query, schema: { type: integer, minimum: 1 } }
        - { name: size, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
        - { name: kind, in: query, schema: { type: integer, enum: [0, 1] } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                count: { type: [integer, 'null'], minimum: 0 }
                price: { type: number }
                limit: { type: integer, exclusiveMaximum: 10 }
      responses:
        '200':
          description: ok
          headers:
            Retry-After: { schema: { type: integer } }
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Item' }
              example: { type: integer }
components:
  schemas:
    Item:
      type: object
      properties:
        total: { type: integer, minimum: 0 }
        tags: { type: array, items: { type: integer, const: 3 } }
        nested: { anyOf: [{ type: integer }, { type: string }] }
        default: { type: integer, minimum: 0 }
`,
    );
  });
  afterAll(() => fs.rmSync(file, { force: true }));

  test('names every integer without a maximum, wherever it is', () => {
    const found = unboundedIntegers(new Contract(file).document).map((p) => p.where);
    expect(found).toEqual([
      '#/paths/~1items/get/parameters/0/schema',
      '#/paths/~1items/get/requestBody/content/application~1json/schema/properties/count',
      '#/paths/~1items/get/responses/200/headers/Retry-After/schema',
      '#/components/schemas/Item/properties/total',
      '#/components/schemas/Item/properties/nested/anyOf/0',
      '#/components/schemas/Item/properties/default',
    ]);
  });

  test('--lint checks the document alone: 1 with the findings, 0 for openapi.yaml', async () => {
    const bad = await runNode([CLI, '--lint', '--spec', file]);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain(
      '#/paths/~1items/get/parameters/0/schema: integer without a maximum',
    );
    expect(bad.output).toContain('6 unbounded integers');
    const ours = await runNode([CLI, '--lint']);
    expect(ours.output).toContain('0 unbounded integers');
    expect(ours.code).toBe(0);
  }, 30_000);

  test('a run against a server fails on an unbounded integer too', async () => {
    const { code, output } = await runNode([
      CLI,
      ...['--spec', file, '--base-url', 'http://127.0.0.1:9/api'],
    ]);
    expect(output).toContain('integer without a maximum');
    expect(code).not.toBe(0);
  }, 30_000);
});
