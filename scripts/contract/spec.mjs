// The contract as the tool sees it: openapi.yaml read once, its operations indexed with every
// `$ref` of parameters, bodies and responses resolved, and Ajv 2020 validators (OpenAPI 3.1
// schemas are JSON Schema 2020-12) for request bodies, parameters, responses and headers.
import fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

/**
 * @typedef {Record<string, unknown>} Json
 * @typedef {{ name: string, in: 'path' | 'query' | 'header' | 'cookie', required: boolean,
 *   schema: Json, description?: string }} Parameter
 * @typedef {{ description?: string, content?: Record<string, { schema?: Json }>,
 *   headers?: Record<string, { required?: boolean, schema?: Json }> }} Response
 * @typedef {{ operationId: string, method: string, path: string, tag: string,
 *   parameters: Parameter[], body: { required: boolean, content: Record<string, { schema?: Json }> } | null,
 *   responses: Record<string, Response>, security: Record<string, string[]>[],
 *   schemes: string[], anonymous: boolean, destructive: boolean }} Operation
 */

/** @param {unknown} v @returns {v is Json} */
export const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Name of the component a local `$ref` points at (`#/components/schemas/App` -> `App`). */
export function refName(/** @type {unknown} */ schema) {
  return isObject(schema) && typeof schema.$ref === 'string'
    ? (schema.$ref.split('/').pop() ?? null)
    : null;
}

export class Contract {
  /** @param {string} file path of openapi.yaml */
  constructor(file) {
    /** @type {Json & { paths: Record<string, Json>, components: Json }} */
    this.document = /** @type {never} */ (load(fs.readFileSync(file, 'utf8')));
    this.ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    // Files travel as multipart parts, never as JSON: any value stands for one.
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...this.document, $id: 'openapi' });
    /** @type {Map<string, import('ajv').ValidateFunction>} */
    this.validators = new Map();
    /** @type {Operation[]} */
    this.operations = this.#index();
  }

  /** Follows a local `$ref` (and chains of them). @param {unknown} node @returns {any} */
  deref(node) {
    let cur = node;
    for (let hops = 0; isObject(cur) && typeof cur.$ref === 'string' && hops < 20; hops += 1) {
      /** @type {unknown} */
      let target = this.document;
      for (const raw of cur.$ref.replace(/^#\//, '').split('/')) {
        const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        target = isObject(target) ? target[key] : undefined;
      }
      if (target === undefined) throw new Error(`openapi.yaml: unresolvable $ref ${cur.$ref}`);
      // A $ref beside a description (3.1 allows siblings) keeps pointing at the same schema.
      cur = target;
    }
    return cur;
  }

  /** @returns {Operation[]} */
  #index() {
    /** @type {Operation[]} */
    const ops = [];
    const schemes = this.document.components?.securitySchemes ?? {};
    for (const [opPath, rawItem] of Object.entries(this.document.paths)) {
      const item = this.deref(rawItem);
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!isObject(op) || typeof op.operationId !== 'string') continue;
        /** @type {Map<string, Parameter>} */
        const params = new Map();
        for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
          const param = this.deref(p);
          params.set(`${param.in}:${param.name}`, {
            ...param,
            required: param.in === 'path' ? true : Boolean(param.required),
            schema: param.schema ?? {},
          });
        }
        const body = op.requestBody ? this.deref(op.requestBody) : null;
        /** @type {Record<string, Response>} */
        const responses = {};
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const resolved = this.deref(response);
          /** @type {Record<string, { required?: boolean, schema?: Json }>} */
          const headers = {};
          for (const [name, header] of Object.entries(resolved.headers ?? {})) {
            headers[name.toLowerCase()] = this.deref(header);
          }
          responses[status] = { ...resolved, headers };
        }
        const security = /** @type {Record<string, string[]>[]} */ (
          op.security ?? this.document.security ?? []
        );
        const names = [...new Set(security.flatMap((alt) => Object.keys(alt)))];
        for (const name of names) {
          if (!(name in schemes)) throw new Error(`openapi.yaml: unknown security scheme ${name}`);
        }
        ops.push({
          operationId: op.operationId,
          method,
          path: opPath,
          tag: Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'default',
          parameters: [...params.values()],
          body: body
            ? {
                required: Boolean(body.required),
                content: isObject(body.content) ? body.content : {},
              }
            : null,
          responses,
          security,
          schemes: names,
          anonymous: security.length === 0 || security.some((alt) => Object.keys(alt).length === 0),
          destructive: op['x-destructive'] === true,
        });
      }
    }
    return ops;
  }

  /** @param {string} operationId */
  operation(operationId) {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`openapi.yaml has no operation ${operationId}`);
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
