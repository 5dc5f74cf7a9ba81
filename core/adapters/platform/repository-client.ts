/**
 * Repository API (QRS) client: HTTPS with the platform client certificate, the X-Qlik-User header
 * and an xrfkey sent both as query parameter and X-Qlik-Xrfkey header. Every call is bounded by
 * `timeoutMs` (and by the caller's signal, when given); failures become the typed errors of
 * core/platform/errors.ts (platform-request.ts).
 */
import { Agent } from "node:https";
import type { Clock } from "../../ports.ts";
import type { PlatformConnectionOptions, PlatformTlsMaterial } from "./options.ts";
import { type PlatformResponse, sendPlatformRequest } from "./platform-request.ts";
import { createXrfKey } from "./xrf-key.ts";

export type RepositoryResponse = PlatformResponse;

export interface RepositoryClientOptions {
  readonly connection: PlatformConnectionOptions;
  readonly tls: PlatformTlsMaterial;
  readonly clock: Clock;
}

export interface RepositoryClient {
  /** Sends one call. Non-2xx statuses are returned, not thrown; the caller decides what they mean. */
  send(
    method: "GET" | "POST" | "DELETE",
    path: string,
    query?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<RepositoryResponse>;
  /** A GET whose answer is a file (a script log): the body is its text, unparsed. */
  sendForText(
    path: string,
    query?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<{ readonly status: number; readonly body: string }>;
  close(): void;
}

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
    method: "GET" | "POST" | "DELETE",
    path: string,
    query: Readonly<Record<string, string>> = {},
    signal?: AbortSignal,
    responseType: "json" | "text" = "json",
  ): Promise<RepositoryResponse> {
    const xrfkey = createXrfKey();
    // encodeURIComponent (not URLSearchParams) so spaces travel as %20, which QRS filters expect.
    const search = Object.entries({ ...query, xrfkey })
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join("&");
    return sendPlatformRequest({
      agent,
      host: connection.host,
      port: connection.repositoryPort,
      method,
      path: `${path}?${search}`,
      headers: {
        "X-Qlik-Xrfkey": xrfkey,
        "X-Qlik-User": connection.userHeader,
        Accept: responseType === "text" ? "*/*" : "application/json",
        ...(method === "POST" ? { "Content-Type": "application/json" } : {}),
      },
      ...(method === "POST" ? { body: "{}" } : {}),
      timeoutMs: connection.timeoutMs,
      clock,
      signal,
      where,
      call: `${method} ${path}`,
      responseType,
    });
  }

  return {
    send: (method, path, query, signal) => send(method, path, query, signal),
    async sendForText(path, query, signal) {
      const response = await send("GET", path, query, signal, "text");
      return { status: response.status, body: typeof response.body === "string" ? response.body : "" };
    },
    close: () => agent.destroy(),
  };
}
