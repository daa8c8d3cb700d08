// The large-data step of `npm run bench:api`: the reads whose work grows with a merchant's rows,
// measured after a year of the demo merchant's wallet entries and deposits is written, and the
// kept counts and daily totals then checked against the rows.
import { rawRequest } from './http.mjs';
import { measure } from './measure.mjs';
import { CONNECTIONS } from './options.mjs';
import { stopProcesses } from './processes.mjs';
import { describe, reqs } from './report.mjs';
import { largeDataRoutes } from './routes.mjs';
import { checkKeptCounts, signIn, writeLargeData } from './setup.mjs';

/**
 * @typedef {{ engine: string, route: string, rows: number, alone: import('./measure.mjs').Figures, loaded: import('./measure.mjs').Figures }} LargeRow
 */

/**
 * Large data: the servers stopped (their watcher would fail the made-up deposits), the demo
 * merchant's year of wallet entries and deposits written by `npm run admin -- bench large-data`
 * (the domain's bulk paths), the servers started again without kept reads, the dashboard and the
 * app detail measured, and the kept counts and daily totals compared with the rows.
 * @param {object} bench
 * @param {string} bench.label the engine's label, as the tables print it
 * @param {number} bench.rows how many wallet entries and deposits to write
 * @param {number} bench.duration seconds per measured run
 * @param {NodeJS.ProcessEnv} bench.env our server's environment, for the admin commands
 * @param {import('./servers.mjs').Side} bench.ours our running server, stopped first
 * @param {(extraEnv: Record<string, string>) => Promise<import('./servers.mjs').Side>} bench.startOurs
 * @param {import('./routes.mjs').Route[]} bench.routes the measured routes
 * @returns {Promise<LargeRow[]>}
 */
export async function benchLarge({ label, rows, duration, env, ours, startOurs, routes }) {
  console.log(`\n== ${label}: large data, ${reqs(rows)} wallet entries and deposits`);
  await stopProcesses([ours.server]);
  const seedStart = Date.now();
  await writeLargeData(env, rows);
  console.log(`  written in ${Math.round((Date.now() - seedStart) / 1000)} s`);
  // Without kept reads: what a read costs that the database answers (the first after a
  // change); kept, a repeated read never reaches the million rows.
  const uncached = await startOurs({ KEPT_READS: 'off' });
  const signedIn = await signIn(`${uncached.origin}/api`);
  /** @type {LargeRow[]} */
  const measured = [];
  for (const route of largeDataRoutes(routes)) {
    const answer = await rawRequest(`${uncached.origin}${route.path}`, signedIn.authenticated);
    if (answer.status !== 200) throw new Error(`${route.name} answered ${answer.status}`);
    const alone = await measure(uncached, signedIn.authenticated, route, duration, 1);
    const loaded = await measure(uncached, signedIn.authenticated, route, duration);
    console.log(
      `${route.name} (${answer.body.length} B)\n  1 connection: ${describe(alone)}` +
        `\n  ${CONNECTIONS} connections: ${describe(loaded)}`,
    );
    measured.push({ engine: label, route: route.name, rows, alone, loaded });
  }
  console.log('  kept counts and daily totals against the rows (COUNT(*), derived):');
  await checkKeptCounts(env);
  return measured;
}
