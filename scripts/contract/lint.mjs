// Checks of the document itself, before any request: what the contract must say for a server to
// be able to keep it. An integer without a maximum lets a client send 1e308 (a page number, an
// amount) that no server can store or compute with; each one must state its bound.
import { isObject } from './spec.mjs';

/** @typedef {{ where: string, message: string }} DocumentProblem */

// Keys whose values are data or vendor notes, not schemas: an example may well read `type: integer`.
const NOT_SCHEMAS = new Set(['example', 'examples', 'default', 'const', 'enum']);

// Maps keyed by names a document chooses: a property called `default` is still a schema.
const NAMED = new Set([
  'properties',
  'patternProperties',
  'paths',
  'schemas',
  'parameters',
  'responses',
  'headers',
  'content',
  'requestBodies',
  '$defs',
]);

/** @param {string} key JSON Pointer escaping (RFC 6901) */
const escape = (key) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** @param {Record<string, unknown>} node */
function isIntegerSchema(node) {
  const type = node.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

/** Bounded: a maximum, or a finite set of values. @param {Record<string, unknown>} node */
function isBounded(node) {
  return ['maximum', 'exclusiveMaximum', 'enum', 'const'].some((k) => k in node);
}

/**
 * Every integer schema of the document (parameters, headers, bodies, components) that has no
 * upper bound, as JSON Pointers in document order. `$ref`s are not followed: each schema is
 * reported once, where it is written.
 * @param {unknown} document
 * @returns {DocumentProblem[]}
 */
export function unboundedIntegers(document) {
  /** @type {DocumentProblem[]} */
  const problems = [];
  /**
   * @param {unknown} node @param {string} where
   * @param {boolean} [names] the keys are names (of properties, paths...), not keywords
   */
  const walk = (node, where, names = false) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${where}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    if (!names && isIntegerSchema(node) && !isBounded(node)) {
      problems.push({ where, message: 'integer without a maximum' });
    }
    for (const [key, value] of Object.entries(node)) {
      if (!names && (NOT_SCHEMAS.has(key) || key.startsWith('x-'))) continue;
      walk(value, `${where}/${escape(key)}`, NAMED.has(key) && !names);
    }
  };
  walk(document, '#');
  return problems;
}
