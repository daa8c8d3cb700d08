import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldErrors } from './errors';
import { isObject, type JsonObject } from '../openapi/spec';

// OpenAPI 3.1 schemas are JSON Schema 2020-12, hence Ajv2020 rather than Fastify's draft-07 Ajv.
// strictSchema stays on so a typo in openapi.yaml (e.g. `minLenght`) fails at start-up instead of
// silently not validating; OpenAPI's own annotation keywords are declared below.

const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-messages'];

/** Buffers from @fastify/multipart (attachFieldsToBody: 'keyValues') stand for uploaded files. */
export function isUploadedFile(data: unknown): boolean {
  return Buffer.isBuffer(data);
}

/** Per Ajv instance: the validators handed out whose code is not generated yet. */
const deferred = new WeakMap<Ajv2020, Set<() => ValidateFunction>>();

/**
 * Compiles every validator `ajv` handed out and has not compiled yet, so a schema Ajv refuses
 * (strict mode: a typo in the document) fails here rather than at the first request it meets.
 */
export function compileDeferred(ajv: Ajv2020): number {
  const pending = [...(deferred.get(ajv) ?? [])];
  for (const build of pending) build();
  return pending.length;
}

export function createAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    removeAdditional: false, // never strip: an unknown field is a 422, not silently dropped
    strictSchema: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    verbose: true, // errors carry parentSchema: titles and x-messages for human messages
    ...options,
  });
  // fastify-openapi-glue gives every recursive route schema the same `$id`; let a later
  // compile replace the earlier registration instead of failing (@fastify/response-validation
  // calls compile directly, so this lives on the instance). Compiled validators are kept by
  // schema text: every app built from the same document (tests build hundreds) reuses them.
  // Code generation waits for a validator's first call (most of the start-up CPU otherwise, for
  // routes and answers a process may never see); compileDeferred() runs what is still waiting.
  const compile = ajv.compile.bind(ajv);
  const compiled = new Map<string, ValidateFunction>();
  const pending = new Set<() => ValidateFunction>();
  deferred.set(ajv, pending);
  ajv.compile = ((schema: unknown, meta?: boolean) => {
    const key = `${meta === true}:${JSON.stringify(schema)}`;
    const known = compiled.get(key);
    if (known) return known;
    let real: ValidateFunction | undefined;
    const build = (): ValidateFunction => {
      if (real) return real;
      pending.delete(build);
      if (isObject(schema) && typeof schema.$id === 'string') ajv.removeSchema(schema.$id);
      real = compile(schema as JsonObject, meta);
      return real;
    };
    pending.add(build);
    const validate = ((data: unknown) => {
      const target = build();
      const valid = target(data);
      validate.errors = target.errors;
      return valid;
    }) as ValidateFunction;
    compiled.set(key, validate);
    return validate;
  }) as typeof ajv.compile;
  addFormats(ajv);
  // OpenAPI data-type formats (https://spec.openapis.org/registry/format/).
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('password', () => true);
  ajv.addFormat('binary', () => true); // response bodies only; request files use isFile
  ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  ajv.addKeyword({
    keyword: 'isFile',
    schemaType: 'boolean',
    errors: false,
    validate: (expected: boolean, data: unknown) => !expected || isUploadedFile(data),
  });
  return ajv;
}

/** Declares the `x-*` extension keys a document uses so strict mode accepts them. */
export function declareExtensionKeywords(ajv: Ajv2020, document: unknown): void {
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-') && !OPENAPI_KEYWORDS.includes(k)) seen.add(k);
      walk(v);
    }
  };
  walk(document);
  for (const k of seen) if (!ajv.getKeyword(k)) ajv.addKeyword(k);
}

export function compileSchema(ajv: Ajv2020, schema: unknown): ValidateFunction {
  return ajv.compile(schema as JsonObject);
}

export interface RequestAjvs {
  /** JSON bodies: exact types, no coercion, no defaults. */
  body: Ajv2020;
  /** Query string, path params, headers and multipart fields: all arrive as text. */
  text: Ajv2020;
}

export interface DocumentAjvs extends RequestAjvs {
  /** Responses (development and tests): exact types, like JSON bodies. */
  response: Ajv2020;
}

