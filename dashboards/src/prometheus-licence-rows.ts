/**
 * The Prometheus dashboard's licence row, from the licence monitor's `steward_license_*` gauges:
 * access licences per type, analyzer capacity minutes, the server licence's days until expiry,
 * and what the licence release did. The gauges hold the last run's values; a count the platform
 * does not give has no series. The access licence gauges of a Qlik Cloud tenant carry its
 * `tenant` label, the site's none: the tenant variable narrows them, and "All" shows both, each
 * its own series (a tenant's time-based analyzer allotment, `analyzer_time`, beside the site's
 * analyzer capacity); the server licence and the release are the site's alone.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { lines, stat } from "./panels.ts";
import { promql } from "./prometheus-platform-rows.ts";
import { ENV, TENANT } from "./prometheus-variables.ts";

const SEATS = `${TENANT}, license_type=~"professional|analyzer"`;

export function prometheusLicenceRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Licences"),
      panels: [
        stat({
          title: "Access licences available",
          description:
            "Professional and analyzer access licences still available at the last licence monitor run.",
          targets: [promql(`steward_license_access_available{${SEATS}}`, "{{license_type}} {{tenant}}")],
          width: 6,
        }),
        lines({
          title: "Access licences allocated and used",
          description:
            "Professional and analyzer access licences allocated and in use at each licence monitor run.",
          targets: [
            promql(`steward_license_access_allocated{${SEATS}}`, "{{license_type}} allocated {{tenant}}"),
            promql(`steward_license_access_used{${SEATS}}`, "{{license_type}} used {{tenant}}"),
          ],
          width: 10,
        }),
        lines({
          title: "Analyzer capacity minutes",
          description:
            "Analyzer capacity minutes allocated and used at each licence monitor run, and a Qlik Cloud tenant's analyzer time minutes (license_type analyzer_time), its total and used.",
          targets: [
            promql(`steward_license_access_allocated_minutes{${TENANT}}`, "allocated {{tenant}}"),
            promql(`steward_license_access_used_minutes{${TENANT}}`, "used {{tenant}}"),
            promql(
              `steward_license_access_total{${TENANT}, license_type="analyzer_time"}`,
              "allocated {{tenant}}",
            ),
            promql(`steward_license_access_used{${TENANT}, license_type="analyzer_time"}`, "used {{tenant}}"),
          ],
          width: 8,
        }),
        stat({
          title: "Server licence days until expiry",
          description:
            "Days until the server licence's last valid day (0 on it, negative after it); the rule StewardServerLicenceExpiring warns inside 30 days.",
          targets: [promql(`steward_license_server_days_until_expiry{${ENV}}`, "days")],
          unit: "d",
          width: 8,
          height: 5,
        }),
        lines({
          title: "Access licences released or kept",
          description:
            "Access licences the release looked at in each interval, by type and outcome (would_release: a dry run).",
          targets: [
            promql(
              `sum by (license_type, outcome) (increase(steward_license_releases_total{${ENV}}[$__rate_interval]))`,
              "{{license_type}} {{outcome}}",
            ),
          ],
          width: 16,
          height: 5,
        }),
      ],
    },
  ];
}
