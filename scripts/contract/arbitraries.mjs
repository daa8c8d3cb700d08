// fast-check arbitraries built from the contract: schema-valid requests for every operation
// (realistic where a format or a field's meaning demands it, fed with values harvested from
// earlier answers), and invalid or junk variants that the server must refuse.
import fc from 'fast-check';
import { isObject } from './spec.mjs';
import * as v from './values.mjs';

/**
 * @typedef {import('./spec.mjs').Json} Json
 * @typedef {import('./spec.mjs').Schema} Schema
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./values.mjs').FilePart} FilePart
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
 * @typedef {(key: string) => readonly unknown[]} PoolReader
 */

// Values a field takes from earlier answers or from the tool's own account, by field name.
// Descriptions that name a schema property (e.g. "The app (`App.id`)") are read as links too.
const NAMED_LINKS = /** @type {Record<string, string[]>} */ ({
  app_id: ['App.id'],
  user_app_id: ['App.id'],
  package_id: ['Package.id'],
  payment_method_id: ['PaymentMethod.id'],
  country: ['Country.id'],
  abilities: ['TokenPermission.value'],
  document_type: ['DocumentType.document_type#lower'],
  document_name: ['DocumentType.data'],
  sponsor_id: ['$username'],
  username: ['$username'],
  email: ['$email'],
  password: ['$password'],
  currentpassword: ['$password'],
  mpin: ['$pin'],
  spassword: ['$pin'],
  collect_address: ['$evmAddress', '$tronAddress'],
});

// Realistic values by field name, mixed with plain schema-driven ones.
const NAMED_VALUES = /** @type {Record<string, fc.Arbitrary<unknown>>} */ ({
  name: v.personName,
  app_name: v.phrase,
  token_name: v.phrase,
  info: v.phrase,
  remarks: v.phrase,
  landmark: v.phrase,
  city: fc.constantFrom('Pune', 'Mumbai', 'Berlin', 'Lagos', 'Austin'),
  state: fc.constantFrom('Maharashtra', 'Bavaria', 'Lagos', 'Texas'),
  address_line1: v.phrase,
  address_line2: v.phrase,
  pincode: fc.stringMatching(/^[0-9]{6}$/),
  project_url: v.httpUrl,
  callback_url: fc.oneof(v.httpUrl, fc.constant('')),
  whitelist_ip: v.ipWhitelist,
  password: v.strongPassword,
  newpassword: v.strongPassword,
  collect_address: fc.oneof(v.evmAddress, v.tronAddress),
  gasAddress: fc.oneof(v.evmAddress, v.tronAddress),
  phone: fc.stringMatching(/^91[0-9]{10}$/),
  document_number: fc.stringMatching(/^[0-9]{12}$/),
  dob: v.birthDate,
  is_checked: fc.constant(1),
});

const FORMATS = /** @type {Record<string, fc.Arbitrary<string>>} */ ({
  email: v.email,
  uri: v.httpUrl,
  url: v.httpUrl,
  'uri-reference': v.httpUrl,
  date: v.birthDate,
  'date-time': v.dateTime,
  ipv4: v.ipv4,
  ipv6: fc.ipV6(),
  uuid: fc.uuid(),
});

const BAD_FORMATS = /** @type {Record<string, string[]>} */ ({
  email: ['not-an-email', 'a@', '@example.com', 'two@@example.com'],
  uri: ['not a url', '://missing-scheme'],
  date: ['2020-13-45', 'yesterday', '15/01/2025'],
  'date-time': ['2025-01-15 10:30', 'tomorrow'],
  uuid: ['not-a-uuid'],
});

const UNICODE = 'aäöüßéçñ漢字😀 -_.';

/**
 * `arbitrary.filter(accept)`, or null when sampling finds no value it accepts: such a filter
 * would spin forever (e.g. "wrong type: null" for a nullable field).
 * @template T @param {fc.Arbitrary<T>} arbitrary @param {(x: T) => boolean} accept
 */
function viable(arbitrary, accept) {
  const samples = fc.sample(arbitrary, { numRuns: 40, seed: 7 });
  return samples.some(accept) ? arbitrary.filter(accept) : null;
}
const MAX_SHORT = 24;