const ajvsByDocument = new Map<string, DocumentAjvs>();

/** The Ajv instances for one OpenAPI document, made once per process and document text. */
export function ajvsFor(document: unknown): DocumentAjvs {
  const key = JSON.stringify(document);
  let ajvs = ajvsByDocument.get(key);
  if (!ajvs) {
    ajvs = {
      body: createAjv({ coerceTypes: false, useDefaults: false }),
      text: createAjv({ coerceTypes: 'array', useDefaults: true }),
      response: createAjv({ coerceTypes: false, useDefaults: false }),
    };
    for (const ajv of Object.values(ajvs)) declareExtensionKeywords(ajv, document);
    ajvsByDocument.set(key, ajvs);
  }
  return ajvs;
}

export function createValidatorCompiler(ajvs: RequestAjvs): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart, contentType }) => {
    // Multipart fields are strings by nature, so they get the coercing instance too.
    const useText = httpPart !== 'body' || (contentType ?? '').startsWith('multipart/');
    return compileSchema(useText ? ajvs.text : ajvs.body, schema);
  };
}

// ---------------------------------------------------------------------------------------------
// Ajv errors -> `errors` map of the envelope with human messages.

function humanize(field: string): string {
  const last = field.split('.').pop() ?? field;
  const words = last
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Value';
}

function fieldSchema(e: ErrorObject): JsonObject | undefined {
  if (e.keyword === 'required') {
    const props = isObject(e.parentSchema) ? e.parentSchema.properties : undefined;
    const prop = isObject(props) ? props[String(e.params.missingProperty)] : undefined;
    return isObject(prop) ? prop : undefined;
  }
  return isObject(e.parentSchema) ? e.parentSchema : undefined;
}

function fieldName(e: ErrorObject, part: string): string {
  const base = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') base.push(String(e.params.missingProperty));
  if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
    base.push(String(e.params.additionalProperty ?? e.params.unevaluatedProperty));
  }
  return base.length > 0 ? base.join('.') : part;
}

function defaultMessage(e: ErrorObject, label: string, field: string): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${label} is required`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `The ${field.split('.').pop()} field is not allowed.`;
    case 'type':
      return `${label} must be of type ${Array.isArray(p.type) ? p.type.join(' or ') : String(p.type)}`;
    case 'minLength':
      return Number(p.limit) === 1
        ? `${label} is required`
        : `${label} must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `${label} may not be greater than ${String(p.limit)} characters`;
    case 'pattern':
      return `${label} format is invalid`;
    case 'format':
      return p.format === 'email'
        ? `${label} must be a valid email address`
        : `${label} must be a valid ${String(p.format)}`;
    case 'enum':
      return `${label} must be one of: ${(Array.isArray(p.allowedValues) ? p.allowedValues : []).join(', ')}`;
    case 'const':
      return `${label} must be ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${label} must be at least ${String(p.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${label} must be at most ${String(p.limit)}`;
    case 'minItems':
      return `${label} must have at least ${String(p.limit)} item(s)`;
    case 'maxItems':
      return `${label} may not have more than ${String(p.limit)} items`;
    case 'isFile':
      return `${label} must be a file`;
    default:
      return `${label} ${e.message ?? 'is invalid'}`;
  }
}

/**
 * A property's schema may carry `x-messages: { required: '...', format: '...' }` (keyed by Ajv
 * keyword, `default` for any) to use the spec's verbatim texts; else `title` or the humanized
 * field name builds the message.
 */
export function toFieldErrors(errors: readonly ErrorObject[], part: string): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    // Composite keywords repeat what their sub-schemas already reported.
    if (['anyOf', 'oneOf', 'allOf', 'if', 'not'].includes(e.keyword) && errors.length > 1) continue;
    const field = fieldName(e, part);
    const schema = fieldSchema(e);
    const custom = isObject(schema?.['x-messages']) ? schema['x-messages'] : undefined;
    const label = typeof schema?.title === 'string' ? schema.title : humanize(field);
    const text = custom?.[e.keyword] ?? custom?.default;
    const message = typeof text === 'string' ? text : defaultMessage(e, label, field);
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return out;
}
