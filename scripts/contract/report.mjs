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
const CATEGORY_TITLES = {
  valid: 'valid requests',
  invalid: 'invalid requests',
  auth: 'without a session',
};

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
    (f) => f.operationId === op.operationId && f.category !== 'flow',
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
 * The summary table and the failures, as lines.
 * @param {Runner} runner @param {{ reproduce: string, elapsedMs: number }} info
 */
export function summary(runner, info) {
  const lines = [];
  const results = runner.selected.map(
    (op) => /** @type {OperationResult} */ (runner.results.get(op.operationId)),
  );
  lines.push('', 'Summary');
  lines.push(
    `  ${pad('operation', 22)} ${pad('valid', 11)} ${pad('invalid', 11)} ${pad('no session', 11)} statuses seen`,
  );
  for (const r of results) {
    const cells = r.skipped
      ? [pad(`skipped: ${r.skipped}`, 35)]
      : CATEGORIES.map((c) => pad(cell(r.categories[c]), 11));
    lines.push(
      `  ${pad(r.op.operationId, 22)} ${cells.join(' ')} ${statusList(r.statuses)}`.trimEnd(),
    );
  }
  for (const flow of runner.flows) lines.push(flowLine(flow));
  const skippedNotes = new Map();
  for (const r of results) {
    for (const c of CATEGORIES) {
      const reason = r.categories[c]?.skipped;
      if (reason && r.categories[c]?.applicable) {
        skippedNotes.set(reason, [
          ...(skippedNotes.get(reason) ?? []),
          `${r.op.operationId} (${CATEGORY_TITLES[c]})`,
        ]);
      }
    }
  }
  for (const [reason, where] of skippedNotes)
    lines.push(`  skipped, ${reason}: ${where.join(', ')}`);
  if (runner.transport.rateLimited > 0) {
    lines.push(
      `  warning: ${runner.transport.rateLimited} answers stayed 429 after waiting: raise the server's rate limits for a meaningful run`,
    );
  }
  const failedFlows = runner.flows.filter((f) => f.status === 'failed');
  const total = runner.failures.length;
  lines.push(
    '',
    `${total} failure${total === 1 ? '' : 's'}${failedFlows.length ? `, ${failedFlows.length} failed flow${failedFlows.length > 1 ? 's' : ''}` : ''}` +
      ` · ${runner.transport.requests} requests in ${seconds(info.elapsedMs)} · seed ${runner.options.seed}`,
  );
  runner.failures.forEach((f, i) => {
    lines.push(
      '',
      `${i + 1}) ${f.operationId} - ${f.flow ? `flow "${f.flow}"` : CATEGORY_TITLES[/** @type {'valid' | 'invalid' | 'auth'} */ (f.category)]} - ${KIND_TITLES[f.kind]}`,
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
 * JUnit XML: one test case per operation and category, one per flow.
 * @param {Runner} runner @param {number} elapsedMs
 */
export function junit(runner, elapsedMs) {
  const cases = [];
  let failed = 0;
  let skipped = 0;
  for (const op of runner.selected) {
    const r = /** @type {OperationResult} */ (runner.results.get(op.operationId));
    for (const c of CATEGORIES) {
      const category = r.categories[c];
      if (category && !category.applicable) continue;
      const name = `${op.operationId}: ${CATEGORY_TITLES[c]}`;
      const reason = r.skipped ?? category?.skipped;
      const mine = runner.failures.filter(
        (f) => f.operationId === op.operationId && f.category === c,
      );
      let inner = '';
      if (mine.length > 0) {
        failed += 1;
        inner = failureElement(mine);
      } else if (reason) {
        skipped += 1;
        inner = `<skipped message="${xml(reason)}"/>`;
      }
      const time = ((category?.ms ?? 0) / 1000).toFixed(3);
      cases.push(
        `    <testcase classname="contract.${xml(op.tag)}" name="${xml(name)}" time="${time}">${inner}</testcase>`,
      );
    }
  }
  for (const flow of runner.flows) {
    const mine = runner.failures.filter((f) => f.flow === flow.name);
    let inner = '';
    if (flow.status === 'failed') {
      failed += 1;
      inner =
        mine.length > 0
          ? failureElement(mine)
          : `<failure type="flow" message="${xml(flow.reason ?? 'failed')}"/>`;
    } else if (flow.status === 'skipped') {
      skipped += 1;
      inner = `<skipped message="${xml(flow.reason ?? '')}"/>`;
    }
    cases.push(
      `    <testcase classname="contract.flows" name="${xml(flow.name)}" time="${(flow.ms / 1000).toFixed(3)}">${inner}</testcase>`,
    );
  }
  const time = (elapsedMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract-check" tests="${cases.length}" failures="${failed}" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="openapi.yaml contract (seed ${runner.options.seed})" tests="${cases.length}" failures="${failed}" skipped="${skipped}" time="${time}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
