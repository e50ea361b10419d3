// The part of autocannon 8's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    /** Each connection sends these in turn; setupRequest may change one before each time it is sent. */
    requests?: readonly { setupRequest?: (request: SentRequest) => SentRequest }[];
  }
  interface SentRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
