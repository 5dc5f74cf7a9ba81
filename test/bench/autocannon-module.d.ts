/* autocannon ships no types; this is the part of its API the benchmarks use. */
declare module "autocannon" {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface AutocannonResult {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    "2xx": number;
  }
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
