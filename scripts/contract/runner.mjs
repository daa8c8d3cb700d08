// Orchestrates a run: the stateful flows first (they create the account's data and fill the
// value pools), then every selected operation as three fast-check properties (schema-valid
// requests, invalid and junk requests, requests without a valid session), each failure shrunk
// to its smallest request.
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import {
  Generator,
  bodyArbitrary,
  invalidArbitraries,
  paramsArbitrary,
  requestValid,
} from './arbitraries.mjs';
import {
  checkAnswer,
  checkAuthProbe,
  checkInvalidRequest,
  checkPagination,
  checkValidRequest,
} from './checks.mjs';
import { FORGED_TOKEN, Transport } from './http.mjs';
import { isObject, refName } from './spec.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./spec.mjs').Schema} Schema
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./arbitraries.mjs').Auth} Auth
 * @typedef {import('./checks.mjs').Category} Category
 * @typedef {import('./checks.mjs').Problem} Problem
 * @typedef {import('./http.mjs').WireRequest} WireRequest
 * @typedef {import('./http.mjs').WireResponse} WireResponse
 * @typedef {{ where: string, doc: string, operationId: string, category: Category | 'flow', kind: Problem['kind'],
 *   message: string, request: string, curl: string, response: string, seed: number | null,
 *   shrinks: number | null, flow: string | null }} Failure
 * @typedef {{ op: Operation, requests: number, statuses: Map<number, number>,
 *   categories: Partial<Record<Category, { runs: number, failures: number, ms: number, skipped?: string,
 *     applicable: boolean }>>,
 *   skipped: string | null, ms: number }} OperationResult
 * @typedef {{ name: string, status: 'passed' | 'failed' | 'skipped', reason?: string, steps: number,
 *   ms: number }} FlowResult
 * @typedef {{ username: string, email: string, password: string, pin: string }} Account
 * @typedef {{ baseUrl: string, seed: number, runs: number, only: string[], token: string | null,
 *   register: boolean, fund: string | null, gatewayKey: string | null, mine: string | null,
 *   log: (line: string) => void }} Options
 * @typedef {{ failures: Failure[], flows: FlowResult[] }} Shared
 *   What the runners of one run (the portal's, the gateway's) report together.
 * @typedef {{ res: WireResponse, wire: WireRequest, problems: Problem[] }} Call
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
// Operations whose successful call ends the session it is made with: each gets a fresh one.
const SESSION_ENDING = ['logout'];
// Operations that sign in: authorised by a step token from preLogin, never by the session.
const STEP_TOKEN_SCHEME = 'stepToken';
const SESSION_SCHEME = 'bearerAuth';
// Successful calls that change the tool's own credentials: [account field, request field].
const CREDENTIAL_CHANGES = /** @type {Record<string, [keyof Account, string]>} */ ({
  changeMpin: ['pin', 'spassword'],
  changePassword: ['password', 'newpassword'],
});
const MAX_ROUNDS = 4;
// A category an operation has nothing for (no session to leave out, nothing to make invalid).
const NOT_APPLICABLE = 'not applicable';
const PROPERTY_TIME_LIMIT_MS = 25_000;
const POOL_SIZE = 40;

/** FNV-1a: a stable 31-bit seed per operation and category, so `--only` replays the same values. */
function deriveSeed(/** @type {(string | number)[]} */ ...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join(':')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 0x7fffffff;
}

