#!/usr/bin/env node
// contract-check: proves a live server honours openapi.yaml (the portal API) and
// server/openapi/gateway.yaml (the gateway API).
//   npm run contract -- --base-url http://host:port/api [--seed N] [--runs N]
//     [--only tag|operationId[,...]] [--token T | --register] [--fund "<cmd {username} {amount}>"]
//     [--gateway-url URL] [--gateway-key K] [--mine "<cmd {blocks}>"]
//     [--pay "<cmd {address} {amount} {method}>"]
//     [--junit FILE] [--spec openapi.yaml] [--gateway-spec gateway.yaml]
//   npm run contract -- --lint [--spec openapi.yaml] [--gateway-spec gateway.yaml]   (no server)
// Exit status: 0 all checks passed, 1 a failure was found, 2 bad usage or no server.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FLOWS, GATEWAY_FLOWS, gatewaySetup, runFlow } from './flows/index.mjs';
import { GatewayRunner, gatewayUrlOf } from './gateway.mjs';
import { shellQuote } from './http.mjs';
import { unboundedIntegers } from './lint.mjs';
import { flowLine, junit, progressLine, summary } from './report.mjs';
import { Runner } from './runner.mjs';
import { Contract } from './spec.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SPEC = path.resolve(HERE, '../../openapi.yaml');
const DEFAULT_GATEWAY_SPEC = path.resolve(HERE, '../../server/openapi/gateway.yaml');
const DEFAULT_RUNS = 25;

const HELP = `Usage: contract-check --base-url http://host:port/api [options]

Sends generated requests (valid, invalid and junk, with and without a session or key) for
every operation of openapi.yaml (the portal API at --base-url) and of gateway.yaml (the
gateway API at --gateway-url), runs the stateful flows, and checks every answer against its
contract. Nothing but those two roots is ever contacted. The documents themselves are
checked first: every integer must state a maximum.

Options:
  --base-url URL     the API root, with its /api prefix (required)
  --seed N           seed of the generated requests (printed; default: random)
  --runs N           requests per property and operation (default ${DEFAULT_RUNS})
  --only LIST        comma-separated tags or operationIds (e.g. Apps,preLogin)
  --token T          run signed-in operations with this session token (the account is changed!)
  --register         create a throwaway account through register/preLogin/login and use it;
                     needed for x-destructive operations and for the sign-in flows
  --fund CMD         shell command that credits the throwaway account's wallet, with
                     {username} and {amount} placeholders (enables purchase -> cancel)
  --gateway-url URL  the gateway API root (default: --base-url's /api replaced by /gateway/v1)
  --gateway-key K    call the gateway with this API key (else --register makes an app and key)
  --mine CMD         shell command that mines blocks on the server's chain, with a {blocks}
                     placeholder (enables the gateway's test deposit -> credited flow)
  --pay CMD          shell command that pays an address on the server's chain, with {address},
                     {amount} and {method} placeholders (with --mine: the invoice flow)
  --junit FILE       also write the results as JUnit XML
  --spec FILE        the portal contract (default: this package's openapi.yaml)
  --gateway-spec F   the gateway contract (default: this package's server/openapi/gateway.yaml)
  --lint             check only the documents (every integer has a maximum); no server needed
  --help             show this help

Exit status: 0 no failure, 1 failures found, 2 bad usage or server unreachable.`;

/** @param {string[]} argv */
function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string', multiple: true },
      token: { type: 'string' },
      register: { type: 'boolean', default: false },
      fund: { type: 'string' },
      'gateway-url': { type: 'string' },
      'gateway-key': { type: 'string' },
      mine: { type: 'string' },
      pay: { type: 'string' },
      junit: { type: 'string' },
      spec: { type: 'string' },
      'gateway-spec': { type: 'string' },
      lint: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  return values;
}

class UsageError extends Error {}

/** @param {string | undefined} text @param {string} name @param {number} fallback */
function whole(text, name, fallback) {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UsageError(`${name} must be a whole number, got '${text}'`);
  return Number(text);
}

/**
 * Prints what is wrong with the documents themselves; returns how many problems.
 * @param {Contract[]} contracts @param {(line: string) => void} log
 */
function lintDocuments(contracts, log) {
  let count = 0;
  for (const contract of contracts) {
    const problems = unboundedIntegers(contract.document);
    for (const p of problems) log(`  ${contract.name} ${p.where}: ${p.message}`);
    log(`document ${contract.name}: ${problems.length} unbounded integers`);
    count += problems.length;
  }
  return count;
}

/** @param {string} url @param {(line: string) => void} log @returns {Promise<boolean>} */
async function reachable(url, log) {
  try {
    await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    return true;
  } catch (err) {
    const cause = err instanceof Error && err.cause ? ` (${String(err.cause)})` : '';
    log(`cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}${cause}`);
    return false;
  }
}

