/**
 * The win_service_state point as Debian's influxd (InfluxDB 1.x) on loopback stores it: Butler's
 * tag keys, and its field keys with the types Butler's dashboards query (numbers as floats).
 */
import { describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../../../core/adapters/influx/create-timeseries-client.ts";
import { serviceStatePoint } from "../../../../core/service-monitor/service-records.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip: noInfluxd, influxd } = influxdForSuite();
const DB = "steward_audit";

async function rows(query: string): Promise<unknown[][]> {
  const answer = await influxd.query(query, DB);
  return answer.results[0]?.series?.[0]?.values ?? [];
}

describe.skipIf(noInfluxd)("the win_service_state point in InfluxDB 1.x", () => {
  it("is stored with Butler's tag keys, field keys and field types", async () => {
    const series = createTimeseriesClient(timeseriesConfig(1, influxd.port));
    await series.ensureDatabase();
    const point = serviceStatePoint(
      { host: "qs-node1", service: "QlikSenseProxyService", friendlyName: "Proxy" },
      {
        ok: true,
        state: "RUNNING",
        stateNum: 4,
        displayName: "Qlik Sense Proxy Service",
        startType: "Automatic",
        exePath: "",
        dependencies: [],
      },
      [{ name: "qs_env", value: "lab" }],
    );

    await series.write([point]);

    const tagKeys = (await rows(`SHOW TAG KEYS FROM "win_service_state"`)).map(([key]) => key);
    expect(tagKeys.sort()).toEqual(["display_name", "friendly_name", "host", "qs_env", "service_name"]);
    expect(Object.fromEntries(await rows(`SHOW FIELD KEYS FROM "win_service_state"`))).toEqual({
      startup_mode_num: "float",
      startup_mode_text: "string",
      state_num: "float",
      state_text: "string",
    });
    expect(
      await rows(`SELECT "state_num", "state_text" FROM "win_service_state" WHERE "friendly_name" = 'Proxy'`),
    ).toEqual([[expect.any(Number), 4, "RUNNING"]]);
  });
});
