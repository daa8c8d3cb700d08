// The tool as a client of one document (the portal's or the gateway's): the account it acts as
// and its credentials (sessions, step tokens, authenticator codes), each request sent and its
// answer checked, the answer's values kept for later requests, and each failure recorded with
// what reproduces it.
import { setTimeout as sleep } from 'node:timers/promises';
import { Generator } from './arbitraries.mjs';
import {
  checkAnswer,
  checkAuthProbe,
  checkInvalidRequest,
  checkPagination,
  checkValidRequest,
} from './checks.mjs';
import { FORGED_TOKEN, Transport } from './http.mjs';
import { ValuePools } from './pools.mjs';
import { isObject } from './spec.mjs';

/**
 * @typedef {import('./spec.mjs').Contract} Contract
 * @typedef {import('./spec.mjs').Operation} Operation
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
 *   pay: string | null,
 *   log: (line: string) => void }} Options
 * @typedef {{ failures: Failure[], flows: FlowResult[] }} Shared
 *   What the runners of one run (the portal's, the gateway's) report together.
 * @typedef {{ res: WireResponse, wire: WireRequest, problems: Problem[] }} Call
 */

// Operations whose successful call ends the session it is made with: each gets a fresh one.
export const SESSION_ENDING = ['logout'];
// Operations that sign in: authorised by a step token from preLogin, never by the session.
export const STEP_TOKEN_SCHEME = 'stepToken';
export const SESSION_SCHEME = 'bearerAuth';
// Successful calls that change the tool's own credentials: [account field, request field].
const CREDENTIAL_CHANGES = /** @type {Record<string, [keyof Account, string]>} */ ({
  changeMpin: ['pin', 'spassword'],
  changePassword: ['password', 'newpassword'],
});

export class Client {
  /** @param {Contract} contract @param {Options} options @param {Shared} [shared] */
  constructor(contract, options, shared = { failures: [], flows: [] }) {
    this.contract = contract;
    this.options = options;
    this.transport = new Transport(options.baseUrl);
    /** Values harvested from answers, for later requests. */
    this.pools = new ValuePools(contract);
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
    return this.pools.get(key);
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
      if (media?.schema) this.pools.harvest(media.schema, res.json);
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
}