/** @param {string[]} argv @param {(line: string) => void} log @returns {Promise<number>} */
export async function main(argv, log = (line) => console.log(line)) {
  let values;
  try {
    values = parse(argv);
  } catch (err) {
    log(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    log(HELP);
    return 0;
  }
  try {
    const contract = new Contract(values.spec ?? DEFAULT_SPEC);
    const gatewayContract = new Contract(values['gateway-spec'] ?? DEFAULT_GATEWAY_SPEC);
    if (values.lint) return lintDocuments([contract, gatewayContract], log) > 0 ? 1 : 0;
    const baseUrl = values['base-url'];
    if (!baseUrl) throw new UsageError('--base-url is required');
    if (values.token && values.register)
      throw new UsageError('use --token or --register, not both');
    const gatewayUrl = values['gateway-url'] ?? gatewayUrlOf(baseUrl);
    const seed = whole(values.seed, '--seed', Math.floor(Math.random() * 2 ** 31));
    const runs = Math.max(1, whole(values.runs, '--runs', DEFAULT_RUNS));
    const only = (values.only ?? [])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    const documentProblems = lintDocuments([contract, gatewayContract], log);
    const known = new Set(
      [...contract.operations, ...gatewayContract.operations].flatMap((op) => [
        op.operationId.toLowerCase(),
        op.tag.toLowerCase(),
      ]),
    );
    const unknown = only.filter((name) => !known.has(name.toLowerCase()));
    if (unknown.length > 0)
      throw new UsageError(`--only: no tag or operationId ${unknown.join(', ')}`);

    /** @type {import('./runner.mjs').Options} */
    const options = {
      baseUrl,
      seed,
      runs,
      only,
      token: values.token ?? null,
      register: values.register,
      fund: values.fund ?? null,
      gatewayKey: values['gateway-key'] ?? null,
      mine: values.mine ?? null,
      pay: values.pay ?? null,
      log,
    };
    /** @type {import('./runner.mjs').Shared} */
    const shared = { failures: [], flows: [] };
    const runner = new Runner(contract, options, shared);
    const gateway = new GatewayRunner(gatewayContract, { ...options, baseUrl: gatewayUrl }, shared);
    gateway.portal = runner;
    const reproduce = [
      'npm run contract --',
      `--base-url ${shellQuote(baseUrl)}`,
      values['gateway-url'] ? `--gateway-url ${shellQuote(gatewayUrl)}` : '',
      `--seed ${seed}`,
      `--runs ${runs}`,
      values.register ? '--register' : values.token ? '--token <your token>' : '',
      values['gateway-key'] ? '--gateway-key <your key>' : '',
      values.fund ? `--fund ${shellQuote(values.fund)}` : '',
      values.mine ? `--mine ${shellQuote(values.mine)}` : '',
      values.pay ? `--pay ${shellQuote(values.pay)}` : '',
    ]
      .filter(Boolean)
      .join(' ');

    for (const c of [contract, gatewayContract]) {
      const info = /** @type {{ version?: string }} */ (c.document.info ?? {});
      const root = c === contract ? baseUrl : gatewayUrl;
      log(
        `contract-check: ${c.name} ${info.version ?? ''} (${c.operations.length} operations) against ${root}`,
      );
    }
    log(
      `seed ${seed} · ${runs} runs per property · ${runner.selected.length} + ${gateway.selected.length} operations selected · session: ${
        values.register ? 'throwaway account (--register)' : values.token ? '--token' : 'none'
      } · gateway key: ${
        values['gateway-key'] ? '--gateway-key' : values.register ? 'made by --register' : 'none'
      }`,
    );
    if (!(await reachable(runner.transport.base.href, log))) return 2;
    if (gateway.selected.length > 0 && !(await reachable(gateway.transport.base.href, log)))
      return 2;

    const started = performance.now();
    log('');
    // With --register the sign-up flow (the first) always runs: it makes the session everything
    // else uses.
    for (const [index, def] of FLOWS.entries()) {
      const result = await runFlow(runner, def, index === 0 && values.register);
      if (result) log(flowLine(result));
    }

    let toolErrors = 0;
    /** @param {Runner} r @param {import('./spec.mjs').Operation[]} ops */
    const check = async (r, ops) => {
      for (const op of ops) {
        try {
          log(progressLine(r, await r.operation(op)));
        } catch (err) {
          // A bug of the tool must not hide the other operations' results.
          toolErrors += 1;
          log(
            `  tool error while checking ${op.operationId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
          );
        }
      }
    };

    // The gateway before the portal's operations: their generated requests change the apps
    // (whitelists, methods, keys) and cancel the package the gateway's checks rely on.
    if (gateway.selected.length > 0) {
      log('');
      if (!gateway.key && values.register) {
        const setup = await runFlow(runner, gatewaySetup(gateway), true);
        if (setup) log(flowLine(setup));
      }
      for (const def of GATEWAY_FLOWS) {
        const result = await runFlow(gateway, def);
        if (result) log(flowLine(result));
      }
      log('');
      await check(gateway, gateway.selected);
    }

    log('');
    // x-destructive operations last: the others still find the account's data intact.
    await check(runner, [
      ...runner.selected.filter((op) => !op.destructive),
      ...runner.selected.filter((op) => op.destructive),
    ]);

    const elapsedMs = performance.now() - started;
    const runners = [runner, gateway];
    for (const line of summary(runners, { reproduce, elapsedMs })) log(line);
    if (values.junit) {
      fs.mkdirSync(path.dirname(path.resolve(values.junit)), { recursive: true });
      fs.writeFileSync(values.junit, junit(runners, elapsedMs));
      log(`JUnit XML: ${values.junit}`);
    }
    const failedFlows = shared.flows.some((f) => f.status === 'failed');
    if (toolErrors > 0) return 2;
    return shared.failures.length > 0 || failedFlows || documentProblems > 0 ? 1 : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      log(`${err.message}\n\n${HELP}`);
      return 2;
    }
    throw err;
  }
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