/** @param {Schema} schema */
function types(schema) {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (isObject(schema.properties) || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

export class Generator {
  /** @param {Contract} contract @param {PoolReader} pool @param {Record<string, string[]>} [links] pool keys by field name */
  constructor(contract, pool, links = NAMED_LINKS) {
    this.contract = contract;
    this.pool = pool;
    this.namedLinks = links;
  }

  /** Pool keys a field draws from: named links plus `Schema.prop` references in its description. */
  links(/** @type {string} */ name, /** @type {Schema} */ schema) {
    const keys = [...(this.namedLinks[name] ?? [])];
    const description = typeof schema.description === 'string' ? schema.description : '';
    const schemas = this.contract.document.components?.schemas ?? {};
    for (const [, owner = '', prop = ''] of description.matchAll(/`([A-Z]\w*)\.(\w+)`/g)) {
      const properties = schemas[owner]?.properties;
      if (isObject(properties) && prop in properties) keys.push(`${owner}.${prop}`);
    }
    return keys;
  }

  /** Pooled values usable for a field (valid for its schema). */
  pooled(/** @type {string} */ name, /** @type {Schema} */ schema) {
    const resolved = this.contract.deref(schema);
    const isArray = types(resolved).includes('array');
    const values = [];
    for (const key of this.links(name, schema)) {
      const [base = '', transform] = key.split('#');
      for (const value of this.pool(base)) {
        values.push(
          transform === 'lower' && typeof value === 'string' ? value.toLowerCase() : value,
        );
      }
    }
    const target = isArray ? this.contract.deref(resolved.items ?? {}) : resolved;
    return [...new Set(values)].filter((x) => this.contract.valid(target, x));
  }

  /**
   * A valid value for `schema`. `name` is the field's name (hints and links apply to it).
   * @param {Schema} rawSchema @param {{ name?: string, depth?: number, file?: boolean }} [at]
   * @returns {fc.Arbitrary<unknown>}
   */
  value(rawSchema, at = {}) {
    const schema = this.contract.deref(rawSchema);
    const { name = '', depth = 0 } = at;
    const plain = this.#plain(schema, depth);
    /** @type {{ weight: number, arbitrary: fc.Arbitrary<unknown> }[]} */
    const options = [{ weight: 2, arbitrary: plain }];
    const hint =
      NAMED_VALUES[name] && depth <= 1
        ? viable(NAMED_VALUES[name], (x) => this.contract.valid(schema, x))
        : null;
    if (hint) options.push({ weight: 4, arbitrary: hint });
    const pooled = depth <= 1 ? this.pooled(name, rawSchema) : [];
    if (pooled.length > 0) {
      const item = fc.constantFrom(...pooled);
      const arbitrary = types(schema).includes('array')
        ? fc.uniqueArray(item, {
            minLength: Math.min(schema.minItems ?? 0, pooled.length),
            maxLength: pooled.length,
            selector: (x) => JSON.stringify(x),
          })
        : item;
      options.push({
        weight: 8,
        arbitrary: arbitrary.filter((x) => this.contract.valid(schema, x)),
      });
    }
    return options.length === 1 ? plain : fc.oneof(...options);
  }

  /** @param {Schema} schema @param {number} depth @returns {fc.Arbitrary<unknown>} */
  #plain(schema, depth) {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) {
      return fc.constantFrom(...schema.enum.filter((x) => this.contract.valid(schema, x)));
    }
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives)) {
      return fc
        .oneof(...alternatives.map((alt) => this.value(alt, { depth: depth + 1 })))
        .filter((x) => this.contract.valid(schema, x));
    }
    const ts = types(schema);
    if (ts.length > 1) return fc.oneof(...ts.map((t) => this.#typed(schema, t, depth)));
    return this.#typed(schema, ts[0] ?? 'string', depth);
  }

  /** @param {Schema} schema @param {string} type @param {number} depth @returns {fc.Arbitrary<unknown>} */
  #typed(schema, type, depth) {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1001) + 1;
        const max = schema.maximum ?? (schema.exclusiveMaximum ?? Number.MAX_SAFE_INTEGER + 1) - 1;
        return fc.oneof(
          { weight: 9, arbitrary: fc.integer({ min, max: Math.min(max, min + 100) }) },
          { weight: 1, arbitrary: fc.integer({ min, max }) },
        );
      }
      case 'number': {
        const min = schema.minimum ?? -1e6;
        const max = schema.maximum ?? 1e9;
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      }
      case 'array': {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.min(schema.maxItems ?? minLength + 4, minLength + 4);
        const item = this.value(schema.items ?? {}, { depth: depth + 1 });
        return schema.uniqueItems
          ? fc.uniqueArray(item, { minLength, maxLength, selector: (x) => JSON.stringify(x) })
          : fc.array(item, { minLength, maxLength });
      }
      case 'object': {
        const properties = isObject(schema.properties) ? schema.properties : {};
        const required = Array.isArray(schema.required) ? schema.required : [];
        /** @type {Record<string, fc.Arbitrary<unknown>>} */
        const model = {};
        for (const [key, sub] of Object.entries(properties)) {
          model[key] = this.value(sub, { name: key, depth: depth + 1 });
        }
        return fc.record(model, { requiredKeys: required.filter((k) => k in model) });
      }
      default:
        return this.#string(schema);
    }
  }

  /** @param {Schema} schema @returns {fc.Arbitrary<unknown>} */
  #string(schema) {
    if (schema.format === 'binary') return v.imageFile;
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? 200;
    const fits = (/** @type {string} */ s) => this.contract.valid(schema, s);
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (format) return format.filter(fits);
    if (typeof schema.pattern === 'string') {
      return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }).filter(fits);
    }
    const short = Math.max(minLength, Math.min(maxLength, MAX_SHORT));
    return fc
      .oneof(
        { weight: 6, arbitrary: fc.string({ minLength, maxLength: short }) },
        {
          weight: 1,
          arbitrary: fc.string({ unit: fc.constantFrom(...UNICODE), minLength, maxLength: short }),
        },
        // Boundary: exactly the longest allowed string must be accepted too.
        { weight: 1, arbitrary: fc.string({ minLength: maxLength, maxLength }) },
      )
      .filter(fits);
  }

  /**
   * Values that break `schema` on their own, each with why.
   * @param {Schema} rawSchema @returns {{ why: string, arbitrary: fc.Arbitrary<unknown> }[]}
   */
  invalid(rawSchema) {
    const schema = this.contract.deref(rawSchema);
    const ts = types(schema);
    const breaks = (/** @type {unknown} */ x) => !this.contract.valid(schema, x);
    /** @type {{ why: string, arbitrary: fc.Arbitrary<unknown> }[]} */
    const candidates = [];
    const out = {
      push: (/** @type {{ why: string, arbitrary: fc.Arbitrary<unknown> }} */ c) =>
        candidates.push(c),
    };
    const wrongTypes = /** @type {[string, fc.Arbitrary<unknown>][]} */ ([
      ['a number', fc.integer({ min: -5, max: 99999 })],
      ['a string', fc.string({ maxLength: 8 })],
      ['a boolean', fc.boolean()],
      ['null', fc.constant(null)],
      ['an array', fc.constant([])],
      ['an object', fc.constant({})],
      ['a fraction', fc.constantFrom(1.5, 0.25)],
    ]);
    for (const [what, arbitrary] of wrongTypes) {
      if (schema.format === 'binary') break;
      out.push({ why: `wrong type (${what})`, arbitrary: arbitrary });
    }
    if (ts.includes('string') && schema.format !== 'binary') {
      if (typeof schema.maxLength === 'number') {
        const n = schema.maxLength;
        out.push({
          why: `oversize string (more than ${n} characters)`,
          arbitrary: fc.integer({ min: n + 1, max: n + 64 }).map((len) => 'x'.repeat(len)),
        });
      }
      if (typeof schema.minLength === 'number' && schema.minLength > 0) {
        out.push({
          why: `string shorter than ${schema.minLength}`,
          arbitrary: fc.string({ maxLength: schema.minLength - 1 }),
        });
      }
      if (typeof schema.pattern === 'string') {
        out.push({
          why: `string not matching ${schema.pattern}`,
          arbitrary: fc.string({ minLength: 1, maxLength: 40 }),
        });
      }
      const bad = typeof schema.format === 'string' ? BAD_FORMATS[schema.format] : undefined;
      if (bad) {
        out.push({
          why: `not a valid ${schema.format}`,
          arbitrary: fc.constantFrom(...bad),
        });
      }
    }
    if (Array.isArray(schema.enum)) {
      out.push({
        why: `value outside the enum ${JSON.stringify(schema.enum)}`,
        arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.integer()),
      });
    }
    if (ts.includes('integer') || ts.includes('number')) {
      if (typeof schema.minimum === 'number') {
        const min = schema.minimum;
        out.push({
          why: `number below the minimum ${min}`,
          arbitrary: fc.integer({ min: min - 1000, max: min - 1 }),
        });
      }
      if (typeof schema.maximum === 'number') {
        const max = schema.maximum;
        out.push({
          why: `number above the maximum ${max}`,
          arbitrary: fc.integer({ min: max + 1, max: max + 1000 }),
        });
      }
    }
    if (ts.includes('array')) {
      if (typeof schema.minItems === 'number' && schema.minItems > 0) {
        out.push({ why: `fewer than ${schema.minItems} items`, arbitrary: fc.constant([]) });
      }
      const item = this.value(schema.items ?? {}, { depth: 2 });
      if (schema.uniqueItems) {
        out.push({
          why: 'duplicate items',
          arbitrary: item.map((x) => [x, x]),
        });
      }
      for (const bad of this.invalid(schema.items ?? {}).slice(0, 2)) {
        out.push({
          why: `an item of ${bad.why}`,
          arbitrary: bad.arbitrary.map((x) => [x]),
        });
      }
    }
    return candidates.flatMap(({ why, arbitrary }) => {
      const kept = viable(arbitrary, breaks);
      return kept ? [{ why, arbitrary: kept }] : [];
    });
  }
}

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
function bodyMedia(op) {
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

/**
 * Invalid variants of a valid request: each breaks exactly one rule of the contract.
 * @param {Generator} gen @param {Operation} op @param {fc.Arbitrary<RequestSpec>} valid
 * @returns {fc.Arbitrary<RequestSpec>[]}
 */
export function invalidArbitraries(gen, op, valid) {
  /** @type {fc.Arbitrary<RequestSpec>[]} */
  const out = [];
  /** @param {RequestSpec} req @param {Partial<RequestSpec>} change @param {string} reason */
  const variant = (req, change, reason) =>
    /** @type {RequestSpec} */ ({ ...req, ...change, reason });

  for (const param of op.parameters) {
    const where = param.in;
    if (where !== 'path' && where !== 'query') continue;
    for (const bad of gen.invalid(param.schema)) {
      const text = viable(
        bad.arbitrary.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))),
        // A path value must still reach this operation: no empty, dot or slash segments.
        (x) =>
          (where === 'query' || (x !== '' && x !== '.' && x !== '..' && !x.includes('/'))) &&
          !gen.contract.valid(param.schema, coerce(gen, param.schema, x)),
      );
      if (!text) continue;
      out.push(
        fc
          .tuple(valid, text)
          .map(([req, x]) =>
            variant(
              req,
              { [where]: { ...req[where], [param.name]: x } },
              `${where} parameter ${param.name}: ${bad.why}`,
            ),
          ),
      );
    }
  }

  const media = bodyMedia(op);
  if (!media) return out;
  const schema = gen.contract.deref(media.schema);
  const multipart = /multipart\/form-data/i.test(media.type);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];

  for (const field of required) {
    out.push(
      valid.map((req) =>
        variant(req, { body: dropField(req.body, field) }, `missing required field ${field}`),
      ),
    );
  }
  if (schema.additionalProperties === false) {
    out.push(
      fc
        .tuple(
          valid,
          fc.stringMatching(/^[a-z][a-z_]{2,12}$/).filter((k) => !(k in properties)),
        )
        .map(([req, key]) =>
          variant(
            req,
            { body: setField(req.body, `unknown_${key}`, 'x') },
            `unknown field unknown_${key}`,
          ),
        ),
    );
  }
  for (const [field, sub] of Object.entries(properties)) {
    const prop = gen.contract.deref(sub);
    if (multipart && prop.format === 'binary') {
      out.push(
        fc
          .tuple(valid, v.notAnImage)
          .map(([req, file]) =>
            variant(
              req,
              { body: setFile(req.body, field, file) },
              `${field} is not a PNG or JPEG image`,
            ),
          ),
      );
      continue;
    }
    for (const bad of gen.invalid(sub)) {
      // Multipart fields are text: only rules a text value can break apply to them.
      if (multipart && /wrong type|outside the enum/.test(bad.why)) continue;
      out.push(
        fc
          .tuple(valid, bad.arbitrary)
          .map(([req, x]) =>
            variant(req, { body: setField(req.body, field, x) }, `field ${field}: ${bad.why}`),
          ),
      );
    }
  }
  // Every schema-level variant must really be invalid (e.g. dropping a field another rule
  // needs is fine, dropping one nothing needs is not a variant).
  const schemaBreaking = out.splice(0).flatMap((arb) => {
    const kept = viable(arb, (req) => !requestValid(gen, op, req));
    return kept ? [kept] : [];
  });
  out.push(...schemaBreaking);

  // Size limits are prose in the contract (2 MB an image), so only an operation that declares
  // 413 gets a file far over any such limit; it must be refused, not stored.
  if (multipart && '413' in op.responses) {
    for (const [field, sub] of Object.entries(properties)) {
      if (gen.contract.deref(sub).format !== 'binary') continue;
      out.push(
        valid.map((req) =>
          variant(
            req,
            { body: setFile(req.body, field, v.oversizedImage) },
            `${field} is a ${v.OVERSIZED_BYTES / 1024 / 1024} MiB image`,
          ),
        ),
      );
    }
  }

  if (!multipart) {
    out.push(
      fc
        .tuple(valid, fc.constantFrom('[]', '"text"', '42', 'null', 'true'))
        .map(([req, json]) =>
          variant(
            req,
            { body: { kind: 'raw', contentType: media.type, data: json } },
            `body is ${json}, not an object`,
          ),
        ),
    );
  }
  out.push(
    fc
      .tuple(valid, fc.constantFrom('{', '{"a":', "{'single': 'quotes'}", '{"a":1,}', '\u0000'))
      .map(([req, junk]) =>
        variant(
          req,
          {
            body: {
              kind: 'raw',
              contentType:
                media.type === 'multipart/form-data'
                  ? 'multipart/form-data; boundary=broken'
                  : media.type,
              data: junk,
            },
          },
          `malformed ${media.type} body`,
        ),
      ),
  );
  if (op.body?.required) {
    out.push(
      valid.map((req) =>
        variant(
          req,
          { body: { kind: 'raw', contentType: null, data: '' } },
          'no body and no content type',
        ),
      ),
    );
    out.push(
      valid.map((req) =>
        variant(
          req,
          {
            body: {
              kind: 'raw',
              contentType: media.type.startsWith('multipart')
                ? 'multipart/form-data; boundary=empty'
                : media.type,
              data: '',
            },
          },
          `empty ${media.type} body`,
        ),
      ),
    );
  }
  out.push(
    fc
      .tuple(
        valid,
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          multipart ? 'application/json' : 'multipart/form-data; boundary=x',
        ),
      )
      .map(([req, type]) =>
        variant(
          req,
          { body: { kind: 'raw', contentType: type, data: asText(req.body) } },
          `undeclared content type ${type}`,
        ),
      ),
  );
  return out;
}

