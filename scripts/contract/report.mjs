// What a run prints: a progress line per operation and flow, the summary table, each failure
// with its smallest request and how to reproduce it, and the JUnit XML of `--junit FILE`.
import { KIND_TITLES } from './checks.mjs';

/**
 * @typedef {import('./runner.mjs').Runner} Runner
 * @typedef {import('./runner.mjs').OperationResult} OperationResult
 * @typedef {import('./runner.mjs').FlowResult} FlowResult
 * @typedef {import('./runner.mjs').Failure} Failure
 */

const CATEGORIES = /** @type {const} */ (['valid', 'invalid', 'auth']);

/** What a property is called in reports; the third one's name depends on the document. @param {Runner} runner @param {'valid' | 'invalid' | 'auth'} category */
function categoryTitle(runner, category) {
  if (category === 'auth') return runner.authTitle;
  return category === 'valid' ? 'valid requests' : 'invalid requests';
}

/** @param {Map<number, number>} statuses */
function statusList(statuses) {
  return [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}x${n}`)
    .join(' ');
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

/** @param {string} text @param {number} width */
const pad = (text, width) =>
  text.length >= width ? `${text.slice(0, width - 1)}~` : text.padEnd(width);

/** @param {Runner} runner @param {OperationResult} result */
export function progressLine(runner, result) {
  const { op } = result;
  const failures = runner.failures.filter(
    (f) =>
      f.doc === runner.contract.name && f.operationId === op.operationId && f.category !== 'flow',
  ).length;
  const mark = result.skipped ? 'skip' : failures > 0 ? 'FAIL' : ' ok ';
  const route = `${op.method.toUpperCase()} ${op.path}`;
  if (result.skipped)
    return `  ${mark} ${pad(op.operationId, 22)} ${pad(route, 46)} ${result.skipped}`;
  const note = failures > 0 ? `${failures} failure${failures > 1 ? 's' : ''}` : '';
  return `  ${mark} ${pad(op.operationId, 22)} ${pad(route, 46)} ${pad(`${result.requests} req`, 9)} ${pad(statusList(result.statuses), 34)} ${seconds(result.ms)} ${note}`.trimEnd();
}

/** @param {FlowResult} flow */
export function flowLine(flow) {
  const mark = { passed: ' ok ', failed: 'FAIL', skipped: 'skip' }[flow.status];
  const detail = flow.status === 'skipped' || flow.reason ? `: ${flow.reason ?? ''}` : '';
  return `  ${mark} flow: ${flow.name} (${flow.steps} steps, ${seconds(flow.ms)})${detail}`;
}

/** @param {{ runs: number, failures: number, skipped?: string, applicable: boolean } | undefined} c */
function cell(c) {
  if (!c || !c.applicable) return '-';
  if (c.skipped) return 'skipped';
  return c.failures > 0 ? `FAIL (${c.failures})` : `ok (${c.runs})`;
}

/**
 * The summary tables (one per document with selected operations) and the failures, as lines.
 * The runners share their failures and flows (runner.mjs `Shared`).
 * @param {Runner[]} runners @param {{ reproduce: string, elapsedMs: number }} info
 */
export function summary(runners, info) {
  const [first] = runners;
  if (!first) return [];
  const lines = ['', 'Summary'];
  const skippedNotes = new Map();
  const shown = runners.filter((runner) => runner.selected.length > 0);
  for (const runner of shown) {
    const results = runner.selected.map(
      (op) => /** @type {OperationResult} */ (runner.results.get(op.operationId)),
    );
    if (shown.length > 1) lines.push(`  ${runner.contract.name}`);
    lines.push(
      `  ${pad('operation', 22)} ${pad('valid', 11)} ${pad('invalid', 11)} ${pad(runner.authTitle.replace(/^without (a )?(valid )?/, 'no '), 11)} statuses seen`,
    );
    for (const r of results) {
      const cells = r.skipped
        ? [pad(`skipped: ${r.skipped}`, 35)]
        : CATEGORIES.map((c) => pad(cell(r.categories[c]), 11));
      lines.push(
        `  ${pad(r.op.operationId, 22)} ${cells.join(' ')} ${statusList(r.statuses)}`.trimEnd(),
      );
      for (const c of CATEGORIES) {
        const reason = r.categories[c]?.skipped;
        if (reason && r.categories[c]?.applicable) {
          skippedNotes.set(reason, [
            ...(skippedNotes.get(reason) ?? []),
            `${r.op.operationId} (${categoryTitle(runner, c)})`,
          ]);
        }
      }
    }
  }
  for (const flow of first.flows) lines.push(flowLine(flow));
  for (const [reason, where] of skippedNotes)
    lines.push(`  skipped, ${reason}: ${where.join(', ')}`);
  const rateLimited = runners.reduce((n, r) => n + r.transport.rateLimited, 0);
  if (rateLimited > 0) {
    lines.push(
      `  warning: ${rateLimited} answers stayed 429 after waiting: raise the server's rate limits for a meaningful run`,
    );
  }
  const failedFlows = first.flows.filter((f) => f.status === 'failed');
  const total = first.failures.length;
  const requests = runners.reduce((n, r) => n + r.transport.requests, 0);
  lines.push(
    '',
    `${total} failure${total === 1 ? '' : 's'}${failedFlows.length ? `, ${failedFlows.length} failed flow${failedFlows.length > 1 ? 's' : ''}` : ''}` +
      ` · ${requests} requests in ${seconds(info.elapsedMs)} · seed ${first.options.seed}`,
  );
  first.failures.forEach((f, i) => {
    const runner = runners.find((r) => r.contract.name === f.doc) ?? first;
    const what = f.flow
      ? `flow "${f.flow}"`
      : categoryTitle(runner, /** @type {'valid' | 'invalid' | 'auth'} */ (f.category));
    lines.push(
      '',
      `${i + 1}) ${f.operationId} (${f.doc}) - ${what} - ${KIND_TITLES[f.kind]}`,
      `   ${f.message}`,
      f.seed !== null
        ? `   smallest failing request (property seed ${f.seed}, ${f.shrinks ?? 0} shrink steps):`
        : '   request:',
      ...indent(f.request, 5),
      `   answer: ${f.response.replace(/\s+/g, ' ')}`,
      `   curl: ${f.curl}`,
      `   reproduce: ${info.reproduce}${f.flow ? '' : ` --only ${f.operationId}`}`,
    );
  });
  for (const flow of failedFlows.filter((fl) => fl.reason)) {
    lines.push('', `flow "${flow.name}" failed: ${flow.reason}`);
  }
  return lines;
}

