// What `npm run bench:api` prints: the run's heading, each route's figures as they are measured,
// and at the end the tables of ratios and of large-data latencies, with the invalid rows named.
import os from 'node:os';
import { CONNECTIONS, ROUTE_WARMUP_SECONDS, WARMUP_SECONDS } from './options.mjs';
import { LARGE_TARGET } from './routes.mjs';

/**
 * @typedef {import('./measure.mjs').Figures} Figures
 * @typedef {import('./measure.mjs').Row} Row
 * @typedef {import('./large.mjs').LargeRow} LargeRow
 */

/** @param {number} n */
export const reqs = (n) => Math.round(n).toLocaleString('en-US');
/** autocannon's latency histogram counts whole milliseconds: 0 is under one. @param {number} ms */
const millis = (ms) => (ms < 1 ? '< 1 ms' : `${Number(ms.toFixed(2))} ms`);
/** Two decimals, three below 0.1, so a tiny ratio does not print as 0. @param {number} ratio */
const fraction = (ratio) => ratio.toFixed(ratio < 0.1 ? 3 : 2);
/** @param {Figures} f */
export const describe = (f) =>
  `${reqs(f.reqPerSec)} req/s, p50 ${millis(f.p50)}, p99 ${millis(f.p99)}, non-2xx ${f.non2xx}` +
  (f.cpuMicros === null ? '' : `, CPU ${f.cpuMicros.toFixed(1)} µs/request`) +
  (f.errors > 0 ? `, errors ${f.errors}` : '');

/**
 * A route's name with the size of its answer's body.
 * @param {string} name @param {number} size in bytes
 */
export const withSize = (name, size) =>
  `${name} (${size < 10_000 ? `${size} B` : `${Math.round(size / 1024)} KB`})`;

/**
 * The run's settings and the machine it runs on.
 * @param {{ duration: number, rounds: number, connections: number }} options
 */
export function printHeading({ duration, rounds, connections }) {
  console.log(
    `bench:api: ${connections} connections, ${ROUTE_WARMUP_SECONDS} s warm-up per route and side, ` +
      `then ${WARMUP_SECONDS} s warm-up + ${duration} s per run, ` +
      `${rounds} rounds per route; ` +
      `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
}

/** A 429 or a failed request is answered faster than a real one: such a row proves nothing. */
const isInvalid = (/** @type {Row} */ row) =>
  row.ours.non2xx + row.ours.errors + row.bare.non2xx + row.bare.errors > 0;

/** Failed answers, or none at all in the run (a histogram of nothing reads 0 ms). */
const isLargeInvalid = (/** @type {LargeRow} */ row) =>
  [row.alone, row.loaded].some((f) => f.non2xx + f.errors > 0 || f.reqPerSec === 0);

/** @param {Row} row */
function verdictOf(row) {
  if (row.target === null) return isInvalid(row) ? 'invalid' : `none (${row.untargeted})`;
  const met = row.ratio >= row.target ? 'met' : 'not met';
  return `≥ ${row.target}: ${isInvalid(row) ? 'invalid' : met}`;
}

/** A route's figures on both sides and its ratio, as soon as it is measured. @param {Row} row */
export function printRow(row) {
  console.log(`${row.route}\n  ours: ${describe(row.ours)}\n  bare: ${describe(row.bare)}`);
  console.log(
    `  ratio ${fraction(row.ratio)}, the median of ${row.ratios.map(fraction).join(', ')} (${verdictOf(row)})`,
  );
}

/** @param {string[]} cells */
const line = (cells) => `| ${cells.join(' | ')} |`;

/** @param {Row[]} rows */
export function printTable(rows) {
  const table = [
    ['engine', 'route', 'ours req/s', 'p50', 'p99', 'non-2xx', 'bare req/s', 'ratio', 'target'],
    ...rows.map((row) => [
      row.engine,
      row.route,
      reqs(row.ours.reqPerSec),
      millis(row.ours.p50),
      millis(row.ours.p99),
      String(row.ours.non2xx),
      reqs(row.bare.reqPerSec),
      fraction(row.ratio),
      verdictOf(row),
    ]),
  ];
  console.log(`\n${line(table[0] ?? [])}`);
  console.log(line((table[0] ?? []).map(() => '---')));
  for (const cells of table.slice(1)) console.log(line(cells));
}

/** @param {LargeRow[]} list */
export function printLargeTable(list) {
  if (list.length === 0) return;
  const head = ['engine', 'route', 'rows', '1 conn. req/s', 'p50', 'p99'];
  head.push(`${CONNECTIONS} conn. req/s`, 'p50', 'p99', 'non-2xx', 'target (1 connection)');
  console.log(`\n${line(head)}`);
  console.log(line(head.map(() => '---')));
  for (const row of list) {
    const { alone, loaded } = row;
    const met = alone.p50 <= LARGE_TARGET.p50 && alone.p99 <= LARGE_TARGET.p99;
    const verdict = isLargeInvalid(row) ? 'invalid' : met ? 'met' : 'not met';
    console.log(
      line([
        row.engine,
        row.route,
        reqs(row.rows),
        ...[alone, loaded].flatMap((f) => [reqs(f.reqPerSec), millis(f.p50), millis(f.p99)]),
        String(alone.non2xx + loaded.non2xx),
        `p50 ≤ ${LARGE_TARGET.p50} ms, p99 ≤ ${LARGE_TARGET.p99} ms: ${verdict}`,
      ]),
    );
  }
}

/**
 * Names the rows whose figures are invalid (some answers not 2xx, or failed) on stderr.
 * @param {Row[]} rows @param {LargeRow[]} large
 * @returns {boolean} whether there were any
 */
export function reportInvalid(rows, large) {
  const invalid = [
    ...rows.filter(isInvalid),
    ...large
      .filter(isLargeInvalid)
      .map((row) => ({ engine: row.engine, route: `${row.route} (large data)` })),
  ];
  if (invalid.length > 0) {
    console.error(
      `bench:api: INVALID figures, some answers were not 2xx or failed: ${invalid
        .map((row) => `${row.engine} ${row.route}`)
        .join('; ')}`,
    );
  }
  return invalid.length > 0;
}
