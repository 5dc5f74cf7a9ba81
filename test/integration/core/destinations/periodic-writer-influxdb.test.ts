/**
 * The periodic writers of interval counters against Debian's InfluxDB 1.x: they create their
 * database when nothing else has (a configuration that writes only queue metrics or event
 * counts), and a point the database refuses is dropped like any refused point: what it stored
 * counts as written, so neither the refused point nor the good deltas beside it are written again
 * every interval.
 */
import { describe, expect, it } from "vitest";
import { createInfluxV1Client } from "../../../../core/adapters/influx/influx-v1-client.ts";
import { startPeriodicWriter } from "../../../../core/destinations/periodic-writer.ts";
import { startQueueMetricsWriter } from "../../../../core/destinations/queue-metrics-writer.ts";
import { integerField, type Point } from "../../../../core/shared/line-protocol.ts";
import type { PeriodicPoints } from "../../../../core/shared/periodic-points.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip, influxd } = influxdForSuite();

/** A database Steward creates with a default retention policy of 7 days. */
function weekDatabase(dbName: string) {
  const config = timeseriesConfig(1, influxd.port);
  return {
    ...config,
    v1Config: { ...config.v1Config, dbName, retentionPolicy: { name: "week", duration: "7d" } },
  };
}

async function query(q: string, database: string) {
  const answer = await influxd.query(q, database);
  return answer.results[0]?.series?.[0]?.values ?? [];
}

/** Counts added with `add`, written as deltas: `written()` subtracts what a write carried. */
function deltaCounter() {
  let count = 0;
  let added = 0;
  return {
    add(n: number) {
      count += n;
      added += n;
    },
    added: () => added,
    take(nowMs: number) {
      const taken = count;
      const point: Point = {
        measurement: "event_count",
        tags: { source: "engine" },
        fields: { counter: integerField(taken) },
        timestampMs: nowMs,
      };
      return {
        points: [point],
        written() {
          count -= taken;
        },
      };
    },
  } satisfies PeriodicPoints & Record<string, unknown>;
}

/** One point dated beyond the database's retention, offered until a write counts it as written. */
function stalePoint(): PeriodicPoints & { offered: () => number } {
  let pending = true;
  let offered = 0;
  return {
    offered: () => offered,
    take() {
      if (pending) offered += 1;
      return {
        points: pending
          ? [
              {
                measurement: "stale",
                tags: {},
                fields: { n: integerField(1) },
                timestampMs: Date.UTC(2025, 0, 15),
              },
            ]
          : [],
        written() {
          pending = false;
        },
      };
    },
  };
}

describe.skipIf(skip)("periodic writers into InfluxDB 1.x", () => {
  it("creates the database of a writer that writes only queue metrics", async () => {
    const config = weekDatabase("only_queue_metrics");
    const logger = recordingLogger();
    const writer = startQueueMetricsWriter({
      config: { enable: true, writeFrequency: 100, measurementName: "audit_events_queue", tags: [] },
      metrics: () => ({
        waiting: 0,
        maxSize: 200,
        running: 0,
        received: 3,
        queued: 3,
        processed: 3,
        failed: 0,
        droppedTotal: 0,
        droppedRateLimit: 0,
        droppedQueueFull: 0,
        droppedSize: 0,
        backpressureActive: false,
        utilisationPct: 0,
        processingTimeAvgMs: 0,
        processingTimeP95Ms: 0,
        processingTimeMaxMs: 0,
      }),
      series: createInfluxV1Client(config),
      version: 1,
      clock: systemClock,
      logger,
    });

    await until(
      async () => (await query('SELECT * FROM "audit_events_queue"', "only_queue_metrics")).length > 0,
      5000,
    );
    await writer.stop();

    expect(logger.at("error")).toEqual([]);
  });

  it("drops a refused point instead of writing it, and the good deltas beside it, every interval", async () => {
    const config = weekDatabase("refused_interval");
    const series = createInfluxV1Client(config);
    await series.ensureDatabase();
    const logger = recordingLogger();
    const counter = deltaCounter();
    const stale = stalePoint();
    const writer = startPeriodicWriter({
      name: "event-counts",
      intervalMs: 100,
      sources: [counter, stale],
      series,
      clock: systemClock,
      logger,
    });

    for (let round = 0; round < 6; round += 1) {
      counter.add(5);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await writer.stop();

    const [[, sum] = []] = await query('SELECT sum("counter") FROM "event_count"', "refused_interval");
    expect(sum).toBe(counter.added());
    expect(await query('SELECT * FROM "stale"', "refused_interval")).toEqual([]);
    expect(stale.offered()).toBe(1);
    expect(writer.stats()).toMatchObject({ rejected: 1, refused: { beyond_retention: 1 }, failedWrites: 0 });
    const refusals = logger.at("error");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.fields).toMatchObject({
      writer: "event-counts",
      reason: "beyond_retention",
      refused: 1,
    });
  });
});
