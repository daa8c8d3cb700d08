// Values harvested from the server's answers, kept by `Schema.property` (e.g. `App.id`) for
// later requests: fields linked to them draw from them (generator.mjs), and x-destructive
// operations only ever get ids of the tool's own account.
import { isObject, refName } from './spec.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Schema} Schema
 */

// Entities the tool's own account creates: x-destructive operations only ever get these ids.
const OWNED_SCHEMAS = [
  'App',
  'ApiKey',
  'CurrentSubscription',
  'SubscriptionRow',
  'UserPaymentMethod',
  'Upload',
  'ReceiveTransaction',
  'SendTransaction',
  'Account',
];
// The newest values kept per key.
const POOL_SIZE = 40;

export class ValuePools {
  /** @param {Contract} contract */
  constructor(contract) {
    this.contract = contract;
    /** @type {Map<string, unknown[]>} */
    this.byKey = new Map();
  }

  /** The values kept under a key, oldest first. @param {string} key @returns {unknown[]} */
  get(key) {
    return this.byKey.get(key) ?? [];
  }

  /** @param {string} key @param {unknown} value */
  remember(key, value) {
    const list = this.byKey.get(key) ?? [];
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > POOL_SIZE) list.shift();
    this.byKey.set(key, list);
  }

  /** Ids the tool's own account created (any kind), for x-destructive operations. */
  ownedIds() {
    return [...new Set(OWNED_SCHEMAS.flatMap((name) => this.get(`${name}.id`)))];
  }

  /** Walks an answer with its schema and keeps every scalar as `Schema.property`. @param {Schema} rawSchema @param {unknown} value */
  harvest(rawSchema, value, depth = 0) {
    if (depth > 12) return;
    const name = refName(rawSchema);
    const schema = this.contract.deref(rawSchema);
    for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
      this.harvest(alt, value, depth + 1);
    }
    if (Array.isArray(value) && schema.items) {
      for (const item of value) this.harvest(schema.items, item, depth + 1);
      return;
    }
    if (!isObject(value) || !isObject(schema.properties)) return;
    for (const [key, sub] of Object.entries(schema.properties)) {
      const x = value[key];
      if (x === undefined || x === null) continue;
      const owner = name ?? null;
      if (owner && (typeof x === 'string' || typeof x === 'number'))
        this.remember(`${owner}.${key}`, x);
      if (owner && Array.isArray(x) && x.every((i) => typeof i === 'string')) {
        for (const i of x) this.remember(`${owner}.${key}`, i);
      }
      this.harvest(sub, x, depth + 1);
    }
  }
}
