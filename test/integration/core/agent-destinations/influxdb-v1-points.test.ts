/**
 * The agent's time-series destination against Debian's InfluxDB 1.x on loopback: points land in
 * batches, and a server stopped mid-run and started again costs neither a point nor a rewrite.
 */
import { describe, expect, it } from "vitest";
import { createInfluxV1Client } from "../../../../core/adapters/influx/influx-v1-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import type { TimeseriesClient } from "../../../../core/ports.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { numberedPoint } from "../../../helpers/recording-series.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip, influxd } = influxdForSuite();

/** The real v1 client for database `dbName`, counting the points of every request it accepted. */
function countingWriter(dbName: string) {
  const config = timeseriesConfig(1, influxd.port);
  const client = createInfluxV1Client({ ...config, v1Config: { ...config.v1Config, dbName } });
  const counting = {
    acceptedPoints: 0,
    requests: 0,
    ensureDatabase: () => client.ensureDatabase(),
    async write(points: readonly Point[]) {
      counting.requests += 1;
      await client.write(points);
      counting.acceptedPoints += points.length;
    },
    async writeLines(body: Uint8Array) {
      counting.requests += 1;
      await client.writeLines(body);
      counting.acceptedPoints += Buffer.from(body).toString("utf8").split("\n").length;
    },
  } satisfies TimeseriesClient & Record<string, unknown>;
  return counting;
}

// Recent times: the test database keeps 30 days.
const base = Date.now() - 60_000;
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => numberedPoint(from + i, base));

async function stored(dbName: string): Promise<{ count: number; sum: number }> {
  const answer = await influxd.query("SELECT count(n), sum(n) FROM test", dbName);
  const row = answer.results[0]?.series?.[0]?.values[0] ?? [0, 0, 0];
  return { count: Number(row[1]), sum: Number(row[2]) };
}

describe.skipIf(skip)("agent points into InfluxDB 1.x", () => {
  it("writes every point, in requests of at most maxBatchSize", async () => {
    const series = countingWriter("agent_batches");
    const destinations = createEventDestinations({
      maxBatchSize: 50,
      series,
      clock: systemClock,
      logger: recordingLogger(),
    });

    for (let from = 0; from < 120; from += 10) await destinations.writePoints(range(from, from + 10));
    await destinations.stop();

    expect(await stored("agent_batches")).toEqual({ count: 120, sum: (119 * 120) / 2 });
    expect(series.requests).toBe(3);
    expect(destinations.stats().timeseriesdb).toEqual({
      buffered: 0,
      written: 120,
      failedWrites: 0,
      dropped: 0,
      rejected: 0,
    });
  });

  it("loses nothing and rewrites nothing when the server stops mid-run and comes back", async () => {
    const series = countingWriter("agent_outage");
    const logger = recordingLogger();
    const destinations = createEventDestinations({
      maxBatchSize: 25,
      series,
      clock: systemClock,
      logger,
      maxAgeMs: 20,
      initialRetryDelayMs: 100,
      maxRetryDelayMs: 200,
      stopTimeoutMs: 8000,
    });

    await destinations.writePoints(range(0, 100));
    await until(() => destinations.stats().timeseriesdb?.written === 100);
    await influxd.stop();
    await destinations.writePoints(range(100, 200));
    await until(() => (destinations.stats().timeseriesdb?.failedWrites ?? 0) >= 2);
    await influxd.start();
    await destinations.writePoints(range(200, 300));
    await destinations.stop();

    expect(await stored("agent_outage")).toEqual({ count: 300, sum: (299 * 300) / 2 });
    expect(series.acceptedPoints).toBe(300);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      buffered: 0,
      written: 300,
      dropped: 0,
      rejected: 0,
    });
    // The outage is reported once, naming the destination, and so is its end.
    const failing = logger
      .at("warn")
      .filter((entry) => entry.message === "writing points failed; will retry");
    expect(failing).toHaveLength(1);
    expect(failing[0]?.fields).toMatchObject({ destination: "timeseriesdb", failedWrites: 1 });
    expect(logger.at("info").some((entry) => entry.message === "writing points resumed")).toBe(true);
  });
});
