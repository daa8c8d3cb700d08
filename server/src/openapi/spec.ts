import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { OPENAPI_PATH } from '../paths';

export type JsonObject = { [key: string]: unknown };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

export interface OperationInfo {
  operationId: string;
  method: string;
  /** OpenAPI path without the server prefix, e.g. `/check/username/{username}`. */
  path: string;
  tag: string;
  /** Media types of the request body; empty when the operation takes none. */
  requestContentTypes: string[];
  /** Names of the security schemes that may authorise the call. */
  securitySchemes: string[];
  /** True when no credentials are needed (no security, or an empty `{}` alternative). */
  allowsAnonymous: boolean;
}

export interface LoadedSpec {
  /** The in-memory copy the server feeds to fastify-openapi-glue (relaxed, see relaxForServer). */
  document: JsonObject;
  operations: OperationInfo[];
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Multipart file parts: openapi.yaml says `type: string, format: binary` (codegen and docs need
 * it), but @fastify/multipart hands the server a Buffer. Only this in-memory copy replaces such
 * schemas with the `isFile` keyword (defined on our Ajv instances). Binary *responses* (images)
 * are left alone: they are never JSON-validated.
 */
export function relaxForServer<T>(node: T, inResponses = false): T {
  if (Array.isArray(node)) return node.map((n: unknown) => relaxForServer(n, inResponses)) as T;
  if (!isObject(node)) return node;
  if (
    !inResponses &&
    node.format === 'binary' &&
    (node.type === 'string' || node.type === undefined)
  ) {
    const { type: _type, format: _format, ...rest } = node;
    return { ...relaxForServer(rest), isFile: true } as T;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = relaxForServer(v, inResponses || k === 'responses');
  }
  return out as T;
}

function resolveRef(doc: JsonObject, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) {
    return value;
  }
  let cur: unknown = doc;
  for (const raw of value.$ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = isObject(cur) ? cur[key] : undefined;
  }
  return cur;
}

export function listOperations(doc: JsonObject): OperationInfo[] {
  const ops: OperationInfo[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  const globalSecurity = doc.security;
  for (const [p, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== 'string') continue;
      const body = resolveRef(doc, op.requestBody);
      const content = isObject(body) && isObject(body.content) ? body.content : {};
      const security = op.security ?? globalSecurity;
      const schemes = new Set<string>();
      let allowsAnonymous = !Array.isArray(security) || security.length === 0;
      if (Array.isArray(security)) {
        for (const req of security) {
          if (!isObject(req)) continue;
          if (Object.keys(req).length === 0) allowsAnonymous = true;
          Object.keys(req).forEach((s) => schemes.add(s));
        }
      }
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: p,
        tag: Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'Untagged',
        requestContentTypes: Object.keys(content).map((t) => t.toLowerCase()),
        securitySchemes: [...schemes],
        allowsAnonymous,
      });
    }
  }
  return ops;
}

/** Every media type named under a `content` map (requests and responses). */
export function mediaTypesIn(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'content' && isObject(v)) Object.keys(v).forEach((t) => found.add(t.toLowerCase()));
      walk(v);
    }
  };
  walk(doc);
  return [...found];
}

export function loadSpecification(file: string = OPENAPI_PATH): LoadedSpec {
  const parsed = load(readFileSync(file, 'utf8'));
  if (!isObject(parsed) || typeof parsed.openapi !== 'string') {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  const document = relaxForServer(parsed);
  return { document, operations: listOperations(document) };
}
