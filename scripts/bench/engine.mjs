// One engine's run of `npm run bench:api`: our server started on a fresh store, the demo account
// and its gateway app set up, our answers recorded and replayed by the bare Fastify, every route
// compared on both, and then the large-data step.
import { checkReplay, recordAnswers, startBare } from './bare.mjs';
import { benchLarge } from './large.mjs';
import { BENCH_POOL, compareRoute, DEFAULT_POOL } from './measure.mjs';
import { stopProcesses } from './processes.mjs';
import { printRow, withSize } from './report.mjs';
import { benchRoutes, createsAddresses } from './routes.mjs';
import { closeStore, engineLabel, keepLogs, openStore, serverEnv, startOurs } from './servers.mjs';
import { setUpGateway, signIn } from './setup.mjs';

/**
 * Starts ours on `engine`, records the routes, starts the bare replay, measures every route (those
 * whose name contains `options.route`), then the large data unless `options.largeRows` is 0. On a
 * failure the engine's DATA_DIR is kept for its logs; the servers are stopped either way.
 * @param {import('./options.mjs').Engine} engine @param {import('./options.mjs').Options} options
 * @returns {Promise<{ rows: import('./measure.mjs').Row[], large: import('./large.mjs').LargeRow[] }>}
 */
export async function benchEngine(engine, options) {
  // Our processes share one port, as `npm start` runs them; so do the bare ones. One autocannon
  // run keeps one latency histogram, which two runs' p50/p99 could not be summed into.
  const label = engineLabel(engine, options.processes);
  console.log(`\n== ${label}`);
  const store = await openStore(engine);
  /** @type {import('node:child_process').ChildProcess[]} */
  const started = [];
  try {
    // Enough addresses derived ahead for a run of the creations at the target's rate, when one is
    // measured; else the server's default.
    const pool = createsAddresses(options.route) ? BENCH_POOL : DEFAULT_POOL;
    const env = { ...serverEnv(store), ADDRESS_POOL_SIZE: String(pool) };
    const startOne = async (/** @type {Record<string, string>} */ extraEnv = {}) => {
      const side = await startOurs(store, env, options, extraEnv);
      started.push(side.server);
      return side;
    };
    const ours = await startOne();
    const api = `${ours.origin}/api`;
    const headers = await signIn(api);
    const { appId, key, invoiceId, openInvoiceId } = await setUpGateway(api, headers);
    const routes = benchRoutes(headers, appId, key, { invoiceId, openInvoiceId });

    const { answers, sizes } = await recordAnswers(ours.origin, routes);
    const bare = await startBare(answers, store.dataDir, options.processes);
    started.push(bare.server);
    await checkReplay(bare, answers, routes);

    /** @type {import('./measure.mjs').Row[]} */
    const rows = [];
    for (const route of routes.filter((r) => r.name.includes(options.route))) {
      const name = withSize(route.name, sizes.get(route.name) ?? 0);
      const row = await compareRoute(
        ours,
        bare,
        route,
        { engine: label, route: name, pool, store: engine },
        options,
      );
      printRow(row);
      rows.push(row);
    }
    const large =
      options.largeRows > 0
        ? await benchLarge({
            label,
            rows: options.largeRows,
            duration: options.duration,
            env,
            ours,
            startOurs: startOne,
            routes,
          })
        : [];
    return { rows, large };
  } catch (error) {
    keepLogs(store);
    throw error;
  } finally {
    await stopProcesses(started);
    await closeStore(store);
  }
}
