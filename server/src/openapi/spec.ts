import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { OPENAPI_PATH } from '../paths';
import { keptOnDisk } from './diskParses';
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

type OperationFilter = (operation: OperationInfo) => boolean;
const cuts = new WeakMap<JsonObject, Map<OperationFilter, JsonObject>>();

/**
 * The document with only the operations `keep` accepts; a path keeps its other fields, and a
 * path left without operations goes. For registering a group of routes in a context of its own.
 * Path items must be inline (a `$ref` one would vanish silently, so it throws). The same
 * document and filter give the same frozen object, so an app built again finds its parse by
 * identity (sharedParses.ts), not by the document's text.
 */
export function withOperations(document: JsonObject, keep: OperationFilter): JsonObject {
  let byFilter = cuts.get(document);
  if (!byFilter) {
    byFilter = new Map();
    cuts.set(document, byFilter);
  }
  const known = byFilter.get(keep);
  if (known) return known;
  const cut = deepFreeze(cutDocument(document, keep));
  byFilter.set(keep, cut);
  return cut;
}

function cutDocument(document: JsonObject, keep: OperationFilter): JsonObject {
  const kept = new Set(
    listOperations(document)
      .filter(keep)
      .map((op) => op.operationId),
  );
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item) || '$ref' in item) throw new Error(`${path}: path items must be inline`);
    const entries = Object.entries(item).filter(
      ([, value]) =>
        !isObject(value) || typeof value.operationId !== 'string' || kept.has(value.operationId),
    );
    if (entries.some(([, value]) => isObject(value) && typeof value.operationId === 'string')) {
      paths[path] = Object.fromEntries(entries);
    }
  }
  return { ...document, paths };
}

/** Every media type the document's operations name (requests and responses), lower case. */
export function mediaTypesIn(document: JsonObject): string[] {
  return mediaTypesOf(listOperations(document));
}

/** Recursively frozen: a loaded document is shared (below), so nothing may change it. */
function deepFreeze<T>(node: T): T {
  if (typeof node === 'object' && node !== null && !Object.isFrozen(node)) {
    Object.freeze(node);
    for (const value of Object.values(node)) deepFreeze(value);
  }
  return node;
}

// Parsed once per document text and process: tests build hundreds of apps (each loading both
// contracts), and parsing openapi.yaml is the largest part of building one after the first. The
// tests keep the parse on disk too (diskParses.ts): each of their files starts this module anew.
const loaded = new Map<string, LoadedSpec>();

export function loadSpecification(file: string = OPENAPI_PATH): LoadedSpec {
  const text = readFileSync(file, 'utf8');
  const known = loaded.get(text);
  if (known) return known;
  const relaxed = keptOnDisk('openapi-document', text, () => {
    const parsed = load(text);
    if (!isObject(parsed) || typeof parsed.openapi !== 'string') {
      throw new Error(`${file} is not an OpenAPI document`);
    }
    return relaxForServer(parsed);
  });
  const document = deepFreeze(relaxed);
  const spec = deepFreeze({ document, operations: listOperations(document) });
  loaded.set(text, spec);
  return spec;
}
