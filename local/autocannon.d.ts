// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram { average: number; p50: number; p90: number; p99: number; max: number; total: number }
  interface RawRequest { method?: string; path?: string; headers?: Record<string, string>; body?: string }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    requests?: Array<RawRequest & { setupRequest?: (request: RawRequest) => RawRequest }>;
  }
  interface Result {
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
