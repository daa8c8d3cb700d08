// The one walker of an OpenAPI document: its operations, with the `$ref`s of path items,
// parameters, bodies, responses and headers followed. The server, the contract tool and the
// codegen all read the document through it. Plain JavaScript with JSDoc types: Node runs it as
// is (the tools), esbuild and Jest compile it (the server), TypeScript checks and reads it.

/**
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{
 *   $ref?: string, type?: string | string[], format?: string, description?: string,
 *   properties?: Record<string, Schema>, items?: Schema, required?: string[],
 *   additionalProperties?: boolean | Schema, enum?: unknown[], const?: unknown,
 *   anyOf?: Schema[], oneOf?: Schema[], allOf?: Schema[],
 *   minimum?: number, maximum?: number, exclusiveMinimum?: number, exclusiveMaximum?: number,
 *   minLength?: number, maxLength?: number, pattern?: string,
 *   minItems?: number, maxItems?: number, uniqueItems?: boolean,
 *   'x-messages'?: Record<string, string>, [keyword: string]: unknown }} Schema
 *   The JSON Schema keywords the readers use; the document is linted, so they have these types.
 * @typedef {{ name: string, in: 'path' | 'query' | 'header' | 'cookie', required: boolean,
 *   schema: Schema, description?: string }} Parameter
 * @typedef {{ schema?: Schema }} MediaType
 * @typedef {{ required?: boolean, schema?: Schema }} Header
 * @typedef {{ description?: string, content?: Record<string, MediaType>,
 *   headers: Record<string, Header> }} Response
 *   Header names are lower case, as they arrive.
 * @typedef {Record<string, string[]>} SecurityRequirement
 * @typedef {{
 *   operationId: string,
 *   method: string,
 *   path: string,
 *   tag: string,
 *   parameters: Parameter[],
 *   body: { required: boolean, content: Record<string, MediaType> } | null,
 *   requestContentTypes: string[],
 *   responses: Record<string, Response>,
 *   security: SecurityRequirement[],
 *   securitySchemes: string[],
 *   allowsAnonymous: boolean,
 *   destructive: boolean,
 *   rateLimited: boolean,
 * }} Operation
 *   `method` is upper case (`GET`); `path` has no server prefix (`/check/username/{username}`);
 *   `tag` is the first tag; parameters merge the path item's and the operation's;
 *   `requestContentTypes` are the body's media types, lower case (empty without a body);
 *   `securitySchemes` are the names any alternative uses; `allowsAnonymous` when no
 *   credentials are needed (no security, or an empty `{}` alternative); `destructive` marks
 *   the `x-destructive` GETs that change state; `rateLimited` when the operation may answer 429
 *   (it lists a 429 or a `default` response): the server limits exactly those.
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];
// More hops than any honest chain of `$ref`s: a cycle fails instead of spinning.
const MAX_REF_HOPS = 20;

/** @param {unknown} v @returns {v is JsonObject} */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Follows a local `$ref` (and chains of them) inside `document`; anything else is returned as
 * is. A `$ref` beside other keywords still points at the same object.
 * @param {JsonObject} document @param {unknown} node @returns {unknown}
 */
export function deref(document, node) {
  let cur = node;
  for (
    let hops = 0;
    isObject(cur) && typeof cur.$ref === 'string' && hops < MAX_REF_HOPS;
    hops += 1
  ) {
    /** @type {unknown} */
    let target = document;
    for (const raw of cur.$ref.replace(/^#\//, '').split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new Error(`openapi.yaml: unresolvable $ref ${cur.$ref}`);
    cur = target;
  }
  return cur;
}

/** @param {JsonObject} document @param {unknown} node @returns {JsonObject} */
function objectAt(document, node) {
  const found = deref(document, node);
  return isObject(found) ? found : {};
}

/** @param {unknown} list @returns {unknown[]} */
const arrayOf = (list) => (Array.isArray(list) ? list : []);

/**
 * Every operation of the document, in the order of its paths and of HTTP_METHODS. Throws on an
 * unresolvable `$ref` and on a security scheme the document does not define.
 * @param {JsonObject} document @returns {Operation[]}
 */
export function listOperations(document) {
  /** @type {Operation[]} */
  const ops = [];
  const paths = isObject(document.paths) ? document.paths : {};
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = objectAt(document, rawItem);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== 'string') continue;
      /** @type {Map<string, Parameter>} */
      const params = new Map();
      for (const p of [...arrayOf(item.parameters), ...arrayOf(op.parameters)]) {
        const param = /** @type {JsonObject & Omit<Parameter, 'required' | 'schema'>} */ (
          objectAt(document, p)
        );
        params.set(`${param.in}:${param.name}`, {
          ...param,
          required: param.in === 'path' ? true : Boolean(param.required),
          schema: /** @type {Schema} */ (param.schema ?? {}),
        });
      }
      const body = op.requestBody ? objectAt(document, op.requestBody) : null;
      const content = /** @type {Record<string, MediaType>} */ (
        body && isObject(body.content) ? body.content : {}
      );
      /** @type {Record<string, Response>} */
      const responses = {};
      for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const resolved = objectAt(document, response);
        /** @type {Record<string, Header>} */
        const headers = {};
        for (const [name, header] of Object.entries(
          isObject(resolved.headers) ? resolved.headers : {},
        )) {
          headers[name.toLowerCase()] = objectAt(document, header);
        }
        responses[status] = { ...resolved, headers };
      }
      const security = /** @type {SecurityRequirement[]} */ (
        arrayOf(op.security ?? document.security).filter(isObject)
      );
      const names = [...new Set(security.flatMap((alt) => Object.keys(alt)))];
      for (const name of names) {
        if (!(name in schemes)) throw new Error(`openapi.yaml: unknown security scheme ${name}`);
      }
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        tag: Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'Untagged',
        parameters: [...params.values()],
        body: body ? { required: Boolean(body.required), content } : null,
        requestContentTypes: Object.keys(content).map((t) => t.toLowerCase()),
        responses,
        security,
        securitySchemes: names,
        allowsAnonymous:
          security.length === 0 || security.some((alt) => Object.keys(alt).length === 0),
        destructive: op['x-destructive'] === true,
        rateLimited: '429' in responses || 'default' in responses,
      });
    }
  }
  return ops;
}

/**
 * Every media type the operations name, for requests and responses, lower case.
 * @param {readonly Operation[]} operations @returns {string[]}
 */
export function mediaTypesOf(operations) {
  const found = new Set(operations.flatMap((op) => op.requestContentTypes));
  for (const op of operations) {
    for (const response of Object.values(op.responses)) {
      for (const type of Object.keys(response.content ?? {})) found.add(type.toLowerCase());
    }
  }
  return [...found];
}
