/* autocannon ships no types; this is the part of its API the benchmarks use. */
declare module "autocannon" {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of after `duration`). */
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
