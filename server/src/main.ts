import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { buildApp } from './app';
import { runPrimary } from './cluster';
import { loadConfig, type Config } from './config';
import { refuseReadableSeed } from './domain/chain/walletKey';
import { followHeads } from './jobs/heads';
import { startWorker } from './jobs/worker';
import { specChainAdapters, verifyProviders } from './domain/chain';
import { systemClock } from './domain/time';
import { CHECKOUT_DIR, GATEWAY_DOCS_DIR, WEB_DIR } from './paths';
import { openRuntime } from './runtime';
import { backgroundTasks } from './jobs';
import { signerRefusals } from './http/signerMetrics';

async function main(): Promise<void> {
  // Whatever this process creates (DATA_DIR, the database, uploads, mails) is owner-only; the
  // explicit modes in runtime and storage hold without it, this covers what they do not name.
  process.umask(0o077);
  const loaded = loadConfig(process.env);
  // Production: the seed is the signer's alone; a web process that can read it does not start.
  refuseReadableSeed(loaded);
  const processes = loaded.processes === 'auto' ? availableParallelism() : loaded.processes;
  if (cluster.isPrimary && processes > 1) await runPrimary(loaded, processes);
  else await serve(loaded);
}

/** One server process: alone, or one of PROCESSES (server/src/cluster.ts). */
async function serve(loaded: Config): Promise<void> {
  decodeSourceMapNow();
  const runtime = await openRuntime(loaded, { serving: true });
  const { config } = runtime;
  // A provider answering for another chain stops the start, named (domain/chain/rpc.ts).
  await verifyProviders(config);
  const app = await buildApp({
    config,
    db: runtime.db,
    webDir: WEB_DIR,
    gatewayDocsDir: GATEWAY_DOCS_DIR,
    checkoutDir: CHECKOUT_DIR,
  });
  const worker = await startWorker({
    db: runtime.db,
    tasks: backgroundTasks(config, runtime.db, {
      signerRefused: signerRefusals(app.metrics),
    }),
    log: app.log,
    pollMs: 1_000,
    listenUrl: config.databaseUrl,
  });
  const heads = followHeads(runtime.db, specChainAdapters(config, runtime.db), {
    pollMs: config.headPollMs,
    clock: systemClock,
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    // Stop accepting, let in-flight requests finish, then close the database.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => Promise.all([heads.stop(), worker.stop()]))
      .then(() => runtime.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'Shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Several processes: the primary says it once they all listen.
  if (cluster.isWorker) return;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Portal listening on http://localhost:${port}`);
}

/**
 * With --enable-source-maps (scripts/start.mjs), the first stack trace a process formats decodes
 * the bundle's whole source map: about 0.3 s with the event loop blocked. Done before the process
 * listens, not at its first logged error under load (docs/performance.md).
 */
function decodeSourceMapNow(): void {
  if (process.sourceMapsEnabled) void new Error('decoding the source map').stack;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
