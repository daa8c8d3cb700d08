// Types of the part of autocannon 9 that scripts/bench/measure.mjs uses: the package ships none
// (@types/autocannon, not installed, would replace this file).
declare module 'autocannon' {
  interface RunOptions {
    /** Several URLs share the connections round-robin (connection i goes to url[i % n]). */
    url: string | string[];
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    /** Request templates in turn; `setupRequest` may rewrite each one (e.g. a fresh body). */
    requests?: { setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }[];
    /** A run before the measured one, with these options; its result is `warmup`. */
    warmup?: { connections?: number; duration?: number };
  }

  interface Stats {
    average: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p99: number;
  }

  interface RunResult {
    /** Per-request latency, milliseconds. */
    latency: Stats;
    /** Requests completed per one-second sample; `total`: all the run completed. */
    requests: Stats & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    warmup?: RunResult;
  }

  function autocannon(options: RunOptions): PromiseLike<RunResult>;
  export default autocannon;
}
