/**
 * InfluxDB 3: `POST /api/v3/write_lp?db=&precision=nanosecond` with `Authorization: Bearer`;
 * on start, lists databases and creates the configured one (with its retention period) when
 * missing, through `/api/v3/configure/database`.
 *
 * Our own HTTP requests (influx-http.ts) rather than `@influxdata/influxdb3-client` (the design
 * card's suggestion): that client cannot create a database, and it brought 34 packages (gRPC and
 * Arrow for queries Steward never makes) into every Lambda bundle for what is here one POST of
 * line protocol.
 */
import type { TimeseriesdbConfig } from "../../config/index.ts";
import type { TimeseriesClient } from "../../ports.ts";
import { type InfluxConnection, influxConnection, influxRequest } from "./influx-http.ts";
import { lineProtocolWrites } from "./line-protocol-writes.ts";

export function createInfluxV3Client(
  config: TimeseriesdbConfig,
  connection: InfluxConnection = influxConnection(config),
): TimeseriesClient {
  const { database, token, retentionDuration, writeTimeout } = config.v3Config;
  const { base, agent } = connection;
  const auth = { Authorization: `Bearer ${token}` };

  const writeUrl = new URL("/api/v3/write_lp", base);
  writeUrl.searchParams.set("db", database);
  writeUrl.searchParams.set("precision", "nanosecond");

  return {
    async ensureDatabase() {
      const listUrl = new URL("/api/v3/configure/database", base);
      listUrl.searchParams.set("format", "json");
      const listed = JSON.parse(
        (await influxRequest({ method: "GET", url: listUrl, headers: auth, timeoutMs: writeTimeout, agent }))
          .text || "[]",
      ) as Record<string, unknown>[];
      if (listed.some((row) => row["iox::database"] === database)) return;
      await influxRequest({
        method: "POST",
        url: new URL("/api/v3/configure/database", base),
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({
          db: database,
          ...(retentionDuration === "" ? {} : { retention_period: retentionDuration }),
        }),
        timeoutMs: writeTimeout,
        agent,
      });
    },

    ...lineProtocolWrites({ url: writeUrl, headers: auth, timeoutMs: writeTimeout, agent }),
  };
}