/** @param {string} text @param {number} n */
function indent(text, n) {
  return text.split('\n').map((line) => (line ? `${' '.repeat(n)}${line}` : ''));
}

/** @param {string} text */
function xml(text) {
  // XML 1.0 forbids most control characters even when escaped.
  const allowed = (/** @type {number} */ c) =>
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0x10ffff && (c < 0xfffe || c > 0xffff));
  return Array.from(text, (ch) => (allowed(ch.codePointAt(0) ?? 0) ? ch : '?'))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** @param {Failure[]} failures */
function failureElement(failures) {
  const [first] = failures;
  if (!first) return '';
  const body = failures
    .map(
      (f) =>
        `${KIND_TITLES[f.kind]}: ${f.message}\n${f.request}\nanswer: ${f.response}\ncurl: ${f.curl}`,
    )
    .join('\n\n');
  return `<failure type="${xml(first.kind)}" message="${xml(`${KIND_TITLES[first.kind]}: ${first.message}`)}">${xml(body)}</failure>`;
}

/**
 * JUnit XML: one test case per operation and category (a test suite per document), one per
 * flow (a suite of their own).
 * @param {Runner[]} runners @param {number} elapsedMs
 */
export function junit(runners, elapsedMs) {
  const [first] = runners;
  if (!first) return '';
  const time = (elapsedMs / 1000).toFixed(3);
  /** @type {string[]} */
  const suites = [];
  let tests = 0;
  let failed = 0;
  let skipped = 0;
  /** @param {string} name @param {string[]} cases @param {number} f @param {number} s */
  const suite = (name, cases, f, s) => {
    suites.push(
      `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${f}" skipped="${s}" time="${time}">`,
      ...cases,
      '  </testsuite>',
    );
    tests += cases.length;
    failed += f;
    skipped += s;
  };
  for (const runner of runners) {
    const cases = [];
    let suiteFailed = 0;
    let suiteSkipped = 0;
    // The portal's test cases keep their class names; the gateway's are told apart.
    const prefix =
      runner === first ? 'contract' : `contract.${runner.contract.name.replace(/\.ya?ml$/, '')}`;
    for (const op of runner.selected) {
      const r = /** @type {OperationResult} */ (runner.results.get(op.operationId));
      for (const c of CATEGORIES) {
        const category = r.categories[c];
        if (category && !category.applicable) continue;
        const name = `${op.operationId}: ${categoryTitle(runner, c)}`;
        const reason = r.skipped ?? category?.skipped;
        const mine = runner.failures.filter(
          (f) =>
            f.doc === runner.contract.name && f.operationId === op.operationId && f.category === c,
        );
        let inner = '';
        if (mine.length > 0) {
          suiteFailed += 1;
          inner = failureElement(mine);
        } else if (reason) {
          suiteSkipped += 1;
          inner = `<skipped message="${xml(reason)}"/>`;
        }
        const ms = ((category?.ms ?? 0) / 1000).toFixed(3);
        cases.push(
          `    <testcase classname="${xml(`${prefix}.${op.tag}`)}" name="${xml(name)}" time="${ms}">${inner}</testcase>`,
        );
      }
    }
    if (cases.length > 0) {
      suite(
        `${runner.contract.name} contract (seed ${first.options.seed})`,
        cases,
        suiteFailed,
        suiteSkipped,
      );
    }
  }
  const cases = [];
  let flowsFailed = 0;
  let flowsSkipped = 0;
  for (const flow of first.flows) {
    const mine = first.failures.filter((f) => f.flow === flow.name);
    let inner = '';
    if (flow.status === 'failed') {
      flowsFailed += 1;
      inner =
        mine.length > 0
          ? failureElement(mine)
          : `<failure type="flow" message="${xml(flow.reason ?? 'failed')}"/>`;
    } else if (flow.status === 'skipped') {
      flowsSkipped += 1;
      inner = `<skipped message="${xml(flow.reason ?? '')}"/>`;
    }
    cases.push(
      `    <testcase classname="contract.flows" name="${xml(flow.name)}" time="${(flow.ms / 1000).toFixed(3)}">${inner}</testcase>`,
    );
  }
  if (cases.length > 0) suite('stateful flows', cases, flowsFailed, flowsSkipped);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract-check" tests="${tests}" failures="${failed}" skipped="${skipped}" time="${time}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
