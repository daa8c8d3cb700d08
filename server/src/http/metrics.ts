import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { clusterMetrics } from './clusterMetrics';
import { unauthenticated } from './errors';
import { bearerToken } from './requestContext';
import { withTimeout } from './timeout';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics: register gauges here that GET /metrics fills at each scrape. */
    metrics: Metrics;
  }
}

type RequestLabel = 'method' | 'route' | 'status_code';

/** The route label of answers no route matched (404s, the SPA shell), however many junk URLs. */
export const UNMATCHED_ROUTE = 'unmatched';

/** A collector slower than this leaves its gauge empty for the scrape instead of failing it. */
const COLLECT_TIMEOUT_MS = 5_000;

/** What a collector calls once per series: with labels when the gauge has label names. */
export type GaugeSetter<L extends string> = [L] extends [never]
  ? (value: number) => void
  : (labels: Record<L, string | number>, value: number) => void;

export interface GaugeSpec<L extends string> {
  /** Prometheus name, e.g. `portal_jobs_queued`; unique within the app. */
  name: string;
  help: string;
  labelNames?: readonly L[];
  /**
   * Runs at each scrape (e.g. one grouped query) and sets every current series. Series it does
   * not set are gone from that scrape; if it throws or times out, the gauge is empty and the
   * error is logged, while the rest of the scrape still answers.
   */
  collect(set: GaugeSetter<L>): Promise<void>;
}

/** A counter this process adds to as things happen (summed over the processes of a cluster). */
export interface CounterSpec<L extends string> {
  /** Prometheus name, ending in `_total`; unique within the app. */
  name: string;
  help: string;
  labelNames: readonly L[];
}

export interface Metrics {
  gauge<L extends string = never>(spec: GaugeSpec<L>): void;
  /** Registers a counter; answers how to add one to a series. */
  counter<L extends string>(spec: CounterSpec<L>): (labels: Record<L, string>) => void;
}

// prom-client's default metrics describe the process, not an app, and start an event-loop
// monitor and a GC observer that are never stopped: one set per process, shared by every app.
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

function gaugeOn<L extends string>(
  registry: Registry,
  log: FastifyBaseLogger,
  spec: GaugeSpec<L>,
): void {
  const gauge = new Gauge<L>({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [registry],
    // Gauges read the shared database: every process has the same values, not a share of them.
    aggregator: 'first',
    // Values are gathered first and swapped in at once, so two overlapping scrapes (e.g. two
    // Prometheus servers) each see a complete set and a late collector cannot write afterwards.
    collect: async () => {
      const series: [Partial<Record<L, string | number>>, number][] = [];
      const record = (labelsOrValue: Record<L, string | number> | number, value?: number) => {
        if (typeof labelsOrValue === 'number') series.push([{}, labelsOrValue]);
        else series.push([labelsOrValue, value ?? Number.NaN]);
      };
      try {
        await withTimeout(spec.collect(record as GaugeSetter<L>), COLLECT_TIMEOUT_MS);
      } catch (err) {
        log.warn({ err, metric: spec.name }, 'Metric collector failed; its gauge is empty');
        series.length = 0;
      }
      // reset() leaves a label-less gauge at 0, which would read as a real value: drop it too.
      gauge.reset();
      gauge.remove({});
      for (const [labels, value] of series) gauge.set(labels, value);
    },
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Request metrics by route template, the app's `metrics` decoration (gauges that other parts
 * register), and GET /metrics in the Prometheus text format, which requires
 * `Authorization: Bearer <token>` when a token is set.
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { token: string | undefined },
): void {
  // Per app, so several apps in one process (tests) keep their own counts.
  const registry = new Registry();
  // Tallied here and handed to prom-client at each scrape: its inc() sorts, hashes and checks
  // the labels on every request (profile).
  const answered = new Map<string, { labels: Record<RequestLabel, string | number>; n: number }>();
  new Counter<RequestLabel>({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, n } of answered.values()) this.inc(labels, n);
    },
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by method and route template.',
    labelNames: ['method', 'route'],
    registers: [registry],
  });

  const ofAllProcesses = clusterMetrics([processMetrics(), registry]);

  const metrics: Metrics = {
    gauge: (spec) => gaugeOn(registry, app.log, spec),
    counter: (spec) => {
      const counter = new Counter({
        ...spec,
        labelNames: [...spec.labelNames],
        registers: [registry],
      });
      return (labels) => counter.inc(labels);
    },
  };
  app.decorate('metrics', metrics);

  // The route template (`/api/…/:id`), never the raw URL: ids and junk paths would make a new
  // series each. Callback style: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    const key = `${request.method} ${reply.statusCode} ${route}`;
    const tally = answered.get(key);
    if (tally) tally.n += 1;
    else {
      const labels = { method: request.method, route, status_code: reply.statusCode };
      answered.set(key, { labels, n: 1 });
    }
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  const expected = options.token === undefined ? undefined : sha256(options.token);
  // `warn`: keeps the scrapes out of the log.
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (expected) {
      // Equal-length digests: the comparison time says nothing about the token.
      const given = bearerToken(request);
      if (given === null || !timingSafeEqual(sha256(given), expected)) {
        void reply.header('www-authenticate', 'Bearer');
        throw unauthenticated();
      }
    }
    if (ofAllProcesses) {
      void reply.header('cache-control', 'no-store').type(Registry.PROMETHEUS_CONTENT_TYPE);
      return ofAllProcesses();
    }
    // Merged per scrape, so gauges registered after the app was built are included.
    const merged = Registry.merge([processMetrics(), registry]);
    void reply.header('cache-control', 'no-store').type(merged.contentType);
    return merged.metrics();
  });
}
