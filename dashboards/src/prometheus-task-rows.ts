/**
 * The Prometheus dashboard's reload-task row: the task events Steward received, by kind and
 * what became of them (processed, duplicate, ...), and the alerts each destination sent, failed
 * to send or held back by its rate limit; and the Qlik Cloud tenants' runs by tenant, source
 * (webhook, poll) and outcome, with how far behind each tenant's polling has read. Shown as
 * increases per interval; the counters restart from zero when Steward does. The tenant variable
 * narrows the task events and the tenants' panels: the site's task events have no `tenant` label,
 * so "All" shows them, and choosing tenants shows theirs alone. The alerts carry no tenant (their
 * `kind` tells a tenant's, qlikCloudReload*, from the site's), so that panel shows them all.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { bars, lines } from "./panels.ts";
import { promql } from "./prometheus-platform-rows.ts";
import { ENV, TENANT } from "./prometheus-variables.ts";

const increase = (selector: string, by: string) => `sum by (${by}) (increase(${selector}[$__rate_interval]))`;

export function prometheusTaskRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Reload tasks"),
      panels: [
        bars({
          title: "Reload-task events, by kind and outcome",
          description:
            "Task events per interval (steward_task_events_total): processed, duplicate (the same execution again), or dropped with a reason.",
          targets: [
            promql(increase(`steward_task_events_total{${TENANT}}`, "kind, outcome"), "{{kind}} {{outcome}}"),
          ],
          width: 12,
        }),
        bars({
          title: "Alerts, by destination and outcome",
          description:
            "Alerts per interval (steward_alerts_total): sent, failed (the status page gives the last error), suppressed by the destination's rate limit, skipped.",
          targets: [
            promql(
              increase(`steward_alerts_total{${ENV}}`, "destination, outcome"),
              "{{destination}} {{outcome}}",
            ),
          ],
          width: 12,
        }),
        bars({
          title: "Qlik Cloud runs, by tenant and outcome",
          description:
            "Each tenant's reload runs and webhook deliveries per interval (steward_cloud_events_total), by source (webhook, poll) and outcome: processed, duplicate (taken before, by the other way in), bad_signature, unknown_type, failed.",
          targets: [
            promql(
              increase(`steward_cloud_events_total{${TENANT}}`, "tenant, source, outcome"),
              "{{tenant}} {{source}} {{outcome}}",
            ),
          ],
          width: 12,
        }),
        lines({
          title: "Qlik Cloud polling lag, by tenant",
          description:
            "How far behind now each tenant's polling has read (steward_cloud_cursor_lag_seconds, inputs reloads and audits): about the poll interval plus two minutes while polling works; it grows while a tenant cannot be polled (rule StewardQlikCloudPollingBehind).",
          targets: [promql(`steward_cloud_cursor_lag_seconds{${TENANT}}`, "{{tenant}} {{input}}")],
          unit: "s",
          width: 12,
        }),
      ],
    },
  ];
}