export class Runner {
  /** @param {Contract} contract @param {Options} options @param {Shared} [shared] */
  constructor(contract, options, shared = { failures: [], flows: [] }) {
    this.contract = contract;
    this.options = options;
    this.transport = new Transport(options.baseUrl);
    /** @type {Map<string, unknown[]>} */
    this.pools = new Map();
    this.gen = new Generator(contract, (key) => this.poolValues(key));
    /** @type {Account | null} */
    this.account = null;
    /** @type {string | null} */
    this.session = options.token;
    if (options.token) this.transport.secrets.add(options.token);
    this.registered = false;
    /** @type {ReturnType<typeof import('./values.mjs').authenticatorOf>} the account's authenticator, once set up */
    this.authenticator = null;
    this.totpStep = 0;
    /** @type {{ account: Account, session: string } | null} a second throwaway account */
    this.other = null;
    /** True while a flow runs (flows manage the account's second factor themselves). */
    this.inFlow = false;
    /** A country the server signs accounts up with (from listCountries). */
    this.country = 'IN';
    /** @type {Failure[]} shared by the run's runners */
    this.failures = shared.failures;
    /** @type {Map<string, OperationResult>} */
    this.results = new Map();
    /** @type {FlowResult[]} shared by the run's runners */
    this.flows = shared.flows;
    /** What the third property leaves out, for reports. */
    this.authTitle = 'without a session';
    const wanted = options.only.map((s) => s.toLowerCase());
    /** @type {Operation[]} */
    this.selected = contract.operations.filter(
      (op) =>
        wanted.length === 0 ||
        wanted.includes(op.operationId.toLowerCase()) ||
        wanted.includes(op.tag.toLowerCase()),
    );
    for (const op of contract.operations) {
      this.results.set(op.operationId, {
        op,
        requests: 0,
        statuses: new Map(),
        categories: {},
        skipped: null,
        ms: 0,
      });
    }
  }

  // ------------------------------------------------------------------------------ value pools

  /** @param {string} key */
  poolValues(key) {
    const a = this.account;
    if (key === '$username') return a ? [a.username] : [];
    if (key === '$email') return a ? [a.email] : [];
    if (key === '$password') return a ? [a.password] : [];
    if (key === '$pin') return a ? [a.pin] : [];
    return this.pools.get(key) ?? [];
  }

