/**
 * The HTTP calls the InfluxDB adapters share: one request, errors as TimeseriesWriteError.
 *
 * node:http rather than fetch: fetch copies every request body (a string into a new UTF-8
 * buffer, a Uint8Array into a new ArrayBuffer), so each write of a 1,000-point batch left about
 * 1.5 MB of garbage outside the JS heap, freed only at V8's next full collection; node:http
 * sends the caller's bytes as they are (measured: 20 writes of 2 MB left 20–22 MB of array
 * buffers behind with fetch, none with node:http). Connections are kept alive by Node's global
 * agent, or over HTTPS by the connection's own agent, which holds the CA and whether the server's
 * certificate is checked. A body given as bytes is read until the returned promise settles, and
 * not after.
 *
 * HTTPS (`timeseriesdbConfig.tls`): without it, InfluxDB 1.x's Basic credentials and the 2.x and
 * 3 tokens cross the network in clear, and a database that takes only HTTPS (InfluxDB Cloud, most
 * InfluxDB 3 set-ups) cannot be reached. The certificate is checked by default, against the
 * system's CAs or the one `caFile` names.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { resolve } from "node:path";
import type { TimeseriesdbConfig } from "../../config/index.ts";
import { TimeseriesWriteError } from "../../destinations/index.ts";

export interface InfluxRequest {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  /** The HTTPS connection's agent (influxConnection); absent for plain http. */
  agent?: HttpsAgent | undefined;
}

/** Where the server is: its base URL and, over HTTPS, the agent that checks its certificate. */
export interface InfluxConnection {
  readonly base: string;
  readonly agent?: HttpsAgent | undefined;
}

/** `timeseriesdbConfig.tls.caFile` cannot be read. The message names the setting and path only. */
export class TimeseriesTlsFileError extends Error {
  override name = "TimeseriesTlsFileError";
}

/**
 * The connection `timeseriesdbConfig` describes. The CA file is read once, here, synchronously
 * (a few kB; the Lambda builds its destinations while its module loads); a relative path
 * resolves from `cwd`. Throws TimeseriesTlsFileError when it cannot be read.
 */
export function influxConnection(config: TimeseriesdbConfig, cwd: string = process.cwd()): InfluxConnection {
  const host = config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host;
  const { tls } = config;
  if (!tls.enable) return { base: `http://${host}:${config.port}` };
  let ca: Buffer | undefined;
  if (tls.caFile !== "") {
    const file = resolve(cwd, tls.caFile);
    try {
      ca = readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "read failed";
      throw new TimeseriesTlsFileError(
        `Service.timeseriesdbConfig.tls.caFile: cannot read file ${file} (${code})`,
        {
          cause: error,
        },
      );
    }
  }
  // As Node's global agent: kept alive, idle sockets closed after 5 s and never holding the process.
  const agent = new HttpsAgent({
    keepAlive: true,
    scheduling: "lifo",
    timeout: 5000,
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(ca === undefined ? {} : { ca }),
  });
  return { base: `https://${host}:${config.port}`, agent };
}

/** Performs the request; resolves with the response text for 2xx, throws otherwise. */
export async function influxRequest(request: InfluxRequest): Promise<{ status: number; text: string }> {
  let answer: { status: number; text: string };
  try {
    answer = await send(request);
  } catch (error) {
    throw new TimeseriesWriteError(
      `${request.method} ${describe(request.url)} failed: ${noAnswer(error)}`,
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
    const send = request.url.protocol === "https:" ? httpsRequest : httpRequest;
    const outgoing = send(request.url, {
      method: request.method,
      headers,
      agent: request.agent,
      insecureHTTPParser: true,
    });
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

/** Codes of a server certificate that Node's TLS refused. */
const CERTIFICATE_REFUSED = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Why a request got no answer, in words an operator can act on (the cause carries the rest). */
function noAnswer(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code !== undefined && CERTIFICATE_REFUSED.has(code)) {
    return `the server's certificate was refused (${message}); trust its CA with timeseriesdbConfig.tls.caFile`;
  }
  if (code === "EPROTO" || code === "ERR_SSL_WRONG_VERSION_NUMBER") {
    // OpenSSL's own message runs over lines; its reason says it in words (`wrong version number`).
    const reason = (error as { reason?: unknown }).reason;
    return `no TLS handshake (${typeof reason === "string" ? reason : message.trim()}); is the server serving HTTPS on this port?`;
  }
  return "no answer";
}

/** `30d`, `1h30m`, `INF`: the InfluxDB duration literal, validated before it reaches a query. */
export function isInfluxDuration(value: string): boolean {
  return /^(inf|(\d+(ns|us|\u00b5s|u|ms|s|m|h|d|w))+)$/i.test(value);
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
  for (const match of value.matchAll(/(\d+)(ns|us|\u00b5s|u|ms|s|m|h|d|w)/g)) {
    total += Number(match[1]) * (factors[match[2] ?? "s"] ?? 1);
  }
  return Math.round(total);
}

// Query strings, paths and secrets stay out of error messages: only origin and path.
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
