// The part of autocannon's API the benchmark and the load test use (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  /** Per connection; reset each time the connection starts the `requests` list again. */
  export type RequestContext = Record<string, unknown>;
  export interface RequestTemplate extends RawRequest {
    setupRequest?: (request: RawRequest, context: RequestContext) => RawRequest;
    /** Called with the answer to the request this connection built last. */
    onResponse?: (status: number, body: string, context: RequestContext) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    /** Seconds before a request counts as timed out (default 10). */
    timeout?: number;
    requests?: RequestTemplate[];
  }
  export interface Result {
    latency: Histogram;
    requests: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
