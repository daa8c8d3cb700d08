// The flags of `npm run bench:api` (see scripts/bench-api.mjs) and the load every run applies.
import os from 'node:os';
import { parseArgs } from 'node:util';

/**
 * Connections autocannon keeps open in a measured run unless --connections says otherwise (the
 * large-data reads run on 1 and on this many).
 */
export const CONNECTIONS = 10;
/** Seconds of load before each measured run, so neither side is measured while still warming up. */
export const WARMUP_SECONDS = 1;
/**
 * Seconds of unmeasured load on a route before its first measured run, on each side. One second
 * was not enough for our server: in the next four seconds of a creation's run V8's optimizing
 * compiler still took a sixth of its processes' CPU (perf, 2026-12-05), and PostgreSQL's invoices
 * measured 783, 1,082 and 901 a second after 1 s of load against 1,016, 1,551 and 1,530 after
 * 8 s, in turns (docs/performance.md). A shop's server answers its sale warm.
 */
export const ROUTE_WARMUP_SECONDS = 8;

/**
 * @typedef {'sqlite' | 'postgres'} Engine
 * @typedef {{ duration: number, rounds: number, connections: number, processes: number, largeRows: number, engines: Engine[], route: string, cpuProf: string | undefined }} Options
 *   `route`: only the routes whose name contains it are measured ('' measures all); `cpuProf`: the
 *   directory our server processes write a V8 CPU profile into, when given; `connections`: those
 *   of the measured runs.
 */

/**
 * Reads the flags (process.argv); throws on a value out of range.
 * @returns {Options}
 */
export function parseOptions() {
  const { values: flags } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: String(CONNECTIONS) },
      engine: { type: 'string', default: 'both' },
      'large-rows': { type: 'string', default: '1000000' },
      route: { type: 'string', default: '' },
      'cpu-prof': { type: 'string' },
      processes: { type: 'string', default: String(os.availableParallelism()) },
    },
  });
  const duration = Number(flags.duration);
  if (!Number.isInteger(duration) || duration < 1) {
    throw new Error(`--duration takes whole seconds (1 or more), got '${flags.duration}'`);
  }
  const rounds = Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`--rounds takes a whole number (1 or more), got '${flags.rounds}'`);
  }
  const connections = Number(flags.connections);
  if (!Number.isInteger(connections) || connections < 1) {
    throw new Error(`--connections takes a whole number (1 or more), got '${flags.connections}'`);
  }
  const processes = Number(flags.processes);
  if (!Number.isInteger(processes) || processes < 1) {
    throw new Error(`--processes takes a whole number (1 or more), got '${flags.processes}'`);
  }
  const largeRows = Number(flags['large-rows']);
  if (!Number.isSafeInteger(largeRows) || largeRows < 0) {
    throw new Error(
      `--large-rows takes a whole number (0 skips the step), got '${flags['large-rows']}'`,
    );
  }
  /** @type {Engine[]} */
  let engines;
  if (flags.engine === 'both') engines = ['sqlite', 'postgres'];
  else if (flags.engine === 'sqlite' || flags.engine === 'postgres') engines = [flags.engine];
  else throw new Error(`--engine takes sqlite, postgres or both, got '${flags.engine}'`);
  return {
    duration,
    rounds,
    connections,
    processes,
    largeRows,
    engines,
    route: flags.route,
    cpuProf: flags['cpu-prof'],
  };
}
