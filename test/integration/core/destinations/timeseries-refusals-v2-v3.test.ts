/**
 * Refusals of InfluxDB 2.x and 3, through the loopback stand-in that answers them as the real
 * servers do (fake-influx.ts): the audit destination and the agent's points store every good
 * event or point at once, in one write per batch (two when the server stored nothing and named
 * the bad line), and count the refused ones by reason.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTimeseriesClient } from "../../../../core/adapters/influx/create-timeseries-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import { floatField, integerField, type Point, stringField } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { type FakeInflux, startFakeInflux } from "../../../helpers/fake-influx.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

let root: string;
let fake: FakeInflux | undefined;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-refusals-v2v3-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(version: 2 | 3): Promise<FakeInflux> {
  fake = await startFakeInflux({ version, token: "secret-token", org: "acme" });
  return fake;
}

async function auditInto(server: FakeInflux, version: 2 | 3, logger: RecordingLogger, maxBatchSize: number) {
  const config = destinationConfig(["timeseriesdb"], root);
  return startAuditDestinations({
    destinations: selectDestinations(
      { ...config, timeseriesdb: { ...config.timeseriesdb, maxBatchSize, writeFrequency: 60_000 } },
      timeseriesConfig(version, server.port),
      localDestinationAdapters({ cwd: root, logger }),
    ),
    clock: systemClock,
    logger,
  });
}

/** The eventIds of the audit points the stand-in holds. */
const storedIds = (server: FakeInflux) =>
  (server.databases.get("steward_audit")?.points ?? [])
    .flatMap((point) =>
      point.measurement === "audit_event" && point.fields.eventId !== undefined
        ? [String(point.fields.eventId.value)]
        : [],
    )
    .sort();
const ids = (events: readonly AcceptedEvent[]) => events.map((event) => event.envelope.eventId).sort();
const recent = () => new Date(Date.now() - 60_000).toISOString();

describe.each([2, 3] as const)("refusals of InfluxDB %i (stand-in)", (version) => {
  it("stores every good event of batches with field type conflicts mixed in, one write per batch", async () => {
    const server = await serve(version);
    const logger = recordingLogger();
    const destinations = await auditInto(server, version, logger, 10);
    // Another client wrote `visible` as a string first.
    await createTimeseriesClient(timeseriesConfig(version, server.port)).write([
      {
        measurement: "audit_event",
        tags: {},
        fields: { visible: stringField("yes") },
        timestampMs: Date.now(),
      },
    ]);
    const writesBefore = server.writes.length;
    const events = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? acceptedEvent({ timestamp: recent() })
        : acceptedEvent({
            timestamp: recent(),
            payload: { context: { appName: "Sales" }, event: { objectId: "o" } },
          }),
    );

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    expect(storedIds(server)).toEqual(ids(events.filter((_, i) => i % 3 !== 0)));
    expect(server.writes.length - writesBefore).toBe(3);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 20,
      rejected: 10,
      failedWrites: 0,
      refused: { field_type_conflict: 10 },
    });
    const [line] = logger.at("error");
    expect(line?.fields).toMatchObject({ reason: "field_type_conflict", refused: 4 });
    expect(String(line?.fields?.eventIds).split(",")).toEqual(
      events
        .filter((_, i) => i % 3 === 0)
        .slice(0, 4)
        .map((event) => event.envelope.eventId),
    );
  });

  it("refuses an unparsable line on its own and stores the rest", async () => {
    const server = await serve(version);
    const logger = recordingLogger();
    const destinations = await auditInto(server, version, logger, 10);
    // A user id of 70,000 characters makes a series key longer than any InfluxDB parses.
    const bad = acceptedEvent({
      timestamp: recent(),
      payload: { context: { user: `LAB\\${"a".repeat(70_000)}` } },
    });
    const good = Array.from({ length: 9 }, () => acceptedEvent({ timestamp: recent() }));

    for (const event of [good[0], bad, ...good.slice(1)] as AcceptedEvent[])
      await destinations.handleEvent(event);
    await destinations.stop();

    expect(storedIds(server)).toEqual(ids(good));
    // 2.x stored nothing of the request and named the line: the rest went once more, without it.
    expect(server.writes.map((write) => write.lines)).toEqual(version === 2 ? [10, 9] : [10]);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 9,
      rejected: 1,
      refused: { unparsable: 1 },
    });
    expect(logger.at("error")[0]?.fields).toMatchObject({
      reason: "unparsable",
      eventIds: bad.envelope.eventId,
    });
  });

  it("stores every good point of the agent beside type conflicts, one write per batch", async () => {
    const server = await serve(version);
    const series = createTimeseriesClient(timeseriesConfig(version, server.port));
    await series.ensureDatabase();
    const base = Date.now() - 60_000;
    await series.write([
      { measurement: "conflicting", tags: {}, fields: { n: floatField(1.5) }, timestampMs: base },
    ]);
    const writesBefore = server.writes.length;
    const logger = recordingLogger();
    const agentDestinations = createEventDestinations({
      maxBatchSize: 10,
      series,
      clock: systemClock,
      logger,
      maxAgeMs: 50,
    });
    const point = (n: number): Point =>
      n % 5 === 0
        ? { measurement: "conflicting", tags: {}, fields: { n: integerField(n) }, timestampMs: base + n }
        : { measurement: "fine", tags: { host: "h1" }, fields: { n: floatField(n) }, timestampMs: base + n };

    for (let from = 0; from < 50; from += 10) {
      await agentDestinations.writePoints(Array.from({ length: 10 }, (_, i) => point(from + i)));
    }
    await agentDestinations.stop();

    const fine = server.databases.get("steward_audit")?.points.filter((p) => p.measurement === "fine") ?? [];
    expect(fine).toHaveLength(40);
    expect(server.writes.length - writesBefore).toBe(5);
    expect(agentDestinations.stats().timeseriesdb).toMatchObject({
      written: 40,
      rejected: 10,
      refused: { field_type_conflict: 10 },
    });
    expect(String(logger.at("error")[0]?.fields?.preview)).toMatch(/^conflicting n=0i /);
  });
});

describe("refusals of InfluxDB 2.x beyond a bucket's retention (stand-in)", () => {
  it("stores the current events at once and counts the old one as refused, naming it", async () => {
    const server = await serve(2);
    const logger = recordingLogger();
    const destinations = await auditInto(server, 2, logger, 4);
    const old = acceptedEvent({ timestamp: "2025-01-15T12:00:00.000Z" });
    const current = Array.from({ length: 3 }, () => acceptedEvent({ timestamp: recent() }));

    for (const event of [current[0], old, current[1], current[2]] as AcceptedEvent[]) {
      await destinations.handleEvent(event);
    }
    await destinations.stop();

    expect(storedIds(server)).toEqual(ids(current));
    expect(server.writes).toEqual([{ status: 422, lines: 4 }]);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 3,
      rejected: 1,
      refused: { beyond_retention: 1 },
    });
    expect(logger.at("error")[0]?.fields).toMatchObject({
      reason: "beyond_retention",
      eventIds: old.envelope.eventId,
    });
  });
});
