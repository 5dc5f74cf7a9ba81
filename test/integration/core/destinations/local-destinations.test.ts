/**
 * The local consumer end to end: accepted events through the queue handler into Parquet, QVD,
 * objectData JSON files and Debian's InfluxDB 1.x, then read back by independent readers; and
 * an InfluxDB outage that delays writes but loses nothing.
 */

import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type DestinationAdapters,
  selectDestinations,
} from "../../../../core/destinations/select-destinations.ts";
import {
  createAcceptedEventHandler,
  startAuditDestinations,
} from "../../../../core/destinations/start-audit-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { acceptedEvent, objectDataEvent, oddEvents } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const qvdrs = createRequire(import.meta.url)("qvdrs-linux-x64-gnu") as {
  readQvdSync(path: string): { numRows: number };
};

const { skip, influxd } = influxdForSuite();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-local-dest-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function adapters(): DestinationAdapters {
  return localDestinationAdapters({ cwd: root, logger: recordingLogger() });
}

async function influxCount(measurement: string): Promise<number> {
  const result = await influxd.query(`SELECT * FROM "${measurement}"`, "steward_audit");
  return result.results[0]?.series?.[0]?.values.length ?? 0;
}

// Recent timestamps: influxd drops points older than the 30 d retention policy.
const recent = (offsetMs: number) => new Date(Date.now() - 3_600_000 + offsetMs).toISOString();

describe.skipIf(skip)("local audit destinations", () => {
  it("writes every accepted event to parquet, tablefile, json and InfluxDB, flushing on stop", async () => {
    const directory = path.join(root, "all");
    const events = [
      ...Array.from({ length: 20 }, (_, i) => acceptedEvent({ timestamp: recent(i) })),
      ...oddEvents().map((event) => ({ ...event, envelope: { ...event.envelope, timestamp: recent(100) } })),
      objectDataEvent(
        { objectType: "table", measures: [{ values: Array.from({ length: 10_000 }, (_, i) => i) }] },
        { timestamp: recent(200) },
      ),
    ];
    const config = destinationConfig(["parquet", "tablefile", "json", "timeseriesdb"], directory);
    const destinations = await startAuditDestinations({
      destinations: selectDestinations(
        { ...config, parquet: { ...config.parquet, maxBatchSize: 7 } },
        timeseriesConfig(1, influxd.port),
        adapters(),
      ),
      clock: systemClock,
      logger: recordingLogger(),
    });
    const handle = createAcceptedEventHandler(destinations);

    for (const event of events) await handle(event);
    await destinations.stop();

    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const parquet = await connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT eventId)::INTEGER AS ids FROM read_parquet('${directory}/parquet/**/*.parquet', hive_partitioning = true)`,
    );
    expect(parquet.getRowObjectsJS()).toEqual([{ n: events.length, ids: events.length }]);
    connection.closeSync();
    const qvdDates = await readdir(path.join(directory, "tablefile"));
    let qvdRows = 0;
    for (const date of qvdDates) {
      for (const file of await readdir(path.join(directory, "tablefile", date))) {
        qvdRows += qvdrs.readQvdSync(path.join(directory, "tablefile", date, file)).numRows;
      }
    }
    expect(qvdRows).toBe(events.length);
    expect(await readdir(path.join(directory, "json"))).toHaveLength(2);
    expect(await influxCount("audit_event")).toBe(events.length);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      buffered: 0,
      written: events.length,
      rejected: 0,
    });
  });

  it("delays writes while InfluxDB is down and loses none once it is back", async () => {
    const clock = createAsyncManualClock(Date.now());
    const config = destinationConfig(["timeseriesdb"], path.join(root, "down"));
    const destinations = await startAuditDestinations({
      destinations: selectDestinations(
        {
          ...config,
          timeseriesdb: { ...config.timeseriesdb, writeFrequency: 0, measurementName: "audit_event_down" },
        },
        timeseriesConfig(1, influxd.port),
        adapters(),
      ),
      clock,
      logger: recordingLogger(),
      initialRetryDelayMs: 1000,
    });
    await influxd.stop();
    try {
      for (let i = 0; i < 5; i += 1) await destinations.handleEvent(acceptedEvent({ timestamp: recent(i) }));
      await vi.waitFor(() =>
        expect(destinations.stats().timeseriesdb?.failedWrites).toBeGreaterThanOrEqual(1),
      );
      await clock.advance(1000);
      await vi.waitFor(() =>
        expect(destinations.stats().timeseriesdb?.failedWrites).toBeGreaterThanOrEqual(2),
      );
      expect(destinations.stats().timeseriesdb?.buffered).toBe(5);
    } finally {
      await influxd.start();
    }

    await clock.advance(2000);
    await vi.waitFor(() => expect(destinations.stats().timeseriesdb?.buffered).toBe(0));
    await destinations.stop();

    expect(await influxCount("audit_event_down")).toBe(5);
    expect(destinations.stats().timeseriesdb).toMatchObject({ written: 5, rejected: 0 });
  });
});
