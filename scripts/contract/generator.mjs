// Values for one schema of the contract, as fast-check arbitraries: valid ones (realistic where
// a format or a field's meaning demands it, fed with values harvested from earlier answers), and
// values that break the schema, each with why.
import fc from 'fast-check';
import { isObject } from './spec.mjs';
import * as v from './values.mjs';

/**
 * @typedef {import('./spec.mjs').Schema} Schema
 * @typedef {import('./spec.mjs').Contract} Contract
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
export function viable(arbitrary, accept) {
  const samples = fc.sample(arbitrary, { numRuns: 40, seed: 7 });
  return samples.some(accept) ? arbitrary.filter(accept) : null;
}
const MAX_SHORT = 24;

/** @param {Schema} schema */
export function types(schema) {
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
