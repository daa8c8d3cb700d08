// Orchestrates a run: the stateful flows first (they create the account's data and fill the
// value pools), then every selected operation as three fast-check properties (schema-valid
// requests, invalid and junk requests, requests without a valid session), each failure shrunk
// to its smallest request. Client (client.mjs), which Runner extends, sends and checks each
// request.
import fc from 'fast-check';
import {
  bodyArbitrary,
  invalidArbitraries,
  paramsArbitrary,
  requestValid,
} from './arbitraries.mjs';
import { Client, SESSION_ENDING, SESSION_SCHEME, STEP_TOKEN_SCHEME } from './client.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./arbitraries.mjs').Auth} Auth
 * @typedef {import('./checks.mjs').Category} Category
 * @typedef {import('./checks.mjs').Problem} Problem
 * @typedef {import('./client.mjs').Failure} Failure
 * @typedef {import('./client.mjs').OperationResult} OperationResult
 * @typedef {import('./client.mjs').FlowResult} FlowResult
 * @typedef {import('./client.mjs').Account} Account
 * @typedef {import('./client.mjs').Options} Options
 * @typedef {import('./client.mjs').Shared} Shared
 *   What the runners of one run (the portal's, the gateway's) report together.
 * @typedef {import('./client.mjs').Call} Call
 */

const MAX_ROUNDS = 4;
// A category an operation has nothing for (no session to leave out, nothing to make invalid).
const NOT_APPLICABLE = 'not applicable';
const PROPERTY_TIME_LIMIT_MS = 25_000;

/** FNV-1a: a stable 31-bit seed per operation and category, so `--only` replays the same values. */
function deriveSeed(/** @type {(string | number)[]} */ ...parts) {
  let h = 0x811c9dc5;
  for (const ch of parts.join(':')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 0x7fffffff;
}

/** A client that also runs the properties of its document's selected operations. */
export class Runner extends Client {
  /** @param {Contract} contract @param {Options} options @param {Shared} [shared] */
  constructor(contract, options, shared) {
    super(contract, options, shared);
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
    if (op.destructive && this.pools.ownedIds().length === 0)
      return 'no data of its own account to run on';
    return null;
  }

  /** Valid requests for an operation (destructive ones only name the account's own ids). @param {Operation} op */
  validArbitrary(op) {
    const owned = this.pools.ownedIds();
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
