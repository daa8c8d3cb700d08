// Schema-valid requests for an operation: its path and query parameters, a JSON or multipart
// body, and the check that a request satisfies the contract (which every invalid variant of
// variants.mjs must fail).
import fc from 'fast-check';
import { types } from './generator.mjs';
import { isObject } from './spec.mjs';

/**
 * @typedef {import('./spec.mjs').Json} Json
 * @typedef {import('./spec.mjs').Schema} Schema
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./values.mjs').FilePart} FilePart
 * @typedef {import('./generator.mjs').Generator} Generator
 * @typedef {{ kind: 'json', value: unknown }
 *   | { kind: 'multipart', fields: Record<string, string>, files: Record<string, FilePart> }
 *   | { kind: 'raw', contentType: string | null, data: string | Buffer }} Body
 * @typedef {'session' | 'none' | 'forged' | 'malformed' | 'swapped' | 'revoked'} Auth
 *   `session` is the run's own credential (the portal session, or the gateway's API key);
 *   `revoked` a key that no longer opens the gateway.
 * @typedef {{ path: Record<string, string>, query: Record<string, string>, body: Body | null,
 *   auth: Auth, authHeader?: string, keyHeader?: string, reason?: string }} RequestSpec
 *   `authHeader` is a raw Authorization header; `keyHeader` names the header the credential
 *   goes in instead of `Authorization: Bearer` (the gateway's `X-API-Key`).
 */

/**
 * Valid path and query parameters.
 * @param {Generator} gen @param {Operation} op @param {(param: import('./spec.mjs').Parameter) => fc.Arbitrary<unknown> | null} [override]
 */
export function paramsArbitrary(gen, op, override) {
  /** @type {Record<string, fc.Arbitrary<unknown>>} */
  const path = {};
  /** @type {Record<string, fc.Arbitrary<unknown>>} */
  const query = {};
  /** @type {string[]} */
  const requiredQuery = [];
  for (const param of op.parameters) {
    const arb =
      override?.(param) ??
      gen.value({ ...param.schema, description: param.description }, { name: param.name });
    if (param.in === 'path') path[param.name] = arb;
    if (param.in === 'query') {
      query[param.name] = arb;
      if (param.required) requiredQuery.push(param.name);
    }
  }
  return fc.record({
    // A URL resolves `.` and `..` segments away: such a value can never reach the operation.
    path: fc
      .record(path)
      .map(stringify)
      .filter((p) => Object.values(p).every((x) => x !== '.' && x !== '..')),
    query: fc.record(query, { requiredKeys: requiredQuery }).map(stringify),
  });
}

/** @param {Record<string, unknown>} values */
function stringify(values) {
  return Object.fromEntries(
    Object.entries(values).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
  );
}

/** The media type an operation's body is sent as, and its schema. @param {Operation} op */
export function bodyMedia(op) {
  if (!op.body) return null;
  const entries = Object.entries(op.body.content);
  const json = entries.find(([type]) => /json/i.test(type));
  const [type, media] = json ?? entries[0] ?? [];
  if (!type) return null;
  return { type, schema: /** @type {Schema} */ (media?.schema ?? {}) };
}

/**
 * A valid body for the operation (JSON or multipart), or null when it takes none.
 * @param {Generator} gen @param {Operation} op @returns {fc.Arbitrary<Body | null>}
 */
export function bodyArbitrary(gen, op) {
  const media = bodyMedia(op);
  if (!media) return fc.constant(null);
  const schema = gen.contract.deref(media.schema);
  if (/multipart\/form-data/i.test(media.type)) {
    return gen.value(schema).map((value) => toMultipart(gen, schema, /** @type {Json} */ (value)));
  }
  const confirm = confirmations(schema);
  // Confirmation fields mostly repeat their field, as a person filling the form would.
  return fc
    .tuple(gen.value(schema), fc.integer({ min: 0, max: 3 }))
    .map(([value, dice]) =>
      confirm.length > 0 && isObject(value) && dice > 0 ? withConfirmations(value, confirm) : value,
    )
    .filter((value) => gen.contract.valid(schema, value))
    .map((value) => /** @type {Body} */ ({ kind: 'json', value }));
}

/** `x_confirmation` fields of a schema whose `x` exists too. @param {Schema} schema */
function confirmations(schema) {
  const props = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  return props.filter((p) => p.endsWith('_confirmation') && props.includes(p.slice(0, -13)));
}

/** @param {Json} value @param {string[]} fields */
function withConfirmations(value, fields) {
  const out = { ...value };
  for (const field of fields) {
    const base = field.slice(0, -13);
    if (base in out) out[field] = out[base];
  }
  return out;
}

/** @param {Generator} gen @param {Schema} schema @param {Json} value @returns {Body} */
function toMultipart(gen, schema, value) {
  /** @type {Record<string, string>} */
  const fields = {};
  /** @type {Record<string, FilePart>} */
  const files = {};
  for (const [key, x] of Object.entries(value)) {
    const prop = gen.contract.deref(schema.properties?.[key] ?? {});
    if (prop.format === 'binary') files[key] = /** @type {FilePart} */ (x);
    else fields[key] = typeof x === 'string' ? x : JSON.stringify(x);
  }
  return { kind: 'multipart', fields, files };
}

/** What a query/path text means to a validator that coerces text, as servers do. */
export function coerce(
  /** @type {Generator} */ gen,
  /** @type {Schema} */ schema,
  /** @type {string} */ text,
) {
  const ts = types(gen.contract.deref(schema));
  if ((ts.includes('integer') || ts.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (ts.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** True when the request's parameters and body all satisfy the contract. @param {Generator} gen @param {Operation} op @param {RequestSpec} req */
export function requestValid(gen, op, req) {
  for (const param of op.parameters) {
    if (param.in !== 'path' && param.in !== 'query') continue;
    const text = req[param.in][param.name];
    if (text === undefined) {
      if (param.required) return false;
      continue;
    }
    if (!gen.contract.valid(param.schema, coerce(gen, param.schema, text))) return false;
  }
  const media = bodyMedia(op);
  if (!media) return true;
  const body = req.body;
  if (!body) return !op.body?.required;
  const schema = gen.contract.deref(media.schema);
  if (body.kind === 'json') return gen.contract.valid(schema, body.value);
  if (body.kind === 'multipart') {
    /** @type {Record<string, unknown>} */
    const value = { ...body.fields };
    for (const [key, file] of Object.entries(body.files)) {
      if (!/^image\/(png|jpeg)$/.test(sniff(file.data))) return false;
      value[key] = 'file';
    }
    return gen.contract.valid(schema, value);
  }
  return false;
}

/** The image type bytes really are (PNG or JPEG), else application/octet-stream. @param {Buffer} data */
function sniff(data) {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return 'application/octet-stream';
}
