// The checks every answer goes through, and the ones that depend on what was sent:
// a schema-valid request is never refused as malformed, an invalid one is never accepted,
// and a secured operation answers 401 without a session.
import { isObject } from './spec.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./spec.mjs').Json} Json
 * @typedef {import('./spec.mjs').Schema} Schema
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./http.mjs').WireResponse} WireResponse
 * @typedef {'valid' | 'invalid' | 'auth'} Category
 * @typedef {'server-error' | 'status-undeclared' | 'response-content-type' | 'response-schema'
 *   | 'response-unknown-field' | 'response-header' | 'malformed-refusal' | 'invalid-accepted'
 *   | 'auth-not-401' | 'pagination' | 'flow' | 'network'} Kind
 * @typedef {{ kind: Kind, message: string }} Problem
 * @typedef {{ data: unknown[], current_page: number, last_page: number, per_page: number,
 *   from: number | null, to: number | null, total: number, first_page_url: unknown }} Page
 */

/** What each kind of failure means, for the summary and scripts/contract/README.md. */
export const KIND_TITLES = /** @type {Record<Kind, string>} */ ({
  'server-error': '5xx answer',
  'status-undeclared': 'status not declared for the operation',
  'response-content-type': 'content type not declared for the status',
  'response-schema': 'body does not match its schema',
  'response-unknown-field': 'unknown field in a closed object',
  'response-header': 'required response header missing or wrong',
  'malformed-refusal': 'schema-valid request refused as malformed',
  'invalid-accepted': 'invalid request accepted',
  'auth-not-401': 'not refused (401) without a valid session or API key',
  pagination: 'paged list breaks the pagination conventions',
  flow: 'stateful flow step failed',
  network: 'no answer',
});

// Messages that say a value breaks a schema rule (Ajv's defaults, the usual Laravel-style
// wording, and the reference server's), each with the schema keywords it is about: said of a
// value the field's schema allows, by a rule the schema has, they refuse a valid request.
/** @type {[RegExp, (schema: Schema) => boolean][]} */
const SHAPE_MESSAGES = [
  [
    /must be (of type|an? (string|integer|number|boolean|array|object)\b|(string|integer|number|boolean|array|object)\b)/i,
    () => true,
  ],
  [
    /must NOT have additional|\b(field|property) is not allowed\b|\bunknown (field|property)\b/i,
    () => true,
  ],
  [/must match pattern|\bformat is invalid\b/i, (s) => 'pattern' in s || 'format' in s],
  [/must match format|must be a valid (e-?mail|date|uri|url|date-time)/i, (s) => 'format' in s],
  [/must be (equal to )?one of\b|must be equal to constant/i, (s) => 'enum' in s || 'const' in s],
  [
    /(may not be greater than|must not be greater than|must be at least|must not exceed|must NOT have (more|fewer) than) \d+ characters/i,
    (s) => 'minLength' in s || 'maxLength' in s,
  ],
  [
    /(must (have|contain) at (least|most)|must NOT have (more|fewer) than) \d+ items?/i,
    (s) => 'minItems' in s || 'maxItems' in s,
  ],
  [
    /must be (>=|<=|>|<|at least|at most|greater than|less than) -?\d/i,
    (s) => ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => k in s),
  ],
];
const REQUIRED_MESSAGE = /\b(is required|must have required property|field is required)\b/i;

/** The response the operation declares for a status, with the media type found in it. */
function declared(
  /** @type {Contract} */ contract,
  /** @type {Operation} */ op,
  /** @type {number} */ status,
) {
  return contract.responseFor(op, status);
}

/** @param {string | undefined} header */
function mediaType(header) {
  const [type = ''] = (header ?? '').split(';', 1);
  return type.trim().toLowerCase();
}

/** @param {string} declaredType @param {string} actual */
function mediaMatches(declaredType, actual) {
  const d = declaredType.toLowerCase();
  if (d === '*/*') return true;
  if (d.endsWith('/*')) return actual.startsWith(d.slice(0, -1));
  return d === actual;
}

/**
 * Checks that depend only on the answer: status declared, no 5xx, content type, body schema
 * (unknown fields reported on their own), required headers.
 * @param {Contract} contract @param {Operation} op @param {WireResponse} res
 * @returns {Problem[]}
 */
