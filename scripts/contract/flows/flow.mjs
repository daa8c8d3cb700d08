// One running flow: a sequence of steps over operationIds where each answer feeds the next.
// Every answer also goes through the generic checks; a step whose outcome breaks the
// contract's description fails the flow (and later steps that depend on it are not run).
import fc from 'fast-check';

/**
 * @typedef {import('../runner.mjs').Runner} Runner
 * @typedef {import('../runner.mjs').Call} Call
 * @typedef {import('../runner.mjs').FlowResult} FlowResult
 * @typedef {import('../spec.mjs').Operation} Operation
 * @typedef {import('../arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('../arbitraries.mjs').Body} Body
 * @typedef {{ path?: Record<string, string>, query?: Record<string, string>, json?: unknown,
 *   body?: Body, auth?: 'session' | 'none', bearer?: string | null, keyHeader?: string,
 *   via?: Runner }} StepInput
 *   `via`: the runner of the other document (a gateway flow's portal steps); `keyHeader`: send
 *   the credential in this header instead of `Authorization: Bearer`.
 * @typedef {{ name: string, ops: string[], needs: (r: Runner) => string | null,
 *   run: (f: Flow) => Promise<void> }} FlowDefinition
 */

/**
 * A step's call with its answer as the contract describes it for the expected status. The
 * generic checks report an answer that differs, so flows still read it defensively.
 * @template [T=unknown]
 * @typedef {Call & { op: Operation, runner: Runner, json: T }} Step
 */

class Abort extends Error {}

/** One running flow: sends steps, checks them, records failures under the flow's name. */
export class Flow {
  /** @param {Runner} runner @param {string} name */
  constructor(runner, name) {
    this.runner = runner;
    this.name = name;
    this.steps = 0;
    this.failed = false;
    /** @type {string | null} */
    this.skipReason = null;
    this.seed = runner.options.seed;
  }

  /**
   * Sends one step. `expect` is the status (or statuses) the contract promises for it; any
   * other status ends the flow. The caller declares the answer's type (see Step).
   * @template [T=unknown]
   * @param {string} operationId @param {StepInput} input @param {number | number[]} expect
   * @returns {Promise<Step<T>>}
   */
  async step(operationId, input, expect) {
    this.steps += 1;
    const runner = input.via ?? this.runner;
    const op = runner.op(operationId);
    /** @type {RequestSpec} */
    const req = {
      path: input.path ?? {},
      query: input.query ?? {},
      body: input.body ?? (input.json === undefined ? null : { kind: 'json', value: input.json }),
      auth: input.auth ?? 'session',
    };
    if (input.bearer !== undefined)
      req.authHeader = input.bearer === null ? undefined : `Bearer ${input.bearer}`;
    if (input.bearer === null) req.auth = 'none';
    if (input.keyHeader) req.keyHeader = input.keyHeader;
    const call = await runner.call(op, req, 'valid');
    const where = `flow "${this.name}", step ${this.steps} (${operationId})`;
    for (const problem of call.problems) {
      this.failed = true;
      runner.fail(where, op, 'flow', problem, call, { flow: this.name });
    }
    const wanted = Array.isArray(expect) ? expect : [expect];
    if (!wanted.includes(call.res.status)) {
      this.failed = true;
      runner.fail(
        where,
        op,
        'flow',
        { kind: 'flow', message: `expected ${wanted.join(' or ')}, got ${call.res.status}` },
        call,
        { flow: this.name },
      );
      throw new Abort();
    }
    return { ...call, op, runner, json: /** @type {T} */ (call.res.json) };
  }

  /**
   * A promise of the contract about an answer; breaking it fails the flow but lets it go on.
   * @param {boolean} ok @param {string} message @param {Call & { op: Operation, runner: Runner }} call
   */
  expect(ok, message, call) {
    if (ok) return;
    this.failed = true;
    call.runner.fail(
      `flow "${this.name}", after step ${this.steps}`,
      call.op,
      'flow',
      { kind: 'flow', message },
      call,
      {
        flow: this.name,
      },
    );
  }

  /**
   * A broken promise the rest of the flow depends on: fails the flow and ends it.
   * @param {string} message @param {Call & { op: Operation, runner: Runner }} call @returns {never}
   */
  abort(message, call) {
    this.expect(false, message, call);
    throw new Abort();
  }

  /**
   * Ends the flow early as skipped (a precondition the server refused on business grounds).
   * @param {string} reason @returns {never}
   */
  skip(reason) {
    this.skipReason = reason;
    throw new Abort();
  }

  /** A realistic value, reproducible from the run's seed. @template T @param {fc.Arbitrary<T>} arbitrary */
  sample(arbitrary) {
    this.seed += 1;
    return /** @type {T} */ (fc.sample(arbitrary, { numRuns: 1, seed: this.seed })[0]);
  }
}

/**
 * Runs one flow if any of its operations is selected (or `force`) and its needs are met;
 * null when it is not selected at all.
 * @param {Runner} runner @param {FlowDefinition} def @param {boolean} [force]
 * @returns {Promise<FlowResult | null>}
 */
export async function runFlow(runner, def, force = false) {
  if (!force && !runner.selected.some((op) => def.ops.includes(op.operationId))) return null;
  const started = performance.now();
  const blocked = def.needs(runner);
  /** @type {FlowResult} */
  const result = {
    name: def.name,
    status: 'skipped',
    reason: blocked ?? undefined,
    steps: 0,
    ms: 0,
  };
  if (!blocked) {
    const flow = new Flow(runner, def.name);
    runner.inFlow = true;
    try {
      await def.run(flow);
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
    } finally {
      runner.inFlow = false;
    }
    result.steps = flow.steps;
    result.status = flow.failed ? 'failed' : flow.skipReason ? 'skipped' : 'passed';
    result.reason = flow.skipReason ?? undefined;
  }
  result.ms = performance.now() - started;
  runner.flows.push(result);
  return result;
}
