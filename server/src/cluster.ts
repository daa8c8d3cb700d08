import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config';
import { answerMetricsRequests } from './http/clusterMetrics';
import { openRuntime } from './runtime';

/**
 * PROCESSES > 1: this process (the primary) serves nothing itself. It migrates and seeds the
 * database once, then starts that many server processes (workers), which share PORT: Node's
 * cluster hands each new connection to the next one. They share everything else as processes
 * behind a proxy do (docs/operations.md, Deployment): the database, DATA_DIR, the signer's
 * socket. A worker that fails (an exit code other than 0, or a signal it did not handle) is
 * replaced; one that
 * fails before it listened, or more than 5 failures in a minute, stop them all with a failure,
 * as one process would have failed. SIGINT/SIGTERM stop the workers (each finishes its
 * requests) and then the primary; if the primary itself is killed, the workers end as their
 * channel to it closes (Node's cluster does that).
 */
export async function runPrimary(config: Config, processes: number): Promise<void> {
  const runtime = await openRuntime(config);
  await runtime.close();
  answerMetricsRequests();

  const live = new Set<Worker>();
  const listened = new Set<number>();
  const unexpectedEnds: number[] = [];
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const start = () => live.add(cluster.fork());
  const stop = (code: number) => {
    if (!stopping) exitCode = code;
    stopping = true;
    if (live.size === 0) process.exit(exitCode);
    for (const worker of live) worker.process.kill('SIGTERM');
    // Each worker gives itself 10 s to finish its requests (main.ts).
    setTimeout(() => process.exit(1), 15_000).unref();
  };

  cluster.on('listening', (worker, address) => {
    listened.add(worker.id);
    if (announced || listened.size < processes) return;
    announced = true;
    console.log(`Portal listening on http://localhost:${address.port} (${processes} processes)`);
  });

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    // Exit code 0 is a worker that was told to stop (Ctrl+C reaches every process of the
    // group): not replaced.
    if (stopping || (code === 0 && signal === null)) {
      if (live.size === 0) process.exit(exitCode);
      return;
    }
    const now = Date.now();
    unexpectedEnds.push(now);
    while ((unexpectedEnds[0] ?? now) < now - 60_000) unexpectedEnds.shift();
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!listened.has(worker.id) || unexpectedEnds.length > 5) {
      console.error(`A server process ended (${how}) and will not be replaced: stopping`);
      stop(1);
      return;
    }
    console.error(`A server process ended (${how}): starting another`);
    start();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(0));
  for (let i = 0; i < processes; i += 1) start();
}
