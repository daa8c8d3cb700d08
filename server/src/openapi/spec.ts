import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { OPENAPI_PATH } from '../paths';
import {
  isObject,
  listOperations,
  mediaTypesOf,
  type JsonObject,
  type Operation,
} from './operations.mjs';

export { isObject, listOperations, type JsonObject };

/** One operation of the document, as the shared walker lists it. */
export type OperationInfo = Operation;

export interface LoadedSpec {
  /** The in-memory copy the server feeds to fastify-openapi-glue (relaxed, see relaxForServer). */
  document: JsonObject;
  operations: OperationInfo[];
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

/** Every media type the document's operations name (requests and responses), lower case. */
export function mediaTypesIn(document: JsonObject): string[] {
  return mediaTypesOf(listOperations(document));
}

export function loadSpecification(file: string = OPENAPI_PATH): LoadedSpec {
  const parsed = load(readFileSync(file, 'utf8'));
  if (!isObject(parsed) || typeof parsed.openapi !== 'string') {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  const document = relaxForServer(parsed);
  return { document, operations: listOperations(document) };
}
