// The part of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** ms between samples (default 1000); a timed run ends at the first sample after its duration */
    sampleInt?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram & { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    duration: number;
    '2xx': number;
  }
  function autocannon(opts: Options, cb: (err: Error | null, result: Result) => void): EventEmitter;
  export default autocannon;
  export type { Options, Result };
}
