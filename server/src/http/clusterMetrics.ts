import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { withTimeout } from './timeout';

// With PROCESSES > 1 (server/src/cluster.ts) a scrape reaches whichever process the port hands
// it to, so each answers with every process's metrics: it asks the primary, which gathers them
// from all of them with prom-client's AggregatorRegistry (request counts and durations summed).

const REQUEST = 'portal:metrics-request';
const ANSWER = 'portal:metrics-answer';

/** Longer than a collector's own time limit, which the primary's gathering waits out. */
const ANSWER_WITHIN_MS = 8_000;

interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return (
    typeof message === 'object' && message !== null && 'type' in message && message.type === type
  );
}

/** Primary: answers the workers' requests with every worker's metrics. */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<{ type: typeof REQUEST; id: number }>(message, REQUEST)) return;
    const answer = (fields: Pick<MetricsAnswer, 'text' | 'error'>) =>
      worker.isConnected() && worker.send({ type: ANSWER, id: message.id, ...fields });
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: String(error) }),
    );
  });
}

const waiting = new Map<number, (answer: MetricsAnswer) => void>();
let nextId = 0;
let hearing = false;

/**
 * Worker: hands `registries` to the primary's gatherings and returns how to ask for them all;
 * undefined in a process of its own.
 */
export function clusterMetrics(registries: Registry[]): (() => Promise<string>) | undefined {
  if (!cluster.isWorker) return undefined;
  AggregatorRegistry.setRegistries(registries);
  // Constructing one is how prom-client starts answering the primary's requests in a worker.
  new AggregatorRegistry();
  if (!hearing) {
    hearing = true;
    process.on('message', (message: unknown) => {
      if (isMessage<MetricsAnswer>(message, ANSWER)) waiting.get(message.id)?.(message);
    });
  }
  return async () => {
    const id = nextId++;
    const answered = new Promise<MetricsAnswer>((resolve) => waiting.set(id, resolve));
    process.send?.({ type: REQUEST, id });
    try {
      const answer = await withTimeout(answered, ANSWER_WITHIN_MS);
      if (answer.text === undefined) throw new Error(answer.error ?? 'No metrics from the primary');
      return answer.text;
    } finally {
      waiting.delete(id);
    }
  };
}
