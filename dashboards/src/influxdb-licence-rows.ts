/**
 * The InfluxDB dashboard's licence row, from what the licence monitor writes: access licences per
 * type (`qlik_sense_license`, tag `license_type`), the server licence's expiry
 * (`qlik_sense_server_license`), the platform's version (`qlik_sense_version`) and the access
 * licences released (`qlik_sense_license_release`). The points carry no server tag (the
 * licences are the site's), so the queries filter on the environment; the access licence panels
 * also on the tenant (`qlik_sense_license` points of a Qlik Cloud tenant carry its `tenant` tag,
 * the site's none, so "All" shows both, each its own series). A tenant's allotments are `total`,
 * `used` and `available` (no `allocated`), its time-based analyzer allotment `analyzer_time` in
 * minutes, shown beside the site's analyzer capacity. A tenant's licence validity goes to
 * `qlik_sense_server_license` with its `tenant` tag too, so the server licence table keeps to the
 * points without one (`"tenant" = ''`), the site's; the version and release are the site's alone.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { ENVIRONMENT, TENANT } from "./influxdb-variables.ts";
import { influxql } from "./influxql-query.ts";
import { bars, lines, stat, table } from "./panels.ts";

const WHERE = `WHERE $timeFilter AND ${ENVIRONMENT}`;
const SEATS = `"license_type" =~ /^(professional|analyzer)$/`;
/** The access licences' points: the site's and the Qlik Cloud tenants' chosen. */
const ACCESS = `${WHERE} AND ${TENANT}`;
/** The site's points of a measurement a tenant also writes to: those without a `tenant` tag. */
const SITE = `${WHERE} AND "tenant" = ''`;

export function licenceRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Licences"),
      panels: [
        stat({
          title: "Access licences available",
          description:
            "Professional and analyzer access licences still available at the last licence monitor run (measurement qlik_sense_license, field available).",
          targets: [
            influxql(
              `SELECT last("available") AS "available" FROM "qlik_sense_license" ${ACCESS} AND ${SEATS} GROUP BY "license_type", "tenant"`,
            ).alias("$tag_license_type $tag_tenant"),
          ],
          width: 6,
        }),
        lines({
          title: "Access licences allocated and used",
          description:
            "Professional and analyzer access licences allocated and in use at each licence monitor run (measurement qlik_sense_license).",
          targets: [
            influxql(
              `SELECT last("allocated") AS "allocated", last("used") AS "used" FROM "qlik_sense_license" ${ACCESS} AND ${SEATS} GROUP BY time($__interval), "license_type", "tenant" fill(none)`,
            ).alias("$tag_license_type $col $tag_tenant"),
          ],
          width: 10,
        }),
        lines({
          title: "Analyzer capacity minutes",
          description:
            "Analyzer capacity minutes allocated and used at each licence monitor run (measurement qlik_sense_license, license_type analyzer_capacity), and a Qlik Cloud tenant's analyzer time minutes, its total and used (license_type analyzer_time).",
          targets: [
            influxql(
              `SELECT last("allocated_minutes") AS "allocated", last("used_minutes") AS "used" FROM "qlik_sense_license" ${ACCESS} AND "license_type" = 'analyzer_capacity' GROUP BY time($__interval), "tenant" fill(none)`,
            ).alias("$col $tag_tenant"),
            influxql(
              `SELECT last("total") AS "allocated", last("used") AS "used" FROM "qlik_sense_license" ${ACCESS} AND "license_type" = 'analyzer_time' GROUP BY time($__interval), "tenant" fill(none)`,
            ).alias("$col $tag_tenant"),
          ],
          width: 8,
        }),
        table({
          title: "Server licence expiry",
          description:
            "The server licence's last valid day, days until it (negative after it) and whether the platform says it has expired, at the last run (measurement qlik_sense_server_license).",
          targets: [
            influxql(
              `SELECT last("expiry_date") AS "expiry date", last("days_until_expiry") AS "days until expiry", last("license_expired") AS "expired" FROM "qlik_sense_server_license" ${SITE}`,
            ).table(),
          ],
          width: 8,
          height: 5,
        }),
        table({
          title: "Platform version",
          description:
            "Product name, version and release label of the platform at the last run (measurement qlik_sense_version).",
          targets: [
            influxql(
              `SELECT last("product_name") AS "product", last("version") AS "version", last("release_label") AS "release" FROM "qlik_sense_version" ${WHERE}`,
            ).table(),
          ],
          width: 8,
          height: 5,
        }),
        bars({
          title: "Access licences released",
          description:
            "Access licences released for being unused, per type (measurement qlik_sense_license_release; a dry run releases and writes nothing).",
          targets: [
            influxql(
              `SELECT count("days_since_last_use") AS "released" FROM "qlik_sense_license_release" ${WHERE} GROUP BY time($__interval), "license_type" fill(none)`,
            ).alias("$tag_license_type"),
          ],
          width: 8,
          height: 5,
        }),
      ],
    },
  ];
}
