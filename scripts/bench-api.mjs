// `npm run bench:api`: how fast the built server answers the reads users feel, next to a bare
// Fastify that answers the same bytes, measured in the same run so that the ratio compares our
// server with the framework's own ceiling on the same machine at the same moment. A benchmark, not
// a test: it prints figures, and fails only when the figures are invalid (a non-2xx answer, e.g. a
// 429 from the limiter, or a socket error), never because a target is missed.
//
// For each engine it starts the built server (dist/server, built when stale) production-like with
// a fresh DATA_DIR, in as many processes on one port as `npm start` runs (PROCESSES=auto: one per
// core; server/src/cluster.ts): SQLite, then PostgreSQL (a throwaway cluster, or a fresh schema of
// TEST_DATABASE_URL). It signs in the demo account, records each route's exact answer (status,
// headers, body bytes), starts a bare Fastify (scripts/bench-bare.mjs) with as many processes on
// one port that replays them, then runs autocannon against ours and right after against the bare
// one (and the other way round, in turns, --rounds times), route by route, and prints a table
// with the median ratio ours/bare and the targets.
//
//   npm run bench:api -- [--duration <seconds>] [--rounds <n>] [--engine sqlite|postgres|both]
//     [--route <part of a route's name>] [--cpu-prof <dir>] [--processes <n>] [--large-rows <n>]
//     [--connections <n>]
// --route measures only the routes whose name contains it; --cpu-prof writes a V8 CPU profile of
// each of our server processes into <dir> when it stops (node --cpu-prof), to profile, not guess;
// --processes runs n processes a side instead of one per core (e.g. 1, to measure one process);
// --large-rows sets the wallet entries and deposits of the large-data step (0 skips it);
// --connections sets the connections of the measured runs (default 10): with 10, a creation
// measures how long one takes (10 in flight), with more, how many the server can make.
//
// The parts live in scripts/bench/: options (the flags), processes (child processes and the
// clean-up on exit), servers (the engine's store and our server), setup (the demo account, its
// gateway key and the large data), routes (the measured routes and the targets), bare (recording
// our answers and the bare server's replay), measure (autocannon runs and the ratio rounds),
// large (the large-data step), engine (one engine's run) and report (what is printed).
import { buildServer, serverBuildIsStale } from './build-server.mjs';
import { benchEngine } from './bench/engine.mjs';
import { parseOptions } from './bench/options.mjs';
import { cleanUpOnExit } from './bench/processes.mjs';
import { printHeading, printLargeTable, printTable, reportInvalid } from './bench/report.mjs';

const options = parseOptions();
cleanUpOnExit();

if (serverBuildIsStale()) await buildServer();
printHeading(options);
/** @type {import('./bench/measure.mjs').Row[]} */
const rows = [];
/** @type {import('./bench/large.mjs').LargeRow[]} */
const large = [];
let failed = false;
for (const engine of options.engines) {
  try {
    const measured = await benchEngine(engine, options);
    rows.push(...measured.rows);
    large.push(...measured.large);
  } catch (error) {
    failed = true;
    console.error(
      `bench:api: ${engine}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
printTable(rows);
printLargeTable(large);
const invalid = reportInvalid(rows, large);
process.exit(failed || invalid ? 1 : 0);
