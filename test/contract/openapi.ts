import fs from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';

/** openapi.yaml, read once: the msw handlers and the fixture checks derive from it. */
type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  method: string;
  path: string;
  responses: Record<string, Json>;
}

export const document = load(
  fs.readFileSync(path.resolve(__dirname, '../../openapi.yaml'), 'utf8'),
) as Json & { paths: Record<string, Record<string, Json>>; components: Json };

export const operations: Record<string, Operation> = {};
for (const [opPath, item] of Object.entries(document.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (typeof op !== 'object' || op === null || !('operationId' in op)) continue;
    const { operationId, responses } = op as {
      operationId: string;
      responses: Operation['responses'];
    };
    operations[operationId] = { operationId, method, path: opPath, responses };
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addFormat('binary', true);
ajv.addSchema({ ...document, $id: 'openapi' });

function resolveRef(ref: string): Json {
  let node: unknown = document;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node as Json;
}

const cache = new Map<string, ValidateFunction>();

/** Ajv validator of the JSON body an operation declares for `status`. */
export function responseValidator(operationId: string, status: number): ValidateFunction {
  const key = `${operationId} ${status}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const operation = operations[operationId];
  if (!operation) throw new Error(`openapi.yaml has no operation ${operationId}`);
  let response = operation.responses[String(status)];
  if (!response) throw new Error(`${operationId} declares no ${status} response`);
  if (typeof response.$ref === 'string') response = resolveRef(response.$ref);
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  const schema = content?.['application/json']?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no JSON body`);
  const validate = ajv.compile(rewriteRefs(schema) as Json);
  cache.set(key, validate);
  return validate;
}

/** Local '#/components/...' refs point into the document registered as 'openapi'. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `openapi${value}`
        : rewriteRefs(value);
  }
  return out;
}

/** Throws with Ajv's messages when `body` is not what the contract says. */
export function assertMatchesContract(operationId: string, status: number, body: unknown) {
  const validate = responseValidator(operationId, status);
  if (!validate(body)) {
    throw new Error(
      `${operationId} ${status} does not match openapi.yaml: ${ajv.errorsText(validate.errors)}`,
    );
  }
}
