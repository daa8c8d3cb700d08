import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { shareDocumentParses } from './sharedParses';

type Parsed = { routes: { url: string; schema: { response?: Record<string, unknown> } }[] };
interface GlueParser {
  parse(specification: unknown, options?: object): Promise<Parsed>;
}

// The parser fastify-openapi-glue registers routes with (its entry point imports it from there).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Parser } = require(
  path.join(path.dirname(require.resolve('fastify-openapi-glue')), 'lib', 'Parser.js'),
) as { Parser: new () => GlueParser };

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/orders/{id}': {
      get: {
        operationId: 'getOrder',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'The order',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Order' } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Order: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  },
};

beforeAll(() => shareDocumentParses());

test('a document parsed again gives the same routes, in a copy of its own, unchecked', async () => {
  const checks = jest.spyOn(Validator.prototype, 'validate');
  const first = await new Parser().parse(structuredClone(DOCUMENT));
  const second = await new Parser().parse(structuredClone(DOCUMENT));
  // Checked once: were the plugin's parser moved, apps would still build, each parsing again.
  expect(checks).toHaveBeenCalledTimes(1);
  checks.mockRestore();
  expect(second).toEqual(first);
  expect(second.routes.map((route) => route.url)).toEqual(['/orders/:id']);

  // What one app (or Fastify) does to its routes is not what the next app gets.
  first.routes[0]!.schema.response = {};
  const third = await new Parser().parse(structuredClone(DOCUMENT));
  expect(third.routes[0]!.schema.response).toHaveProperty('200');
});

test('a changed document is parsed anew, and an invalid one is refused every time', async () => {
  const renamed = structuredClone(DOCUMENT);
  renamed.paths['/orders/{id}'].get.operationId = 'readOrder';
  const parsed = (await new Parser().parse(renamed)) as Parsed & {
    routes: { operationId: string }[];
  };
  expect(parsed.routes[0]!.operationId).toBe('readOrder');

  const invalid = { ...structuredClone(DOCUMENT), openapi: 42 };
  const log = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    for (let i = 0; i < 2; i++) {
      await expect(new Parser().parse(invalid)).rejects.toThrow(/valid specification/);
    }
  } finally {
    log.mockRestore();
  }
});
