/**
 * The InfluxDB dashboard's rows about the platform as Steward polls it: each server's engine
 * health (the eight health measurements, one point per server per poll) and the proxy sessions of
 * each virtual proxy. Every query filters on environment and server.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { ENVIRONMENT, SERVER } from "./influxdb-variables.ts";
import { influxql } from "./influxql-query.ts";
import { lines, stat, table } from "./panels.ts";

const WHERE = `WHERE $timeFilter AND ${ENVIRONMENT} AND ${SERVER}`;
const PER_SERVER = `GROUP BY time($__interval), "server_name" fill(none)`;

/** A per-server time series of `fields` (`field AS "label"` items) of `measurement`. */
const perServer = (measurement: string, fields: string) =>
  influxql(`SELECT ${fields} FROM "${measurement}" ${WHERE} ${PER_SERVER}`).alias("$tag_server_name $col");

export function serverRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Qlik Sense servers"),
      panels: [
        lines({
          title: "Engine memory",
          description: "Committed, allocated and free memory of each engine (measurement mem, MB).",
          targets: [
            perServer(
              "mem",
              `mean("comitted") AS "committed", mean("allocated") AS "allocated", mean("free") AS "free"`,
            ),
          ],
          unit: "decmbytes",
        }),
        lines({
          title: "Engine CPU",
          description: "CPU use of each engine in percent (measurement cpu, field total).",
          targets: [perServer("cpu", `mean("total") AS "cpu"`)],
          unit: "percent",
        }),
        lines({
          title: "Engine sessions",
          description: "Active and total engine sessions (measurement session).",
          targets: [perServer("session", `mean("active") AS "active", mean("total") AS "total"`)],
        }),
        lines({
          title: "Engine users",
          description: "Active and total users of each engine (measurement users).",
          targets: [perServer("users", `mean("active") AS "active", mean("total") AS "total"`)],
        }),
        lines({
          title: "Apps active, loaded and in memory",
          description: "How many apps each engine has active, loaded and in memory (measurement apps).",
          targets: [
            perServer(
              "apps",
              `mean("active_docs_count") AS "active", mean("loaded_docs_count") AS "loaded", mean("in_memory_docs_count") AS "in memory"`,
            ),
          ],
        }),
        lines({
          title: "Engine cache hit ratio",
          description: "Cache hits per lookup since the engine started, in percent (measurement cache).",
          targets: [perServer("cache", `100 * max("hits") / max("lookups") AS "hit ratio"`)],
          unit: "percent",
        }),
        stat({
          title: "Saturated",
          description:
            "Whether each engine reported itself saturated at its last poll (measurement saturated).",
          targets: [
            influxql(
              `SELECT last("saturated") AS "saturated" FROM "saturated" ${WHERE} GROUP BY "server_name"`,
            ).alias("$tag_server_name"),
          ],
          width: 6,
        }),
        table({
          title: "Engine versions and uptime",
          description:
            "Each engine's version, start time and uptime at its last poll (measurement sense_server).",
          targets: [
            influxql(
              `SELECT last("version") AS "version", last("started") AS "started", last("uptime") AS "uptime" FROM "sense_server" ${WHERE} GROUP BY "server_name"`,
            ).table(),
          ],
          width: 18,
        }),
      ],
    },
    {
      row: new RowBuilder("User sessions"),
      panels: [
        lines({
          title: "Proxy sessions per virtual proxy",
          description:
            "Sessions of each virtual proxy at each poll (measurement user_session_summary, field session_count).",
          targets: [
            influxql(
              `SELECT mean("session_count") AS "sessions" FROM "user_session_summary" ${WHERE} GROUP BY time($__interval), "server_name", "user_session_virtual_proxy" fill(none)`,
            ).alias("$tag_server_name $tag_user_session_virtual_proxy"),
          ],
          width: 12,
        }),
        table({
          title: "Users with a proxy session",
          description:
            "The users of each virtual proxy's sessions at its last poll (excluded users left out).",
          targets: [
            influxql(
              `SELECT last("session_user_id_list") AS "users" FROM "user_session_summary" ${WHERE} GROUP BY "server_name", "user_session_virtual_proxy"`,
            ).table(),
          ],
          width: 12,
        }),
      ],
    },
  ];
}
