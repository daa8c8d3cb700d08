import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

// The first two tests are about one process: nothing kept on disk from an earlier run.
const parseCache = process.env.OPENAPI_PARSE_CACHE;
beforeAll(() => {
  delete process.env.OPENAPI_PARSE_CACHE;
  shareDocumentParses();
});
afterAll(() => {
  process.env.OPENAPI_PARSE_CACHE = parseCache;
});

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

test('a parse kept on disk serves the next process, unchecked, until the document changes', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-parses-'));
  process.env.OPENAPI_PARSE_CACHE = dir;
  const document = structuredClone(DOCUMENT);
  document.info.title = 'Shop kept on disk';
  /** A parse in what stands for a process of its own (its modules loaded anew), and its checks. */
  const parseInFreshModules = async (specification: unknown) => {
    let parser: GlueParser | undefined;
    let checks: jest.SpyInstance | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const validator = require('@seriousme/openapi-schema-validator') as {
        Validator: typeof Validator;
      };
      checks = jest.spyOn(validator.Validator.prototype, 'validate');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('./sharedParses') as typeof import('./sharedParses')).shareDocumentParses();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const glue = require(
        path.join(path.dirname(require.resolve('fastify-openapi-glue')), 'lib', 'Parser.js'),
      ) as { Parser: new () => GlueParser };
      parser = new glue.Parser();
    });
    const parsed = await parser!.parse(specification);
    return { parsed, checked: checks!.mock.calls.length };
  };
  try {
    const first = await parseInFreshModules(structuredClone(document));
    expect(first.checked).toBe(1);
    expect(readdirSync(dir)).toHaveLength(1);
    const second = await parseInFreshModules(structuredClone(document));
    expect(second).toEqual({ parsed: first.parsed, checked: 0 });
    // A changed document is checked and parsed, and kept beside the first.
    document.paths['/orders/{id}'].get.operationId = 'readOrder';
    const changed = await parseInFreshModules(structuredClone(document));
    expect(changed.checked).toBe(1);
    expect(
      (changed.parsed as Parsed & { routes: { operationId: string }[] }).routes[0]!.operationId,
    ).toBe('readOrder');
    expect(readdirSync(dir)).toHaveLength(2);
  } finally {
    delete process.env.OPENAPI_PARSE_CACHE;
    rmSync(dir, { recursive: true, force: true });
  }
});