  /** @param {string} key @param {unknown} value */
  remember(key, value) {
    const list = this.pools.get(key) ?? [];
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > POOL_SIZE) list.shift();
    this.pools.set(key, list);
  }

  /** Ids the tool's own account created (any kind), for x-destructive operations. */
  ownedIds() {
    return [...new Set(OWNED_SCHEMAS.flatMap((name) => this.pools.get(`${name}.id`) ?? []))];
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

  // ------------------------------------------------------------------------------ calls

  /** @param {string} operationId */
  op(operationId) {
    return this.contract.operation(operationId);
  }

  /**
   * Sends one request, runs every check for its category, records statuses and failures
   * (flows), and harvests the answer.
   * @param {Operation} op @param {RequestSpec} req @param {Category} category
   * @returns {Promise<Call>}
   */
  async call(op, req, category) {
    const token = req.authHeader === undefined ? await this.tokenFor(op, req.auth) : null;
    const wire = this.transport.build(op, req, token);
    /** @type {WireResponse} */
    let res;
    try {
      res = await this.transport.send(wire);
    } catch (err) {
      const message =
        err instanceof Error
          ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ''}`
          : String(err);
      res = {
        status: 0,
        headers: {},
        bytes: Buffer.alloc(0),
        text: '',
        json: undefined,
        jsonError: null,
        ms: 0,
      };
      return { res, wire, problems: [{ kind: 'network', message: `no answer: ${message}` }] };
    }
    const result = this.results.get(op.operationId);
    if (result) {
      result.requests += 1;
      result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1);
    }
    const problems = checkAnswer(this.contract, op, res);
    if (problems.length === 0) problems.push(...checkPagination(req, res));
    if (category === 'valid') problems.push(...checkValidRequest(this.contract, op, req, res));
    if (category === 'invalid') problems.push(...checkInvalidRequest(req, res));
    if (category === 'auth') problems.push(...checkAuthProbe(op, req, res));
    const change = CREDENTIAL_CHANGES[op.operationId];
    const sent = req.body?.kind === 'json' && isObject(req.body.value) ? req.body.value : null;
    if (
      change &&
      this.account &&
      sent &&
      res.status >= 200 &&
      res.status < 300 &&
      req.auth === 'session'
    ) {
      const value = sent[change[1]];
      if (typeof value === 'string') this.account[change[0]] = value;
    }
    // A generated request may switch the account to its authenticator; each later sign-in
    // would then wait for a fresh 30-second code, so the pin comes back at once.
    if (
      op.operationId === 'updateAuthentication' &&
      !this.inFlow &&
      res.status === 200 &&
      isObject(res.json) &&
      res.json.auth_type === 'authenticator' &&
      this.authenticator
    ) {
      const back = { type: 'mpin', code: await this.totp() };
      await this.call(
        op,
        { path: {}, query: {}, body: { kind: 'json', value: back }, auth: 'session' },
        'valid',
      );
    }
    if (res.status >= 200 && res.status < 300 && res.json !== undefined) {
      const media = this.contract.responseFor(op, res.status)?.content?.['application/json'];
      if (media?.schema) this.harvest(media.schema, res.json);
    }
    return { res, wire, problems };
  }

  /**
   * The bearer a request carries: the session, a fresh step token (sign-in), a fresh session
   * (operations that end theirs), a forged one, or the wrong kind.
   * @param {Operation} op @param {Auth} auth @returns {Promise<string | null>}
   */
  async tokenFor(op, auth) {
    const step = op.securitySchemes.includes(STEP_TOKEN_SCHEME);
    if (auth === 'none' || auth === 'malformed') return null;
    if (auth === 'forged') return `${FORGED_TOKEN}.${op.operationId}`;
    if (auth === 'swapped') return step ? this.session : await this.freshStepToken();
    if (step) return this.freshStepToken();
    if (SESSION_ENDING.includes(op.operationId)) return this.freshSession();
    return op.securitySchemes.includes(SESSION_SCHEME) ? this.session : null;
  }

  /** preLogin with the tool's own credentials: the step token and the factor it asks for. */
  async preLogin() {
    if (!this.account) return null;
    const op = this.op('preLogin');
    const { res } = await this.call(
      op,
      {
        path: {},
        query: {},
        body: {
          kind: 'json',
          value: { username: this.account.username, password: this.account.password },
        },
        auth: 'none',
      },
      'valid',
    );
    if (!isObject(res.json) || typeof res.json.token !== 'string') return null;
    this.transport.secrets.add(res.json.token);
    return { token: res.json.token, authType: String(res.json.auth_type) };
  }

  /** A step token from preLogin with the tool's own credentials. @returns {Promise<string | null>} */
  async freshStepToken() {
    return (await this.preLogin())?.token ?? null;
  }

  /**
   * The next unused code of the account's authenticator: codes are accepted one step around
   * now and only for steps later than the last one used (no replay).
   */
  async totp() {
    const app = this.authenticator;
    if (!app) return null;
    let step = Math.max(this.totpStep + 1, app.step() - 1);
    while (step > app.step() + 1) await sleep(1000);
    this.totpStep = step;
    return app.code(step);
  }

  /** A new session of the tool's own account (preLogin + login with its second factor). @returns {Promise<string | null>} */
  async freshSession() {
    const step = await this.preLogin();
    if (!step || !this.account) return null;
    /** @type {Record<string, string | null>} */
    const codes = {
      mpin: this.account.pin,
      authenticator: await (step.authType === 'authenticator' ? this.totp() : null),
    };
    const code = codes[step.authType];
    if (!code) return null;
    const { res } = await this.call(
      this.op('login'),
      {
        path: {},
        query: {},
        body: {
          kind: 'json',
          value: {
            username: this.account.username,
            password: this.account.password,
            [step.authType]: code,
          },
        },
        auth: 'session',
        authHeader: `Bearer ${step.token}`,
      },
      'valid',
    );
    const token = isObject(res.json) && typeof res.json.token === 'string' ? res.json.token : null;
    if (token) this.transport.secrets.add(token);
    return token;
  }

  /**
   * Records a failure with everything needed to reproduce it.
   * @param {string} where @param {Operation} op @param {Category | 'flow'} category @param {Problem} problem
   * @param {Call} call @param {{ seed?: number, shrinks?: number, flow?: string }} [meta]
   */
  fail(where, op, category, problem, call, meta = {}) {
    this.failures.push({
      where,
      doc: this.contract.name,
      operationId: op.operationId,
      category,
      kind: problem.kind,
      message: this.transport.redact(problem.message),
      request: this.transport.describe(call.wire),
      curl: this.transport.curl(call.wire),
      response: call.res.status
        ? `${call.res.status} ${call.res.headers['content-type'] ?? ''} ${this.transport.redact(call.res.text.slice(0, 400))}`.trim()
        : '(no answer)',
      seed: meta.seed ?? null,
      shrinks: meta.shrinks ?? null,
      flow: meta.flow ?? null,
    });
  }

  // ------------------------------------------------------------------------------ properties

  /** Why an operation (or one of its categories) cannot run, or null. @param {Operation} op */
  blocker(op) {
    if (op.destructive && !this.registered) {
      return 'x-destructive: runs only on data of its own --register account';
    }
    return null;
  }

  /** @param {Operation} op @param {Category} category @returns {string | null} */
  categoryBlocker(op, category) {
    if (category === 'auth') return op.allowsAnonymous ? NOT_APPLICABLE : null;
    const variable = op.body || op.parameters.some((p) => p.in === 'path' || p.in === 'query');
    if (category === 'invalid' && !variable) return NOT_APPLICABLE;
    const needsSession = op.securitySchemes.includes(SESSION_SCHEME) && !op.allowsAnonymous;
    if (op.securitySchemes.includes(STEP_TOKEN_SCHEME) && !this.account) {
      return 'needs the step token of a known account (--register)';
    }
    if (SESSION_ENDING.includes(op.operationId) && !this.account) {
      return 'needs --register (it ends the session it is called with)';
    }
    if (needsSession && !this.session) return 'no session (pass --token or --register)';
    if (op.destructive && this.ownedIds().length === 0)
      return 'no data of its own account to run on';
    return null;
  }

  /** Valid requests for an operation (destructive ones only name the account's own ids). @param {Operation} op */
  validArbitrary(op) {
    const owned = this.ownedIds();
    const params = paramsArbitrary(this.gen, op, (param) => {
      if (!op.destructive || param.in !== 'path') return null;
      const linked = this.gen.pooled(param.name, {
        ...param.schema,
        description: param.description,
      });
      const mine = linked.filter((id) => owned.includes(id));
      return mine.length > 0
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...mine) },
            { weight: 1, arbitrary: fc.constantFrom(...owned) },
          )
        : fc.constantFrom(...owned);
    });
    /** @type {fc.Arbitrary<Auth>} */
    const auth =
      op.allowsAnonymous && op.securitySchemes.length > 0
        ? fc.constantFrom('session', 'none')
        : fc.constant('session');
    return fc
      .record({ params, body: bodyArbitrary(this.gen, op), auth })
      .map(
        ({ params: p, body, auth: a }) =>
          /** @type {RequestSpec} */ ({ path: p.path, query: p.query, body, auth: a }),
      )
      .filter((req) => requestValid(this.gen, op, req));
  }

  /** Requests that only lack a valid session: missing, forged, malformed or of the wrong kind. @param {Operation} op */
  authArbitrary(op) {
    const step = op.securitySchemes.includes(STEP_TOKEN_SCHEME);
    /** @type {[Auth, string | undefined, string][]} */
    const modes = [
      ['none', undefined, 'without an Authorization header'],
      ['forged', undefined, 'with a forged bearer token'],
      ['malformed', 'Basic Y29udHJhY3Q6Y2hlY2s=', 'with Basic credentials instead of a bearer'],
      ['malformed', 'Bearer', 'with an empty bearer'],
    ];
    if (this.account || (step && this.session)) {
      modes.push([
        'swapped',
        undefined,
        step
          ? 'with a session token instead of a step token'
          : 'with a step token instead of a session',
      ]);
    }
    return fc
      .tuple(this.validArbitrary(op), fc.constantFrom(...modes))
      .map(([req, [auth, header, reason]]) => ({ ...req, auth, authHeader: header, reason }));
  }

  /**
   * One property: runs it, and after a failure runs it again ignoring the kinds already found
   * (up to four rounds), so each distinct failure is reported with its own smallest request.
   * @param {Operation} op @param {Category} category @param {fc.Arbitrary<RequestSpec>} arbitrary @param {number} numRuns
   */
  async property(op, category, arbitrary, numRuns) {
    /** @type {Set<string>} */
    const known = new Set();
    let failures = 0;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const seed = deriveSeed(this.options.seed, op.operationId, category, round);
      /** @type {{ call: Call, problems: Problem[] } | null} */
      let lastFailing = null;
      const property = fc.asyncProperty(arbitrary, async (req) => {
        const call = await this.call(op, req, category);
        const problems = call.problems.filter((p) => !known.has(p.kind));
        if (problems.length === 0) return true;
        lastFailing = { call, problems };
        return false;
      });
      const details = await fc.check(property, {
        seed,
        numRuns,
        plugins: [fc.interruptAfterTimeLimit(PROPERTY_TIME_LIMIT_MS)],
      });
      const found = /** @type {{ call: Call, problems: Problem[] } | null} */ (lastFailing);
      if (!details.failed || !found) {
        if (details.failed && details.errorInstance) {
          throw details.errorInstance;
        }
        break;
      }
      for (const problem of found.problems) {
        if (known.has(problem.kind)) continue;
        known.add(problem.kind);
        failures += 1;
        this.fail(`${op.operationId} (${category})`, op, category, problem, found.call, {
          seed,
          shrinks: details.numShrinks,
        });
      }
    }
    return failures;
  }

  /** Runs the three properties of one operation. @param {Operation} op */
  async operation(op) {
    const result = /** @type {OperationResult} */ (this.results.get(op.operationId));
    const started = performance.now();
    result.skipped = this.blocker(op);
    if (!result.skipped) {
      // Each request of a sign-in operation first signs in afresh (a password hash or two on
      // the server): half the runs keep the suite fast and still touch them many times.
      const costly =
        op.securitySchemes.includes(STEP_TOKEN_SCHEME) || SESSION_ENDING.includes(op.operationId);
      const runs = costly ? Math.ceil(this.options.runs / 2) : this.options.runs;
      /** @type {[Category, () => fc.Arbitrary<RequestSpec> | null, number][]} */
      const plan = [
        ['valid', () => this.validArbitrary(op), runs],
        [
          'invalid',
          () => {
            const variants = invalidArbitraries(this.gen, op, this.validArbitrary(op));
            return variants.length > 0 ? fc.oneof(...variants) : null;
          },
          runs,
        ],
        ['auth', () => this.authArbitrary(op), Math.min(runs, 12)],
      ];
      for (const [category, build, numRuns] of plan) {
        const begun = performance.now();
        const blocked = this.categoryBlocker(op, category);
        const arbitrary = blocked ? null : build();
        if (blocked || !arbitrary) {
          result.categories[category] = {
            runs: 0,
            failures: 0,
            ms: 0,
            skipped: blocked ?? NOT_APPLICABLE,
            applicable: blocked !== NOT_APPLICABLE && blocked !== null,
          };
          continue;
        }
        const failures = await this.property(op, category, arbitrary, numRuns);
        result.categories[category] = {
          runs: numRuns,
          failures,
          ms: performance.now() - begun,
          applicable: true,
        };
      }
    }
    result.ms += performance.now() - started;
    return result;
  }
}
