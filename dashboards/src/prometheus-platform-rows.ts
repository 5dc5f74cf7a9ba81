/**
 * The Prometheus dashboard's rows about the platform: the engine gauges of each polled server,
 * the proxy sessions of each virtual proxy, and the UDP events by source. The gauges hold the
 * last poll's values; a server whose last poll failed has no series until it answers again.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import { DataqueryBuilder, PromQueryFormat } from "@grafana/grafana-foundation-sdk/prometheus";
import type { DashboardRow } from "./dashboard-row.ts";
import { lines, stat, table } from "./panels.ts";
import { ENV, SERVER } from "./prometheus-variables.ts";

/** A range query with its legend. */
export const promql = (expr: string, legend: string): DataqueryBuilder =>
  new DataqueryBuilder().expr(expr).legendFormat(legend).range();

const gauge = (metric: string, what: string) => promql(`${metric}{${SERVER}}`, `{{server_name}} ${what}`);

export function prometheusPlatformRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Qlik Sense servers"),
      panels: [
        lines({
          title: "Engine memory",
          description: "Committed, allocated and free memory of each engine, in bytes.",
          targets: [
            gauge("steward_mem_committed", "committed"),
            gauge("steward_mem_allocated", "allocated"),
            gauge("steward_mem_free", "free"),
          ],
          unit: "bytes",
        }),
        lines({
          title: "Engine CPU",
          description: "CPU use of each engine in percent.",
          targets: [gauge("steward_cpu_total", "cpu")],
          unit: "percent",
        }),
        lines({
          title: "Engine sessions",
          description: "Active and total engine sessions.",
          targets: [gauge("steward_session_active", "active"), gauge("steward_session_total", "total")],
        }),
        lines({
          title: "Engine users",
          description: "Active and total users of each engine.",
          targets: [gauge("steward_users_active", "active"), gauge("steward_users_total", "total")],
        }),
        lines({
          title: "Apps active, loaded and in memory",
          description: "How many apps each engine has active, loaded and in memory.",
          targets: [
            gauge("steward_apps_activedocs_total", "active"),
            gauge("steward_apps_loadeddocs_total", "loaded"),
            gauge("steward_apps_inmemorydocs_total", "in memory"),
          ],
        }),
        lines({
          title: "Engine cache hit ratio",
          description: "Cache hits per lookup since the engine started, in percent.",
          targets: [
            promql(
              `100 * steward_cache_hits{${SERVER}} / steward_cache_lookups{${SERVER}}`,
              "{{server_name}}",
            ),
          ],
          unit: "percent",
        }),
        stat({
          title: "Saturated",
          description: "1 while an engine reports itself saturated at its last poll.",
          targets: [gauge("steward_cache_saturated", "")],
          width: 6,
        }),
        table({
          title: "Engine versions",
          description: "Each engine's version and start time, as labels of steward_engine_metadata.",
          targets: [promql(`steward_engine_metadata{${SERVER}}`, "").instant().format(PromQueryFormat.Table)],
          width: 18,
        }),
      ],
    },
    {
      row: new RowBuilder("User sessions and events"),
      panels: [
        lines({
          title: "Proxy sessions per virtual proxy",
          description: "Sessions of each virtual proxy at the last session poll.",
          targets: [
            promql(`steward_user_session_total{${SERVER}}`, "{{server_name}} {{user_session_virtual_proxy}}"),
          ],
          width: 12,
        }),
        lines({
          title: "Events by source, per second",
          description:
            "UDP user and log events with a recognised source, before exclusion and categorisation.",
          targets: [
            promql(
              `sum by (event_type, source) (rate(steward_events_total{${ENV}}[$__rate_interval]))`,
              "{{event_type}} {{source}}",
            ),
          ],
          width: 12,
        }),
      ],
    },
  ];
}
