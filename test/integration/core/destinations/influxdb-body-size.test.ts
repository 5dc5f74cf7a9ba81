/**
 * InfluxDB 1.x answers 413 to a write body larger than its `[http] max-body-size` (25 MB by
 * default; 20,000 bytes here, through INFLUXDB_HTTP_MAX_BODY_SIZE) and stores nothing of it. That
 * is not the data's fault: the audit destination and the agent's points write the same points
 * again in smaller requests, so every one is stored, and only a point larger than the limit on
 * its own is refused, as `too_large`.
 */
import { describe, expect, it } from "vitest";
import { createInfluxV1Client } from "../../../../core/adapters/influx/influx-v1-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import { floatField, type Point, stringField } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { influxEventIdRows } from "../../../helpers/audit-destination-contents.ts";
import { acceptedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const MAX_BODY_BYTES = 20_000;
const { skip, influxd } = influxdForSuite({ env: { INFLUXDB_HTTP_MAX_BODY_SIZE: String(MAX_BODY_BYTES) } });
const scratch = suiteScratchDirectory("steward-body-size-");

function databaseConfig(dbName: string) {
  const config = timeseriesConfig(1, influxd.port);
  return { ...config, v1Config: { ...config.v1Config, dbName } };
}

/** The timeseriesdb audit destination into `dbName`, in chunks of `maxBatchSize` events. */
async function auditInto(dbName: string, logger: RecordingLogger, maxBatchSize: number) {
  const root = scratch.root;
  const config = destinationConfig(["timeseriesdb"], root);
  return startAuditDestinations({
    destinations: selectDestinations(
      { ...config, timeseriesdb: { ...config.timeseriesdb, maxBatchSize, writeFrequency: 60_000 } },
      databaseConfig(dbName),
      localDestinationAdapters({ cwd: root, logger }),
    ),
    clock: systemClock,
    logger,
  });
}

const recent = () => new Date(Date.now() - 60_000).toISOString();

describe.skipIf(skip)("InfluxDB 1.x answering 413 to a body over its max-body-size", () => {
  it("stores every audit event of a chunk several times larger than the limit", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("body_size_audit", logger, 200);
    const events = Array.from({ length: 200 }, () => acceptedEvent({ timestamp: recent() }));

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    expect((await influxEventIdRows(influxd, "body_size_audit")).sort()).toEqual(
      events.map((event) => event.envelope.eventId).sort(),
    );
    expect(destinations.stats().timeseriesdb).toMatchObject({ written: 200, rejected: 0, failedWrites: 0 });
    expect(logger.at("error")).toEqual([]);
  });

  it("refuses only the audit event whose point is larger than the limit on its own, as too_large", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("body_size_one", logger, 50);
    // objectData goes into the point as a string field.
    const huge = objectDataEvent(
      { objectType: "table", cells: "x".repeat(MAX_BODY_BYTES) },
      { timestamp: recent() },
    );
    const events = [
      ...Array.from({ length: 20 }, () => acceptedEvent({ timestamp: recent() })),
      huge,
      ...Array.from({ length: 20 }, () => acceptedEvent({ timestamp: recent() })),
    ];

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    expect((await influxEventIdRows(influxd, "body_size_one")).sort()).toEqual(
      events
        .filter((event) => event !== huge)
        .map((event) => event.envelope.eventId)
        .sort(),
    );
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 40,
      rejected: 1,
      refused: { too_large: 1 },
    });
    const refusals = logger.at("error").filter((entry) => entry.message.includes("refused"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.fields).toMatchObject({ reason: "too_large", eventIds: huge.envelope.eventId });
  });

  it("stores every point of the agent's batches larger than the limit, and refuses one too large alone", async () => {
    const config = databaseConfig("body_size_points");
    const series = createInfluxV1Client(config);
    const logger = recordingLogger();
    const agentDestinations = createEventDestinations({
      maxBatchSize: 1000,
      series,
      clock: systemClock,
      logger,
      maxAgeMs: 50,
    });
    const base = Date.now() - 60_000;
    const points: Point[] = Array.from({ length: 1000 }, (_, n) => ({
      measurement: "body_size",
      tags: { host: "h1" },
      fields: { n: floatField(n) },
      timestampMs: base + n,
    }));
    const huge: Point = {
      measurement: "body_size",
      tags: { host: "h1" },
      fields: { note: stringField("x".repeat(MAX_BODY_BYTES)) },
      timestampMs: base + 5000,
    };

    await agentDestinations.writePoints([...points.slice(0, 500), huge, ...points.slice(500)]);
    await agentDestinations.stop();

    const answer = await influxd.query('SELECT count("n") FROM "body_size"', "body_size_points");
    expect(answer.results[0]?.series?.[0]?.values[0]?.[1]).toBe(1000);
    expect(agentDestinations.stats().timeseriesdb).toMatchObject({
      written: 1000,
      rejected: 1,
      refused: { too_large: 1 },
      dropped: 0,
    });
  });
});
