// The load of `npm run bench:api`: autocannon runs on one route of a server, with the CPU its
// processes used, and the rounds that compare ours with the bare Fastify on a route.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { CONNECTIONS, ROUTE_WARMUP_SECONDS, WARMUP_SECONDS } from './options.mjs';
import { targetOf } from './routes.mjs';

/**
 * @typedef {{ reqPerSec: number, p50: number, p99: number, non2xx: number, errors: number, cpuMicros: number | null }} Figures
 *   `cpuMicros`: the CPU (user + system) the measured processes used per request, warm-up
 *   included, in µs; null where /proc is missing. Less moved by the machine's drift than req/s.
 * @typedef {{ engine: string, route: string, ours: Figures, bare: Figures, ratio: number, ratios: number[], target: number | null, untargeted?: string }} Row
 */

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * The process and, when it is a primary of several (cluster), the workers it started.
 * @param {number | undefined} pid @returns {number[]}
 */
function withWorkers(pid) {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return [Number(pid), ...(children ? children.split(/\s+/).map(Number) : [])];
}

/**
 * CPU time (user + system) a server and its workers have used, in clock ticks; null without
 * /proc.
 * @param {import('node:child_process').ChildProcess} server
 */
function cpuTicks(server) {
  try {
    return withWorkers(server.pid).reduce((total, pid) => {
      // Fields after the command name, which ends with ') ': utime and stime are the 12th and
      // 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
      return total + Number(fields?.[11]) + Number(fields?.[12]);
    }, 0);
  } catch {
    return null;
  }
}

/**
 * autocannon's options for load on `route` of `side` for `duration` seconds.
 * @param {import('./servers.mjs').Side} side @param {Record<string, string>} headers
 * @param {import('./routes.mjs').Route} route @param {number} duration @param {number} connections
 */
const loadOf = (side, headers, route, duration, connections) => ({
  url: `${side.origin}${route.path}`,
  connections,
  duration,
  headers,
  method: route.method,
  // A POST body per request (each creates its own account); GETs send none.
  ...(route.nextBody ? { requests: [{ setupRequest: withBody(route.nextBody) }] } : {}),
});

/**
 * Load on `route` of `side` for `duration` seconds, counting the CPU of the side's processes.
 * @param {import('./servers.mjs').Side} side @param {Record<string, string>} headers
 * @param {import('./routes.mjs').Route} route @param {number} duration
 * @returns {Promise<Figures>}
 */
export async function measure(side, headers, route, duration, connections = CONNECTIONS) {
  const before = cpuTicks(side.server);
  const result = await autocannon({
    ...loadOf(side, headers, route, duration, connections),
    warmup: { connections, duration: WARMUP_SECONDS },
  });
  const runs = [result, ...(result.warmup ? [result.warmup] : [])];
  const after = cpuTicks(side.server);
  const requests = runs.reduce((sum, run) => sum + run.requests.total, 0);
  return {
    cpuMicros:
      before === null || after === null || requests === 0
        ? null
        : ((after - before) / CLOCK_TICKS / requests) * 1e6,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
  };
}

/**
 * Unmeasured load on `route` of `side` for ROUTE_WARMUP_SECONDS, before its first measured run:
 * until then the route's code has not run hot enough for V8 to have optimized it. Throws when an
 * answer is not 2xx or a request fails, as a measured run's would make the figures invalid.
 * @param {import('./servers.mjs').Side} side @param {import('./routes.mjs').Route} route
 * @param {number} connections
 */
async function warmUp(side, route, connections) {
  const result = await autocannon(
    loadOf(side, route.headers, route, ROUTE_WARMUP_SECONDS, connections),
  );
  if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
    throw new Error(
      `${route.name}: ${result.non2xx} non-2xx answers and ${result.errors + result.timeouts} ` +
        `failed requests while warming up`,
    );
  }
}

/**
 * @param {() => string} nextBody
 * @returns {(request: Record<string, unknown>) => Record<string, unknown>}
 */
