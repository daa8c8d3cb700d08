import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { insertMerchantApp } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { isObject } from '../openapi/spec';
import { GATEWAY_OPENAPI_PATH, ROOT_DIR } from '../paths';

// What a developer reads when the gateway refuses a request: a format error says the format
// with an example, and every error links to its section of the reference (`doc_url`).
// test:pg leaves this file to SQLite: the words and links of refusals, whatever stores the rows.

const BASE = '/gateway/v1';
const HOST = 'pay.shop.test';
const docUrl = (code: string) => `http://${HOST}${BASE}/docs#section/${code}`;

/** The codes of the errors table of docs/gateway.md, in its order. */
function documentedCodes(): string[] {
  const guide = readFileSync(path.join(ROOT_DIR, 'docs', 'gateway.md'), 'utf8');
  return [...guide.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((m) => m[1] ?? '');
}

describe('gateway error messages and doc_url', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  async function appKey(abilities: string[]): Promise<string> {
    serial += 1;
    return (await insertMerchantApp(t, `msg${serial}`, abilities)).key;
  }

  const send = (
    method: 'GET' | 'POST',
    url: string,
    key: string | null,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.inject({
      method,
      url: `${BASE}${url}`,
      headers: { host: HOST, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('says what each format expects, with an example', async () => {
    const key = await appKey([
      'accounts:write',
      'deposits:read',
      'withdrawals:write',
      'webhooks:write',
    ]);
    const fieldsOf = async (response: ReturnType<typeof send>) => {
      const res = await response;
      expect(res.statusCode).toBe(422);
      return res.json().error.fields as Record<string, string[]>;
    };
    const withdrawal = {
      unique_id: 'payout-1',
      method: 'USDT-BEP20',
      to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      amount: '1',
    };
    const amount = 'amount must be a decimal string like "25.5".';
    for (const wrong of ['25,5', '1e3', 25.5]) {
      expect(
        await fieldsOf(
          send(
            'POST',
            '/withdrawals',
            key,
            { ...withdrawal, amount: wrong },
            {
              'idempotency-key': `k-${String(wrong)}`,
            },
          ),
        ),
      ).toEqual({ amount: [amount] });
    }
    expect(
      await fieldsOf(send('POST', '/accounts', key, { unique_id: 'order 1', method: 'usdt' })),
    ).toEqual({
      unique_id: ['unique_id must be printable ASCII without spaces, like "order-1".'],
      method: ['method must be a method code as GET /methods lists it, like "USDT-BEP20".'],
    });
    expect(await fieldsOf(send('GET', '/deposits?from=yesterday', key))).toEqual({
      from: ['from must be an RFC 3339 date-time, like "2026-11-01T09:00:00Z".'],
    });
    expect(await fieldsOf(send('GET', '/events?after=-1', key))).toEqual({
      after: ['after must be the next of an earlier page: digits only, like "42".'],
    });
    for (const limit of ['0', '201', 'ten']) {
      expect(await fieldsOf(send('GET', `/deposits?limit=${limit}`, key))).toEqual({
        limit: ['limit must be a whole number from 1 to 200, like 50.'],
      });
    }
  });

  it('names application/json in a 415', async () => {
    const key = await appKey(['accounts:write']);
    const res = await send('POST', '/accounts', key, 'unique_id=order-1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toContain('application/json');
    expect(res.json().error.doc_url).toBe(docUrl('unsupported_media_type'));
  });

  it('links every error to its section of the reference', async () => {
    const key = await appKey(['methods:read', 'accounts:write', 'webhooks:write']);
    const answers: [Promise<Awaited<ReturnType<typeof send>>>, number, string][] = [
      [send('GET', '/methods', null), 401, 'unauthenticated'],
      [send('GET', '/deposits', key), 403, 'ability_missing'],
      [send('POST', '/accounts', key, { unique_id: 'order-1' }), 422, 'invalid_request'],
      [
        send('POST', '/accounts', key, '{', { 'content-type': 'application/json' }),
        400,
        'bad_request',
      ],
      [send('GET', '/accounts/nobody', key), 404, 'not_found'],
      [send('POST', '/webhooks/test', key), 409, 'webhook_not_configured'],
      [send('GET', '/nothing-here', key), 404, 'not_found'],
      [send('GET', '/docs/redoc.000000000000.js', null), 404, 'not_found'],
    ];
    const codes = documentedCodes();
    for (const [answer, status, code] of answers) {
      const res = await answer;
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toMatchObject({ code, doc_url: docUrl(code) });
      expect(codes).toContain(code);
    }
  });

  it('gives every pattern and format of a request a message with an example', () => {
    const document = load(readFileSync(GATEWAY_OPENAPI_PATH, 'utf8'));
    if (!isObject(document)) throw new Error('gateway.yaml is not an object');
    /** The node a `$ref` of the document names, or the node itself. */
    const deref = (node: unknown): unknown => {
      if (!isObject(node) || typeof node.$ref !== 'string') return node;
      return deref(
        node.$ref
          .slice(2)
          .split('/')
          .reduce<unknown>((at, part) => (isObject(at) ? at[part] : undefined), document),
      );
    };
    const missing: string[] = [];
    const visit = (node: unknown, where: string): void => {
      const schema = deref(node);
      if (!isObject(schema)) return;
      const messages = isObject(schema['x-messages']) ? schema['x-messages'] : {};
      for (const keyword of ['pattern', 'format']) {
        if (typeof schema[keyword] !== 'string') continue;
        const text = messages[keyword];
        if (typeof text !== 'string' || !/ like /.test(text)) missing.push(`${where} ${keyword}`);
      }
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, value] of Object.entries(properties)) visit(value, `${where}.${name}`);
      if (schema.items) visit(schema.items, `${where}[]`);
    };
    // What requests to the gateway carry: the operations' parameters and bodies.
    const paths = isObject(document.paths) ? document.paths : {};
    for (const [route, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const [verb, operation] of Object.entries(item)) {
        if (!isObject(operation)) continue;
        const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
        for (const parameter of parameters.map(deref)) {
          if (isObject(parameter))
            visit(parameter.schema, `${verb} ${route} ${String(parameter.name)}`);
        }
        const body = deref(operation.requestBody);
        const content = isObject(body) && isObject(body.content) ? body.content : {};
        for (const media of Object.values(content)) {
          if (isObject(media)) visit(media.schema, `${verb} ${route} body`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
