/**
 * The Prometheus dashboard's reload-task row: the task events Steward received, by kind and
 * what became of them (processed, duplicate, ...), and the alerts each destination sent, failed
 * to send or held back by its rate limit. Shown as increases per interval; the counters restart
 * from zero when Steward does.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { bars } from "./panels.ts";
import { promql } from "./prometheus-platform-rows.ts";
import { ENV } from "./prometheus-variables.ts";

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
            promql(increase(`steward_task_events_total{${ENV}}`, "kind, outcome"), "{{kind}} {{outcome}}"),
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
      ],
    },
  ];
}