export function checkAnswer(contract, op, res) {
  /** @type {Problem[]} */
  const problems = [];
  const response = declared(contract, op, res.status);
  if (res.status >= 500) {
    problems.push({
      kind: 'server-error',
      message: `answered ${res.status}${response ? '' : ' (not declared either)'}: ${snippet(res)}`,
    });
    return problems;
  }
  if (!response) {
    const list = Object.keys(op.responses).join(', ');
    problems.push({
      kind: 'status-undeclared',
      message: `answered ${res.status}, which ${op.operationId} does not declare (declared: ${list})`,
    });
    return problems;
  }
  const content = isObject(response.content) ? response.content : {};
  const types = Object.keys(content);
  const actual = mediaType(res.headers['content-type']);
  if (types.length > 0) {
    const match = types.find((t) => mediaMatches(t, actual));
    if (!match) {
      problems.push({
        kind: 'response-content-type',
        message: `${res.status} answered with content type '${actual || '(none)'}', declared: ${types.join(', ')}`,
      });
    } else if (/json/i.test(match)) {
      if (res.jsonError !== null || res.json === undefined) {
        problems.push({
          kind: 'response-schema',
          message: `${res.status} body is not JSON: ${snippet(res)}`,
        });
      } else {
        problems.push(...checkSchema(contract, content[match]?.schema ?? {}, res.json, res.status));
      }
    } else if (/^image\//.test(match) && !imageMatches(actual, res.bytes)) {
      problems.push({
        kind: 'response-content-type',
        message: `${res.status} says ${actual} but the bytes are not a ${actual} file`,
      });
    }
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = res.headers[name];
    if (value === undefined) {
      if (header.required) {
        problems.push({
          kind: 'response-header',
          message: `${res.status} lacks the required header ${name}`,
        });
      }
      continue;
    }
    const schema = header.schema ?? {};
    const typed =
      /integer|number/.test(String(schema.type)) && /^-?\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : value;
    if (!contract.valid(schema, typed)) {
      problems.push({
        kind: 'response-header',
        message: `${res.status} header ${name}: '${value}' does not match ${JSON.stringify(schema)}`,
      });
    }
  }
  return problems;
}

/** @param {string} type @param {Buffer} bytes */
function imageMatches(type, bytes) {
  if (type === 'image/png')
    return bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  if (type === 'image/jpeg') return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return true;
}

/**
 * Ajv against the declared schema; fields a closed object does not know are reported as
 * such, and the rest is checked again without them so each mistake is named once.
 * @param {Contract} contract @param {Schema} schema @param {unknown} body @param {number} status
 * @returns {Problem[]}
 */
