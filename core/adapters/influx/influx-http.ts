/** The HTTP calls the InfluxDB adapters share: one request, errors as TimeseriesWriteError. */
import { TimeseriesWriteError } from "../../destinations/timeseries-write-error.ts";

export interface InfluxRequest {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** Performs the request; resolves with the response text for 2xx, throws otherwise. */
export async function influxRequest(request: InfluxRequest): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (error) {
    throw new TimeseriesWriteError(
      `${request.method} ${describe(request.url)} failed: no answer`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    throw new TimeseriesWriteError(
      `${request.method} ${describe(request.url)} answered ${response.status}: ${text.slice(0, 500)}`,
      response.status,
    );
  }
  return { status: response.status, text };
}

export function baseUrl(host: string, port: number): string {
  // The replaced system always used plain http to InfluxDB; so do we (reference §4.2).
  return `http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;
}

/** `30d`, `1h30m`, `INF`: the InfluxDB duration literal, validated before it reaches a query. */
export function isInfluxDuration(value: string): boolean {
  return /^(inf|(\d+(ns|us|µs|u|ms|s|m|h|d|w))+)$/i.test(value);
}

/** Seconds of an InfluxDB duration literal; 0 for `INF` or an empty value (keep forever). */
export function durationSeconds(value: string): number {
  if (value === "" || /^inf$/i.test(value) || value === "0") return 0;
  const factors: Record<string, number> = {
    ns: 1e-9,
    us: 1e-6,
    µs: 1e-6,
    u: 1e-6,
    ms: 1e-3,
    s: 1,
    m: 60,
    h: 3600,
    d: 86400,
    w: 604800,
  };
  let total = 0;
  for (const match of value.matchAll(/(\d+)(ns|us|µs|u|ms|s|m|h|d|w)/g)) {
    total += Number(match[1]) * (factors[match[2] ?? "s"] ?? 1);
  }
  return Math.round(total);
}

// Query strings, paths and secrets stay out of error messages: only origin and path.
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
