// The contract as the tool sees it: openapi.yaml read once, its operations listed by the shared
// walker, and Ajv 2020 validators (OpenAPI 3.1 schemas are JSON Schema 2020-12) for request
// bodies, parameters, responses and headers.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { deref, isObject, listOperations } from '../../server/src/openapi/operations.mjs';

/**
 * @typedef {import('../../server/src/openapi/operations.mjs').JsonObject} Json
 * @typedef {import('../../server/src/openapi/operations.mjs').Schema} Schema
 * @typedef {import('../../server/src/openapi/operations.mjs').Parameter} Parameter
 * @typedef {import('../../server/src/openapi/operations.mjs').Response} Response
 * @typedef {import('../../server/src/openapi/operations.mjs').Operation} Operation
 * @typedef {Json & { components?: { schemas?: Record<string, Schema> }, info?: { version?: string } }} Document
 */

export { isObject };

/** Name of the component a local `$ref` points at (`#/components/schemas/App` -> `App`). */
export function refName(/** @type {unknown} */ schema) {
  return isObject(schema) && typeof schema.$ref === 'string'
    ? (schema.$ref.split('/').pop() ?? null)
    : null;
}

export class Contract {
  /** @param {string} file path of openapi.yaml */
  constructor(file) {
    const parsed = load(fs.readFileSync(file, 'utf8'));
    if (!isObject(parsed)) throw new Error(`${file} is not an OpenAPI document`);
    /** The document's file name, as reports name it (`openapi.yaml`, `gateway.yaml`). */
    this.name = path.basename(file);
    /** @type {Document} */
    this.document = parsed;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
    // ajv-formats is CommonJS: an ES module's default import is its exports object.
    ajvFormats.default(this.ajv);
    // Files travel as multipart parts, never as JSON: any value stands for one.
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...this.document, $id: 'openapi' });
    /** @type {Map<string, import('ajv').ValidateFunction>} */
    this.validators = new Map();
    this.operations = listOperations(this.document);
  }

  /** The schema a local `$ref` (or chain of them) points at; other schemas as they are. @param {unknown} node @returns {Schema} */
  deref(node) {
    const found = deref(this.document, node);
    return isObject(found) ? found : {};
  }

  /** @param {string} operationId */
  operation(operationId) {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`${this.name} has no operation ${operationId}`);
    return op;
  }

  /** A cached Ajv validator of `schema` (local refs resolve inside the document). @param {unknown} schema */
  validator(schema) {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(/** @type {Json} */ (rewriteRefs(schema)));
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** @param {unknown} schema @param {unknown} value */
  valid(schema, value) {
    return Boolean(this.validator(schema)(value));
  }

  /** The response object an operation declares for `status` (exact, then `4XX`, then default). */
  responseFor(/** @type {Operation} */ op, /** @type {number} */ status) {
    return (
      op.responses[String(status)] ??
      op.responses[`${String(status)[0]}XX`] ??
      op.responses.default ??
      null
    );
  }
}

/** Local `#/...` refs point into the document registered as `openapi`. @param {unknown} node @returns {unknown} */
function rewriteRefs(node) {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  /** @type {Json} */
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `openapi${value}`
        : rewriteRefs(value);
  }
  return out;
}
