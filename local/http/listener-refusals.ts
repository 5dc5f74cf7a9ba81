/**
 * What a local listener refused before any route saw it, made visible to the operator: a request
 * for a `Host` it does not answer (421), a request that did not arrive in time (408), a
 * connection over its cap, and on HTTPS a TLS handshake that failed (per OpenSSL's reason). Each is counted (`steward_http_refused_total`, http-refused-metric.ts)
 * and logged at WARN at most once a minute per reason (per Host name for the first), with how
 * many it stands for and what to change if the clients are legitimate: a refusal is never silent,
 * and a flood of them (a rebinding page polling, a port scan) writes one line a minute.
 */
import { createLogThrottle } from "../../core/logging/index.ts";
import type { HttpRefusalReason } from "../../core/monitoring/index.ts";
import type { Logger } from "../../core/ports.ts";

export interface ListenerRefusalsOptions {
  /** The listener as the log names it, e.g. `REST API`. */
  name: string;
  /** The setting a refused Host is added to, e.g. `restServer.allowedHosts`. */
  hostsSetting?: string | undefined;
  /** The setting that raises the connection cap, when operators can (`restServer.maxConnections`). */
  connectionsSetting?: string | undefined;
  logger: Logger;
  /** Counts one refusal (the scrape metric); absent: not counted. */
  count?: ((reason: HttpRefusalReason) => void) | undefined;
  /** The time limits and cap the WARNs state. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  now?: () => number;
}

export interface ListenerRefusals {
  /** A request whose `Host` names `hostName`, refused with 421. */
  host(hostHeader: string, hostName: string, ip: string): void;
  /** A request that did not arrive within the time limits: 408, its connection closed. */
  timeout(ip: string): void;
  /** A connection over the cap, closed at once. */
  connection(ip: string): void;
  /** A TLS handshake that failed for `reason` (OpenSSL's, e.g. `unsupported protocol`). */
  handshake(reason: string, ip: string): void;
}

/**
 * What a failed handshake means for the operator, by OpenSSL's reason: the usual causes are a
 * client too old for TLS 1.2, one that speaks plain HTTP to the port, and one that does not
 * trust the certificate (browsers say so with an alert before closing).
 */
export function handshakeAdvice(reason: string): string {
  if (/http request|https proxy request/.test(reason))
    return "a client spoke plain HTTP to this HTTPS listener; it must use https://";
  if (/unsupported protocol|version too low|protocol version/.test(reason))
    return "a client offered only TLS older than 1.2, which this listener refuses; update the client";
  if (
    /alert (unknown ca|bad certificate|certificate unknown|certificate expired|certificate revoked)/.test(
      reason,
    )
  )
    return "a client refused the certificate: it must be issued for the name clients use and by a CA they trust (the system's certificate store on Windows)";
  return "a TLS handshake failed";
}

/** How a refused Host is named in answers and logs: a header can be long, the line must not be. */
export function shownHost(hostHeader: string): string {
  return hostHeader.length > 100 ? `${hostHeader.slice(0, 100)}…` : hostHeader;
}

const seconds = (ms: number) => `${ms / 1000} s`;

export function createListenerRefusals(options: ListenerRefusalsOptions): ListenerRefusals {
  const { name, logger, count, connectionsSetting } = options;
  const hostsSetting = options.hostsSetting ?? "the listener's allowedHosts";
  const now = options.now ?? Date.now;
  const throttle = createLogThrottle();
  return {
    host(hostHeader, hostName, ip) {
      count?.("host");
      const refusedRequests = throttle.admit(`host:${hostName}`, now());
      if (refusedRequests === undefined) return;
      logger.warn(
        `${name}: requests naming a Host this listener does not answer are refused with 421 (a guard against DNS rebinding); if clients reach it by this name, add ${shownHost(hostName)} to ${hostsSetting}`,
        { host: shownHost(hostHeader), ip, refusedRequests },
      );
    },
    timeout(ip) {
      count?.("timeout");
      const closedConnections = throttle.admit("timeout", now());
      if (closedConnections === undefined) return;
      logger.warn(
        `${name}: closed connections whose request did not arrive in time (408): the headers must arrive within ${seconds(options.headersTimeoutMs)} and the whole request within ${seconds(options.requestTimeoutMs)}`,
        { ip, closedConnections },
      );
    },
    handshake(reason, ip) {
      count?.("tls");
      const failedHandshakes = throttle.admit(`tls:${reason}`, now());
      if (failedHandshakes === undefined) return;
      logger.warn(`${name}: ${handshakeAdvice(reason)} (${reason})`, { ip, failedHandshakes });
    },
    connection(ip) {
      count?.("connections");
      const refusedConnections = throttle.admit("connections", now());
      if (refusedConnections === undefined) return;
      logger.warn(
        `${name}: refused connections over its cap of ${options.maxConnections} open connections${connectionsSetting === undefined ? "" : `; raise ${connectionsSetting} if that many clients are expected`}`,
        { ip, refusedConnections },
      );
    },
  };
}
