/**
 * Repository API (QRS) client: HTTPS with the platform client certificate, the X-Qlik-User header
 * and an xrfkey sent both as query parameter and X-Qlik-Xrfkey header. Every call is bounded by
 * `timeoutMs`; failures become the typed errors of core/platform/errors.ts.
 */
import { Agent, request } from "node:https";
import {
  PlatformConnectionClosedError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
} from "../../platform/errors.ts";
import type { Clock } from "../../ports.ts";
import type { PlatformConnectionOptions, PlatformTlsMaterial } from "./options.ts";
import { createXrfKey } from "./xrf-key.ts";

export interface RepositoryResponse {
  readonly status: number;
  /** Parsed JSON body; undefined when the body was empty. */
  readonly body: unknown;
}

export interface RepositoryClientOptions {
  readonly connection: PlatformConnectionOptions;
  readonly tls: PlatformTlsMaterial;
  readonly clock: Clock;
}

export interface RepositoryClient {
  /** Sends one call. Non-2xx statuses are returned, not thrown; the caller decides what they mean. */
  send(
    method: "GET" | "POST",
    path: string,
    query?: Readonly<Record<string, string>>,
  ): Promise<RepositoryResponse>;
  close(): void;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function createRepositoryClient(options: RepositoryClientOptions): RepositoryClient {
  const { connection, tls, clock } = options;
  const agent = new Agent({
    cert: tls.cert,
    key: tls.key,
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    rejectUnauthorized: connection.rejectUnauthorized,
    keepAlive: true,
    maxSockets: 8,
  });
  const where = `repository at ${connection.host}:${connection.repositoryPort}`;

  function send(
    method: "GET" | "POST",
    path: string,
    query: Readonly<Record<string, string>> = {},
  ): Promise<RepositoryResponse> {
    const xrfkey = createXrfKey();
    // encodeURIComponent (not URLSearchParams) so spaces travel as %20, which QRS filters expect.
    const search = Object.entries({ ...query, xrfkey })
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join("&");
    const call = `${method} ${path}`;
    return new Promise<RepositoryResponse>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        outcome();
      };
      const req = request({
        agent,
        host: connection.host,
        port: connection.repositoryPort,
        method,
        path: `${path}?${search}`,
        headers: {
          "X-Qlik-Xrfkey": xrfkey,
          "X-Qlik-User": connection.userHeader,
          Accept: "application/json",
          ...(method === "POST" ? { "Content-Type": "application/json", "Content-Length": "2" } : {}),
        },
      });
      const timer = clock.setTimeout(() => {
        finish(() =>
          reject(
            new PlatformTimeoutError(`${where} did not answer ${call} within ${connection.timeoutMs} ms`),
          ),
        );
        req.destroy();
      }, connection.timeoutMs);
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
          const text = Buffer.concat(chunks).toString("utf8");
          if (text.trim() === "") {
            finish(() => resolve({ status, body: undefined }));
            return;
          }
          try {
            const body: unknown = JSON.parse(text);
            finish(() => resolve({ status, body }));
          } catch (error) {
            if (status < 200 || status >= 300) {
              // Error pages are often not JSON; the status is what matters then.
              finish(() => resolve({ status, body: text.slice(0, 200) }));
            } else {
              finish(() =>
                reject(
                  new PlatformResponseError(`${where} answered ${call} with malformed JSON`, {
                    status,
                    cause: error,
                  }),
                ),
              );
            }
          }
        });
      });
      req.end(method === "POST" ? "{}" : undefined);
    });
  }

  return {
    send,
    close: () => agent.destroy(),
  };
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
