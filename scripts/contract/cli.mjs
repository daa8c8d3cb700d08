#!/usr/bin/env node
// contract-check: proves a live server honours openapi.yaml.
//   npm run contract -- --base-url http://host:port/api [--seed N] [--runs N]
//     [--only tag|operationId[,...]] [--token T | --register] [--fund "<cmd {username} {amount}>"]
//     [--junit FILE] [--spec openapi.yaml]
//   npm run contract -- --lint [--spec openapi.yaml]   (the document alone, no server)
// Exit status: 0 all checks passed, 1 a failure was found, 2 bad usage or no server.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FLOWS, runFlow } from './flows/index.mjs';
import { shellQuote } from './http.mjs';
import { unboundedIntegers } from './lint.mjs';
import { flowLine, junit, progressLine, summary } from './report.mjs';
import { Runner } from './runner.mjs';
import { Contract } from './spec.mjs';

const DEFAULT_SPEC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../openapi.yaml',
);
const DEFAULT_RUNS = 25;

const HELP = `Usage: contract-check --base-url http://host:port/api [options]

Sends generated requests (valid, invalid and junk, with and without a session) for every
operation of openapi.yaml to the server at --base-url, runs the stateful flows, and checks
every answer against the contract. Nothing but --base-url is ever contacted. The document
itself is checked first: every integer must state a maximum.

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
  --junit FILE       also write the results as JUnit XML
  --spec FILE        the contract to check against (default: this package's openapi.yaml)
  --lint             check only the document (every integer has a maximum); no server needed
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
      junit: { type: 'string' },
      spec: { type: 'string' },
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
 * Prints what is wrong with the document itself; returns how many problems.
 * @param {Contract} contract @param {(line: string) => void} log
 */
function lintDocument(contract, log) {
  const problems = unboundedIntegers(contract.document);
  for (const p of problems) log(`  ${p.where}: ${p.message}`);
  log(`document: ${problems.length} unbounded integers`);
  return problems.length;
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
    if (values.lint)
      return lintDocument(new Contract(values.spec ?? DEFAULT_SPEC), log) > 0 ? 1 : 0;
    const baseUrl = values['base-url'];
    if (!baseUrl) throw new UsageError('--base-url is required');
    if (values.token && values.register)
      throw new UsageError('use --token or --register, not both');
    const seed = whole(values.seed, '--seed', Math.floor(Math.random() * 2 ** 31));
    const runs = Math.max(1, whole(values.runs, '--runs', DEFAULT_RUNS));
    const only = (values.only ?? [])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    const contract = new Contract(values.spec ?? DEFAULT_SPEC);
    const documentProblems = lintDocument(contract, log);
    const known = new Set(
      contract.operations.flatMap((op) => [op.operationId.toLowerCase(), op.tag.toLowerCase()]),
    );
    const unknown = only.filter((name) => !known.has(name.toLowerCase()));
    if (unknown.length > 0)
      throw new UsageError(`--only: no tag or operationId ${unknown.join(', ')}`);

    const runner = new Runner(contract, {
      baseUrl,
      seed,
      runs,
      only,
      token: values.token ?? null,
      register: values.register,
      fund: values.fund ?? null,
      log,
    });
    const reproduce = [
      'npm run contract --',
      `--base-url ${shellQuote(baseUrl)}`,
      `--seed ${seed}`,
      `--runs ${runs}`,
      values.register ? '--register' : values.token ? '--token <your token>' : '',
      values.fund ? `--fund ${shellQuote(values.fund)}` : '',
    ]
      .filter(Boolean)
      .join(' ');

    const info = /** @type {{ version?: string }} */ (contract.document.info ?? {});
    log(
      `contract-check: openapi.yaml ${info.version ?? ''} (${contract.operations.length} operations) against ${baseUrl}`,
    );
    log(
      `seed ${seed} · ${runs} runs per property · ${runner.selected.length} operations selected · session: ${
        values.register ? 'throwaway account (--register)' : values.token ? '--token' : 'none'
      }`,
    );
    try {
      await fetch(runner.transport.base, {
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      const cause = err instanceof Error && err.cause ? ` (${String(err.cause)})` : '';
      log(`cannot reach ${baseUrl}: ${err instanceof Error ? err.message : String(err)}${cause}`);
      return 2;
    }

    const started = performance.now();
    log('');
    // With --register the sign-up flow (the first) always runs: it makes the session everything
    // else uses.
    for (const [index, def] of FLOWS.entries()) {
      const result = await runFlow(runner, def, index === 0 && values.register);
      if (result) log(flowLine(result));
    }

    log('');
    // x-destructive operations last: the others still find the account's data intact.
    const ordered = [
      ...runner.selected.filter((op) => !op.destructive),
      ...runner.selected.filter((op) => op.destructive),
    ];
    let toolErrors = 0;
    for (const op of ordered) {
      try {
        log(progressLine(runner, await runner.operation(op)));
      } catch (err) {
        // A bug of the tool must not hide the other operations' results.
        toolErrors += 1;
        log(
          `  tool error while checking ${op.operationId}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        );
      }
    }

    const elapsedMs = performance.now() - started;
    for (const line of summary(runner, { reproduce, elapsedMs })) log(line);
    if (values.junit) {
      fs.mkdirSync(path.dirname(path.resolve(values.junit)), { recursive: true });
      fs.writeFileSync(values.junit, junit(runner, elapsedMs));
      log(`JUnit XML: ${values.junit}`);
    }
    const failedFlows = runner.flows.some((f) => f.status === 'failed');
    if (toolErrors > 0) return 2;
    return runner.failures.length > 0 || failedFlows || documentProblems > 0 ? 1 : 0;
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
