/* autocannon ships no types; this is the part of its API the benchmarks use. */
declare module "autocannon" {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** `context` is the connection's, kept from a request to its answer. */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests in all, instead of a duration; every one is answered before the run ends. */
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
  }
  interface AutocannonResult {
    requests: { average: number; mean: number; total: number };
    latency: { p50: number; p99: number; average: number };
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
