/**
 * The HTTP calls the InfluxDB adapters share: one request, errors as TimeseriesWriteError.
 *
 * node:http rather than fetch: fetch copies every request body (a string into a new UTF-8
 * buffer, a Uint8Array into a new ArrayBuffer), so each write of a 1,000-point batch left about
 * 1.5 MB of garbage outside the JS heap, freed only at V8's next full collection; node:http
 * sends the caller's bytes as they are (measured: 20 writes of 2 MB left 20–22 MB of array
 * buffers behind with fetch, none with node:http). Connections are kept alive by Node's global
 * agent. A body given as bytes is read until the returned promise settles, and not after.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { TimeseriesWriteError } from "../../destinations/timeseries-write-error.ts";

export interface InfluxRequest {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
}

/** Performs the request; resolves with the response text for 2xx, throws otherwise. */
export async function influxRequest(request: InfluxRequest): Promise<{ status: number; text: string }> {
  let answer: { status: number; text: string };
  try {
    answer = await send(request);
  } catch (error) {
    throw new TimeseriesWriteError(
      `${request.method} ${describe(request.url)} failed: no answer`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const { status, text } = answer;
  if (status < 200 || status > 299) {
    throw new TimeseriesWriteError(
      `${request.method} ${describe(request.url)} answered ${status}: ${text.slice(0, 500)}`,
      status,
      { answer: text },
    );
  }
  return answer;
}

class RequestTimeoutError extends Error {
  override name = "RequestTimeoutError";
}

/**
 * One request and its whole answer within `timeoutMs` (as fetch with AbortSignal.timeout). It
 * settles only once the request is closed, so the body bytes are no longer read after it: a
 * server that answers before reading the whole body does not leave a write of them running.
 */
function send(request: InfluxRequest): Promise<{ status: number; text: string }> {
  const { body } = request;
  const headers = { ...request.headers };
  if (request.method === "POST" || body !== undefined) {
    headers["Content-Length"] = String(
      typeof body === "string" ? Buffer.byteLength(body) : (body?.byteLength ?? 0),
    );
  }
  return new Promise((resolve, reject) => {
    let answer: { status: number; text: string } | undefined;
    let failure: unknown;
    // InfluxDB names a line it cannot parse in its X-Influxdb-Error header, as it was sent: a
    // control character in an audit event's text (NUL, ESC) then makes the header one Node's
    // strict parser rejects, the refusal read as no answer, and the batch retried for ever. The
    // lenient parser reads such a header; it is the configured database's answer, read here only.
    const outgoing = httpRequest(request.url, { method: request.method, headers, insecureHTTPParser: true });
    const timer = setTimeout(() => {
      outgoing.destroy(new RequestTimeoutError(`no complete answer within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    timer.unref();
    outgoing.on("response", (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        answer = { status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") };
      });
      response.on("error", (error) => {
        failure ??= error;
      });
    });
    outgoing.on("error", (error) => {
      failure ??= error;
    });
    outgoing.on("close", () => {
      clearTimeout(timer);
      if (answer !== undefined) resolve(answer);
      else reject(failure ?? new Error("the connection closed before the answer was complete"));
    });
    outgoing.end(body);
  });
}

export function baseUrl(host: string, port: number): string {
  // Butler SOS always used plain http to InfluxDB; so do we.
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