function checkSchema(contract, schema, body, status) {
  const validate = contract.validator(schema);
  if (validate(body)) return [];
  const errors = validate.errors ?? [];
  /** @type {string[]} */
  const unknown = [];
  for (const e of errors) {
    const extra = e.params.additionalProperty ?? e.params.unevaluatedProperty;
    if (typeof extra === 'string') unknown.push(`${e.instancePath}/${extra}`);
  }
  /** @type {Problem[]} */
  const problems = [];
  const unique = [...new Set(unknown)];
  let rest = errors;
  if (unique.length > 0) {
    problems.push({
      kind: 'response-unknown-field',
      message: `${status} body has field(s) its schema does not declare: ${unique.join(', ')}`,
    });
    const pruned = structuredClone(body);
    for (const pointer of unique) removeAt(pruned, pointer);
    rest = validate(pruned) ? [] : (validate.errors ?? []);
  }
  const meaningful = rest.filter(
    (e) => !['anyOf', 'oneOf', 'if'].includes(e.keyword) || rest.length === 1,
  );
  if (meaningful.length > 0) {
    const text = meaningful
      .slice(0, 6)
      .map(
        (e) =>
          `body${e.instancePath} ${e.message}${e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
      )
      .join('; ');
    problems.push({
      kind: 'response-schema',
      message: `${status} body does not match its schema: ${text}`,
    });
  }
  return problems;
}

/** @param {unknown} root @param {string} pointer */
function removeAt(root, pointer) {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = parts.pop();
  /** @type {unknown} */
  let node = root;
  for (const part of parts)
    node = isObject(node) || Array.isArray(node) ? /** @type {Json} */ (node)[part] : undefined;
  if (isObject(node) && last !== undefined) delete node[last];
}

/**
 * What the request sent for a field named in `errors` (top level of the body, or a parameter).
 * @param {Operation} op @param {RequestSpec} req @param {string} key
 */
function sentValue(op, req, key) {
  const [name = ''] = key.split(/[.[]/, 1);
  const body = req.body;
  if (body?.kind === 'json' && isObject(body.value) && name in body.value) return body.value[name];
  if (body?.kind === 'multipart') {
    if (name in body.fields) return body.fields[name];
    if (name in body.files) return body.files[name];
  }
  for (const param of op.parameters) {
    if (param.name === name && (param.in === 'path' || param.in === 'query'))
      return req[param.in][name];
  }
  return undefined;
}

/** The schema of a field named in `errors` (a body property or a parameter), if declared. @param {Contract} contract @param {Operation} op @param {string} key @returns {Schema | null} */
function fieldSchema(contract, op, key) {
  const [name = ''] = key.split(/[.[]/, 1);
  for (const media of Object.values(op.body?.content ?? {})) {
    const body = contract.deref(media.schema ?? {});
    if (isObject(body.properties) && body.properties[name])
      return contract.deref(body.properties[name]);
  }
  const param = op.parameters.find((p) => p.name === name);
  return param ? contract.deref(param.schema) : null;
}

/**
 * Whether `message`, said of a value its schema allows, names a schema rule: 'required' for
 * "missing" messages (wrong only when a value was sent), true for other schema rules, false
 * for anything a business rule may say. The contract's own `x-messages` decide first; a
 * `default` message or one for a minimum beyond "not empty" may be shared with business
 * rules that extend it (e.g. a password checklist), so those are never held against a server.
 * @param {Schema} schema @param {Record<string, string>} custom @param {string} message @returns {'required' | boolean}
 */
function refusesValid(schema, custom, message) {
  const keyword = Object.entries(custom).find(([, text]) => text === message)?.[0];
  if (keyword !== undefined) {
    if (keyword === 'default') return false;
    if (keyword === 'required') return 'required';
    if (['minLength', 'minItems'].includes(keyword)) {
      return Number(schema[keyword]) <= 1 ? 'required' : false;
    }
    return !['minimum', 'exclusiveMinimum'].includes(keyword);
  }
  if (REQUIRED_MESSAGE.test(message)) return 'required';
  return SHAPE_MESSAGES.some(([re, applies]) => re.test(message) && applies(schema));
}

/**
 * A schema-valid request must not be refused as malformed: no 400 or 415, and no 422 whose
 * errors apply a schema rule to a value that satisfies it. Business-rule 422s (a wrong
 * password, a taken username, a field required by another field's value) are fine.
 * @param {Contract} contract @param {Operation} op @param {RequestSpec} req @param {WireResponse} res
 * @returns {Problem[]}
 */
export function checkValidRequest(contract, op, req, res) {
  if (res.status === 400 || res.status === 415) {
    return [
      {
        kind: 'malformed-refusal',
        message: `a request that matches the contract was refused with ${res.status}: ${snippet(res)}`,
      },
    ];
  }
  const errors = res.status === 422 ? fieldErrors(res.json) : null;
  if (!errors) return [];
  /** @type {string[]} */
  const wrong = [];
  for (const [key, list] of Object.entries(errors)) {
    const messages = Array.isArray(list) ? list.filter((m) => typeof m === 'string') : [];
    const value = sentValue(op, req, key);
    const schema = fieldSchema(contract, op, key);
    if (value === undefined || !schema) continue; // not sent: a business rule may require it
    const custom = isObject(schema['x-messages']) ? schema['x-messages'] : {};
    // A value with content is present whatever a server trims; only then is "required" wrong.
    const present = typeof value !== 'string' || value.trim() !== '';
    for (const message of messages) {
      const verdict = refusesValid(schema, custom, message);
      if (verdict === 'required' ? present : verdict) {
        wrong.push(`${key}: '${message}' (sent ${JSON.stringify(shown(value))})`);
      }
    }
  }
  if (wrong.length === 0) return [];
  return [
    {
      kind: 'malformed-refusal',
      message: `a request that matches the contract was refused with 422 naming a schema rule: ${wrong.join('; ')}`,
    },
  ];
}

/**
 * A refusal's messages per field: the portal's `errors`, or the gateway's `error.fields`.
 * @param {unknown} body
 */
function fieldErrors(body) {
  if (!isObject(body)) return null;
  if (isObject(body.errors)) return body.errors;
  return isObject(body.error) && isObject(body.error.fields) ? body.error.fields : null;
}

/** @param {unknown} value */
function shown(value) {
  if (isObject(value) && 'filename' in value) return `file ${String(value.filename)}`;
  return typeof value === 'string' && value.length > 80 ? `${value.slice(0, 80)}…` : value;
}

/** An invalid request must not be accepted. @param {RequestSpec} req @param {WireResponse} res @returns {Problem[]} */
export function checkInvalidRequest(req, res) {
  if (res.status < 200 || res.status >= 300) return [];
  return [
    {
      kind: 'invalid-accepted',
      message: `an invalid request (${req.reason ?? 'breaks the contract'}) was accepted with ${res.status}`,
    },
  ];
}

/**
 * Without a valid session a secured operation refuses: exactly 401 where the operation
 * declares it (a session operation), otherwise any declared refusal (e.g. sign-in's step
 * token, refused as a failed sign-in step).
 * @param {Operation} op @param {RequestSpec} req @param {WireResponse} res @returns {Problem[]}
 */
export function checkAuthProbe(op, req, res) {
  if (res.status === 429 || res.status >= 500) return [];
  const wants401 = '401' in op.responses;
  if (wants401 ? res.status === 401 : res.status >= 400) return [];
  return [
    {
      kind: 'auth-not-401',
      message: `a request ${req.reason ?? 'without a valid session'} answered ${res.status}, expected ${wants401 ? '401' : 'a refusal'}`,
    },
  ];
}

const PAGE_KEYS = [
  'data',
  'current_page',
  'last_page',
  'per_page',
  'from',
  'to',
  'total',
  'first_page_url',
];

/**
 * The contract's pagination conventions on every paged list of a 2xx answer: the requested
 * page (query `page` for a list in `data`, else the query named like the list; 1 when
 * absent), rows within `per_page`, consistent `from`/`to`/`last_page`/`total`, a
 * `first_page_url` asking for page 1, and rows newest first.
 * @param {RequestSpec} req @param {WireResponse} res @returns {Problem[]}
 */
export function checkPagination(req, res) {
  if (res.status < 200 || res.status >= 300) return [];
  /** @type {string[]} */
  const wrong = [];
  /** @param {unknown} node @param {string} key @param {string} at */
  const visit = (node, key, at) => {
    if (Array.isArray(node)) return node.forEach((x, i) => visit(x, key, `${at}/${i}`));
    if (!isObject(node)) return;
    if (PAGE_KEYS.every((k) => k in node) && Array.isArray(node.data)) {
      // Only answers that matched their schema get here: a paged list's figures are numbers.
      const p = /** @type {Page} */ (node);
      const param = key === 'data' ? 'page' : key;
      const asked = Number(req.query[param] ?? 1);
      const n = p.data.length;
      const say = (/** @type {string} */ text) => wrong.push(`${at || '/'}: ${text}`);
      if (Number.isSafeInteger(asked) && p.current_page !== asked)
        say(`current_page is ${p.current_page} for ${param}=${asked}`);
      if (n > p.per_page) say(`${n} rows on a page of ${p.per_page}`);
      if (p.last_page !== Math.max(1, Math.ceil(p.total / p.per_page))) {
        say(`last_page ${p.last_page} does not fit total ${p.total} at ${p.per_page} per page`);
      }
      const from = n === 0 ? null : (p.current_page - 1) * p.per_page + 1;
      const to = from === null ? null : from + n - 1;
      if (p.from !== from || p.to !== to)
        say(`from/to are ${p.from}/${p.to}, expected ${from}/${to}`);
      if (
        typeof p.first_page_url !== 'string' ||
        !new RegExp(`[?&]${param}=1(&|$)`).test(p.first_page_url)
      ) {
        say(`first_page_url ${JSON.stringify(p.first_page_url)} does not ask for ${param}=1`);
      }
      const times = p.data.map((row) =>
        isObject(row) && typeof row.created_at === 'string' ? Date.parse(row.created_at) : NaN,
      );
      const outOfOrder = times.some((t, i) => t < (times[i + 1] ?? -Infinity));
      if (times.every((t) => !Number.isNaN(t)) && outOfOrder) {
        say('rows are not newest first');
      }
    }
    for (const [k, v] of Object.entries(node)) visit(v, k, `${at}/${k}`);
  };
  visit(res.json, '', '');
  return wrong.length === 0
    ? []
    : [{ kind: 'pagination', message: `paged list: ${wrong.join('; ')}` }];
}

/** @param {WireResponse} res */
function snippet(res) {
  const text = res.text.replace(/\s+/g, ' ').trim();
  if (!text) return '(empty body)';
  if (!/json|text/.test(res.headers['content-type'] ?? ''))
    return `<${res.bytes.length} bytes of ${res.headers['content-type'] ?? 'unknown type'}>`;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