/** What a query/path text means to a validator that coerces text, as servers do. */
function coerce(
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

/** @param {Body | null} body @param {string} field @returns {Body | null} */
function dropField(body, field) {
  if (body?.kind === 'json' && isObject(body.value)) {
    const { [field]: _dropped, ...rest } = body.value;
    return { kind: 'json', value: rest };
  }
  if (body?.kind === 'multipart') {
    const { [field]: _f, ...fields } = body.fields;
    const { [field]: _p, ...files } = body.files;
    return { kind: 'multipart', fields, files };
  }
  return body;
}

/** @param {Body | null} body @param {string} field @param {unknown} value @returns {Body | null} */
function setField(body, field, value) {
  if (body?.kind === 'json' && isObject(body.value)) {
    return { kind: 'json', value: { ...body.value, [field]: value } };
  }
  if (body?.kind === 'multipart') {
    const { [field]: _file, ...files } = body.files;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return { kind: 'multipart', fields: { ...body.fields, [field]: text }, files };
  }
  return body;
}

/** @param {Body | null} body @param {string} field @param {FilePart} file @returns {Body | null} */
function setFile(body, field, file) {
  if (body?.kind !== 'multipart') return body;
  return { kind: 'multipart', fields: body.fields, files: { ...body.files, [field]: file } };
}

/** The body's content as text for a wrong-content-type variant. @param {Body | null} body */
function asText(body) {
  if (body?.kind === 'json') return JSON.stringify(body.value);
  if (body?.kind === 'multipart') return new URLSearchParams(body.fields).toString();
  return body?.kind === 'raw' ? body.data : '';
}
