/**
 * `steward_http_refused_total{listener, reason}`: what a local HTTP listener refused before any
 * route saw it, by listener (`ingest`, `rest`, `config_ui`, `scrape`, `health`) and reason:
 * `host` (a `Host` the listener does not answer, 421), `timeout` (a request that did not arrive
 * in time, 408 and the connection closed), `connections` (a connection over the listener's
 * cap, closed at once) and `tls` (a TLS handshake the client failed on an HTTPS listener: TLS
 * older than 1.2, plain HTTP to the port, the certificate refused). Declared once in the process's metrics registry, since the listeners
 * share the name; a listener has a sample per reason from the moment it asks for its counter (0
 * until its first refusal), and a listener that does not run has none.
 */
import type { MetricsRegistry } from "../ports.ts";

export const HTTP_REFUSED_METRIC = "steward_http_refused_total";

export const HTTP_REFUSAL_REASONS = ["host", "timeout", "connections", "tls"] as const;
export type HttpRefusalReason = (typeof HTTP_REFUSAL_REASONS)[number];

export interface HttpRefusedMetric {
  /** The counting function of `listener`; its samples appear from now on. */
  counter(listener: string): (reason: HttpRefusalReason) => void;
}

export function declareHttpRefusedMetric(registry: MetricsRegistry): HttpRefusedMetric {
  const counts = new Map<string, Record<HttpRefusalReason, number>>();
  registry.counter({
    name: HTTP_REFUSED_METRIC,
    help: "HTTP requests and connections a listener refused before answering since start (Host not answered, too slow, over the connection cap, TLS handshake failed), by listener and reason",
    labelNames: ["listener", "reason"],
    collect: () =>
      [...counts].flatMap(([listener, byReason]) =>
        HTTP_REFUSAL_REASONS.map((reason) => ({ labels: { listener, reason }, value: byReason[reason] })),
      ),
  });
  return {
    counter(listener) {
      const byReason = counts.get(listener) ?? { host: 0, timeout: 0, connections: 0, tls: 0 };
      counts.set(listener, byReason);
      return (reason) => {
        byReason[reason] += 1;
      };
    },
  };
}
