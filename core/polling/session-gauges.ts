/**
 * The scrape endpoint's session gauge: `steward_user_session_total`, one series per server ×
 * virtual proxy, labelled with the server tags (scrape-labels.ts) + `user_session_virtual_proxy` +
 * `user_session_host`, valued from the latest poll's session count (everyone: `excludeUser` does
 * not reduce counts), read only when the gauge is rendered: at a scrape, or with `onChange` (the
 * poller's round end) once per change. Butler SOS's `service` label is not declared: it never had a
 * value, and no label is declared without one.
 */
import type { MetricsRegistry } from "../ports.ts";
import { pickLabels } from "./scrape-labels.ts";
import type { ServerTags } from "./server-tags.ts";

/** A virtual proxy's latest session count and its session tags (server-tags.ts `sessionTags`). */
export interface SessionReading {
  readonly tags: ServerTags;
  readonly sessionCount: number;
}

/**
 * `labelNames`: scrape-labels.ts `serverLabelNames`; the two session labels are added here.
 * `onChange`, when given, subscribes to the moments `latest` changes (MetricSpec `onChange`).
 */
export function declareSessionGauges(
  registry: MetricsRegistry,
  latest: () => Iterable<SessionReading>,
  labelNames: readonly string[],
  onChange?: (listener: () => void) => void,
): void {
  const names = [...new Set([...labelNames, "user_session_virtual_proxy", "user_session_host"])];
  registry.gauge({
    name: "steward_user_session_total",
    help: "Proxy sessions of the virtual proxy at the last poll",
    labelNames: names,
    ...(onChange === undefined ? {} : { onChange }),
    collect: () =>
      Array.from(latest(), ({ tags, sessionCount }) => ({
        labels: pickLabels(tags, names),
        value: sessionCount,
      })),
  });
}
