/**
 * The one HTTPS request of the platform integration (repository, engine health check, proxy
 * sessions): a call over a caller's keep-alive Agent (which carries the client certificate),
 * bounded by a timeout on the injected Clock and, when given, by the caller's AbortSignal (a
 * poller stopping gives its calls up at once), the body capped at 16 MiB and parsed as JSON.
 * Non-2xx statuses are returned, not thrown; the caller decides what they mean. Failures to
 * connect, time out or read become the typed errors of core/platform/errors.ts, whose messages
 * name `where` and the call, never certificate or key material.
 */
import { type Agent, request } from "node:https";
import {
  PlatformCallAbortedError,
  PlatformConnectionClosedError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
} from "../../platform/index.ts";
import type { Clock } from "../../ports.ts";

export interface PlatformResponse {
  readonly status: number;
  /**
   * Parsed JSON body; undefined when the body was empty. A non-2xx answer whose body is not JSON
   * (an error page) carries its first 200 characters as a string.
   */
  readonly body: unknown;
}

export interface PlatformRequest {
  readonly agent: Agent;
  /** Host name or IP address, without brackets for IPv6. */
  readonly host: string;
  readonly port: number;
  readonly method: "GET" | "POST" | "DELETE";
  /** Path including the query string, already encoded. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as is; its Content-Length is set here. */
  readonly body?: string;
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** Gives the call up when it aborts: the request is destroyed and the call rejects at once. */
  readonly signal?: AbortSignal | undefined;
  /** Who is called, for error messages: e.g. `repository at host:4242`. */
  readonly where: string;
  /** What is called, for error messages: e.g. `GET /qrs/app` (no query: it may carry keys). */
  readonly call: string;
  /** `text`: the body is given as the text it is (a file download), not parsed; JSON by default. */
  readonly responseType?: "json" | "text";
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Sends one request and resolves with its status and parsed body. */
export function sendPlatformRequest(options: PlatformRequest): Promise<PlatformResponse> {
  const { clock, where, call, timeoutMs, signal } = options;
  const aborted = () => new PlatformCallAbortedError(`${call} to ${where} given up: the caller stopped`);
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise<PlatformResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const onAbort = (): void => {
      finish(() => reject(aborted()));
      req.destroy();
    };
    const req = request({
      agent: options.agent,
      host: options.host,
      port: options.port,
      method: options.method,
      path: options.path,
      headers:
        options.body === undefined
          ? options.headers
          : { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) },
    });
    const timer = clock.setTimeout(() => {
      finish(() =>
        reject(new PlatformTimeoutError(`${where} did not answer ${call} within ${timeoutMs} ms`)),
      );
      req.destroy();
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error: NodeJS.ErrnoException) => {
      finish(() => reject(classifyRequestError(error, where, call)));
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          finish(() =>
            reject(new PlatformResponseError(`${where} answered ${call} with a body over 16 MiB`)),
          );
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("aborted", () => {
        finish(() =>
          reject(new PlatformConnectionClosedError(`${where} closed the connection during ${call}`)),
        );
      });
      res.on("error", (error) => {
        finish(() =>
          reject(
            new PlatformConnectionClosedError(`${where} closed the connection during ${call}`, {
              cause: error,
            }),
          ),
        );
      });
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        finish(() => {
          try {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status, body: options.responseType === "text" ? text : parseBody(text, status) });
          } catch (error) {
            reject(
              new PlatformResponseError(`${where} answered ${call} with malformed JSON`, {
                status,
                cause: error,
              }),
            );
          }
        });
      });
    });
    req.end(options.body);
  });
}

function parseBody(text: string, status: number): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    // Error pages are often not JSON; the status is what matters then.
    if (status < 200 || status >= 300) return text.slice(0, 200);
    throw error;
  }
}

function classifyRequestError(error: NodeJS.ErrnoException, where: string, call: string): Error {
  if (error.code === "ECONNRESET" || error.message === "socket hang up") {
    // A platform that does not trust the client certificate drops the connection this way (TLS 1.3).
    return new PlatformConnectionClosedError(
      `${where} closed the connection before answering ${call} (check that the platform trusts the client certificate)`,
      { cause: error },
    );
  }
  // error.message carries the reason (ECONNREFUSED, certificate verification, ...) and no key material.
  return new PlatformUnreachableError(`${where} unreachable: ${error.message}`, { cause: error });
}