const withBody = (nextBody) => (request) => ({ ...request, body: nextBody() });

/**
 * Measures `route` on ours and right after on the bare server, back to back, so both see the same
 * moment of a busy machine as nearly as can be, in `rounds` pairs taking turns at going first; the
 * row is the pair with the median ratio ours/bare (this machine's speed drifts by up to 2× within
 * minutes, which a single pair measures). Ours' non-2xx and errors count every run of both sides,
 * so a failed request in any run makes the row invalid.
 * @param {import('./servers.mjs').Side} ours @param {import('./servers.mjs').Side} bare
 * @param {import('./routes.mjs').Route} route
 * @param {{ engine: string, route: string, pool: number, store: import('./options.mjs').Engine }} names
 *   the row's engine label and route name, the address pool ours keeps (ADDRESS_POOL_SIZE), and
 *   the engine (the targets of some routes differ by engine)
 * @param {{ duration: number, rounds: number, connections: number }} options
 * @returns {Promise<Row>}
 */
export async function compareRoute(ours, bare, route, names, { duration, rounds, connections }) {
  /** @type {{ ours: Figures, bare: Figures, ratio: number }[]} */
  const pairs = [];
  const load = async (/** @type {import('./servers.mjs').Side} */ side) => {
    // Each run, of either side, starts with ours' address pool full, as a shop's is between two
    // bursts: a creation takes an address derived ahead, and the job that derives them after a
    // burst (or at start) takes CPU no run may share.
    await addressPoolFull(ours.origin, names.pool);
    return measure(side, route.headers, route, duration, connections);
  };
  for (const side of [ours, bare]) {
    await addressPoolFull(ours.origin, names.pool);
    await warmUp(side, route, connections);
  }
  for (let round = 0; round < rounds; round += 1) {
    const oursFirst = round % 2 === 0;
    const firstFigures = await load(oursFirst ? ours : bare);
    const secondFigures = await load(oursFirst ? bare : ours);
    const [oursFigures, bareFigures] = oursFirst
      ? [firstFigures, secondFigures]
      : [secondFigures, firstFigures];
    pairs.push({
      ours: oursFigures,
      bare: bareFigures,
      ratio: oursFigures.reqPerSec / bareFigures.reqPerSec,
    });
  }
  pairs.sort((a, b) => a.ratio - b.ratio);
  const median = pairs[Math.floor(pairs.length / 2)];
  if (!median) throw new Error('no rounds measured');
  const sum = (/** @type {(figures: Figures) => number} */ of) =>
    pairs.reduce((total, pair) => total + of(pair.ours) + of(pair.bare), 0);
  return {
    engine: names.engine,
    route: names.route,
    ours: { ...median.ours, non2xx: sum((f) => f.non2xx), errors: sum((f) => f.errors) },
    bare: median.bare,
    ratio: median.ratio,
    ratios: pairs.map((pair) => pair.ratio),
    target: targetOf(route, names.store),
    untargeted: route.untargeted,
  };
}

/** Each branch's address pool when a creation is measured: ahead of a run at the target's rate. */
export const BENCH_POOL = 25_000;
/** The server's own ADDRESS_POOL_SIZE, for a run that measures no creation. */
export const DEFAULT_POOL = 1_000;

/** Waits (at most 5 minutes) for `origin`'s /metrics to show `size` ready on each branch. */
async function addressPoolFull(/** @type {string} */ origin, /** @type {number} */ size) {
  const started = Date.now();
  for (;;) {
    const text = await (await fetch(`${origin}/metrics`)).text();
    const ready = [...text.matchAll(/^portal_address_pool_ready\{branch="\w+"\} (\d+)$/gm)].map(
      (m) => Number(m[1]),
    );
    if (ready.length === 2 && ready.every((n) => n >= size)) break;
    if (Date.now() - started > 300_000) throw new Error(`address pool not full: ${ready}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const waited = Date.now() - started;
  if (waited > 1000) console.log(`  (waited ${(waited / 1000).toFixed(0)} s for the address pool)`);
}
