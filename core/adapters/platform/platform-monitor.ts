/**
 * The PlatformMonitor adapter: the engine health check and the proxy's session list over HTTPS
 * with the `cert.*` client certificate, taken from certificate-files.ts at every call (so a
 * certificate changed on disk is used from the next check on) through one keep-alive agent with
 * one connection per server port by default (rotating-agent.ts): a poller calling 200 servers
 * reuses connections, and a server whose health and sessions are asked for at the same moment
 * on one port answers them one after the other on one connection (each idle TLS connection costs
 * about 130 KB here, and as much on the server). Answers are checked by the pure readers of
 * core/platform/. `ready()` rejects while a certificate file is gone, so pollers skip the round.
 */

import {
  PlatformResponseError,
  PlatformUnreachableError,
  type ResponseContext,
  readEngineHealth,
  readProxySessions,
  virtualProxyPrefix,
} from "../../platform/index.ts";
import type { Clock, PlatformMonitor } from "../../ports.ts";
import type { CertificateFiles } from "./certificate-files.ts";
import { type PlatformResponse, sendPlatformRequest } from "./platform-request.ts";
import { createRotatingAgent } from "./rotating-agent.ts";
import { createXrfKey } from "./xrf-key.ts";

export interface PlatformMonitorOptions {
  readonly certificates: CertificateFiles;
  /** `serversToMonitor.rejectUnauthorized`. */
  readonly rejectUnauthorized: boolean;
  /** Per call; 5000 ms by default, as in Butler SOS. */
  readonly timeoutMs?: number;
  /** Connections per `host:port`; 1 by default. */
  readonly maxSocketsPerHost?: number;
  /** How long an idle connection stays open; by default until the server closes it. */
  readonly idleSocketMs?: number;
  readonly clock: Clock;
}

/** `host:port` (IPv6 in brackets) as host and port; nothing else may be in it. */
function splitHostPort(hostPort: string): { host: string; port: number } {
  let url: URL | undefined;
  try {
    url = new URL(`https://${hostPort}`);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.username !== "" ||
    url.hash !== ""
  ) {
    throw new PlatformUnreachableError(`${JSON.stringify(hostPort)} is not a host:port`);
  }
  return { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: url.port === "" ? 443 : Number(url.port) };
}

export function createPlatformMonitor(options: PlatformMonitorOptions): PlatformMonitor {
  const { certificates, clock } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  const agents = createRotatingAgent({
    rejectUnauthorized: options.rejectUnauthorized,
    maxSocketsPerHost: options.maxSocketsPerHost ?? 1,
    ...(options.idleSocketMs === undefined ? {} : { idleSocketMs: options.idleSocketMs }),
  });
  let closed = false;

  async function get(
    hostPort: string,
    path: string,
    headers: Readonly<Record<string, string>>,
    context: Omit<ResponseContext, "status">,
    signal: AbortSignal | undefined,
  ): Promise<PlatformResponse> {
    if (closed) throw new PlatformUnreachableError(`${context.where}: the platform monitor is closed`);
    const { host, port } = splitHostPort(hostPort);
    const lease = agents.lease(await certificates.current());
    try {
      const response = await sendPlatformRequest({
        agent: lease.agent,
        host,
        port,
        method: "GET",
        path,
        headers,
        timeoutMs,
        clock,
        signal,
        ...context,
      });
      if (response.status < 200 || response.status >= 300) {
        const detail = typeof response.body === "string" && response.body !== "" ? `: ${response.body}` : "";
        throw new PlatformResponseError(
          `${context.where} answered ${context.call} with HTTP ${response.status}${detail}`,
          { status: response.status },
        );
      }
      return response;
    } finally {
      lease.release();
    }
  }

  return {
    async engineHealth(target, signal) {
      const context = { where: `engine health check at ${target.host}`, call: "GET /engine/healthcheck" };
      const response = await get(
        target.host,
        "/engine/healthcheck",
        { "Cache-Control": "no-cache", "Content-Type": "application/json", ...target.headers },
        context,
        signal,
      );
      return readEngineHealth(response.body, { ...context, status: response.status });
    },

    async proxySessions(sessionHost, virtualProxy, signal) {
      const prefix = virtualProxyPrefix(virtualProxy);
      const xrfkey = createXrfKey();
      const context = { where: `proxy at ${sessionHost}`, call: `GET /qps${prefix}/session` };
      // Per-server headers are not sent here (Butler SOS sends them with the health check only).
      // XVirtualProxy carries the prefix as it is in the path: empty for the root proxy.
      const response = await get(
        sessionHost,
        `/qps${prefix}/session?Xrfkey=${xrfkey}`,
        {
          "X-Qlik-Xrfkey": xrfkey,
          XVirtualProxy: prefix,
          "Cache-Control": "no-cache",
          "Content-Type": "application/json",
        },
        context,
        signal,
      );
      return readProxySessions(response.body, { ...context, status: response.status });
    },

    async ready() {
      await certificates.current();
    },

    close() {
      closed = true;
      agents.destroy();
    },
  };
}
