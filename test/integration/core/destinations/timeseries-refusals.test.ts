/**
 * A point Debian's InfluxDB 1.x refuses is refused, not an outage: the audit destination and the
 * agent's points count what the database took as written at once, count and log the refused
 * points by reason, and neither a later batch nor a shutdown waits on them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInfluxV1Client } from "../../../../core/adapters/influx/influx-v1-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import { floatField, integerField, type Point } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { influxEventIdRows } from "../../../helpers/audit-destination-contents.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { until } from "../../../helpers/eventually.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip, influxd } = influxdForSuite();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-refusals-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A database Steward creates with a default retention policy of 7 days. */
function weekDatabase(dbName: string) {
  const config = timeseriesConfig(1, influxd.port);
  return {
    ...config,
    v1Config: { ...config.v1Config, dbName, retentionPolicy: { name: "week", duration: "7d" } },
  };
}

/** The timeseriesdb audit destination into `dbName`, writing batches of `maxBatchSize` events. */
async function auditInto(dbName: string, logger: RecordingLogger, maxBatchSize: number) {
  const config = destinationConfig(["timeseriesdb"], root);
  return startAuditDestinations({
    destinations: selectDestinations(
      { ...config, timeseriesdb: { ...config.timeseriesdb, maxBatchSize, writeFrequency: 60_000 } },
      weekDatabase(dbName),
      localDestinationAdapters({ cwd: root, logger }),
    ),
    clock: systemClock,
    logger,
  });
}

/** Writes one line of line protocol (ns) straight to InfluxDB, as another client would. */
async function writeRaw(dbName: string, line: string): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${influxd.port}/write?db=${dbName}&precision=n`, {
    method: "POST",
    body: line,
  });
  expect(answer.status).toBe(204);
}

const now = () => new Date(Date.now() - 60_000).toISOString();
const OLD = "2025-01-15T12:00:00.000Z";

const refusalLines = (logger: RecordingLogger) =>
  logger.at("error").filter((entry) => entry.message.includes("refused"));

describe.skipIf(skip)("refusals of InfluxDB 1.x", () => {
  it("stores the current events at once and counts the one beyond retention as refused, naming it", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("refusal_retention", logger, 4);
    const old = acceptedEvent({ timestamp: OLD });
    const current = [acceptedEvent({ timestamp: now() }), acceptedEvent({ timestamp: now() })];
    const batch = [current[0], old, acceptedEvent({ timestamp: now() }), current[1]] as AcceptedEvent[];

    const started = Date.now();
    for (const event of batch) await destinations.handleEvent(event);
    await until(() => destinations.stats().timeseriesdb?.buffered === 0, 5000);
    const settledMs = Date.now() - started;
    // A later batch goes out without waiting on the refused event.
    const later = Array.from({ length: 4 }, () => acceptedEvent({ timestamp: now() }));
    for (const event of later) await destinations.handleEvent(event);
    await until(() => destinations.stats().timeseriesdb?.written === 7, 5000);
    const laterMs = Date.now() - started;
    await destinations.stop();

    expect(settledMs).toBeLessThan(1000);
    expect(laterMs).toBeLessThan(2000);
    expect((await influxEventIdRows(influxd, "refusal_retention")).sort()).toEqual(
      [...batch, ...later]
        .filter((event) => event !== old)
        .map((event) => event.envelope.eventId)
        .sort(),
    );
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 7,
      rejected: 1,
      failedWrites: 0,
      refused: { beyond_retention: 1 },
      lastRefusal: { reason: "beyond_retention", detail: expect.stringContaining("retention policy") },
    });
    const [line, ...more] = refusalLines(logger);
    expect(more).toEqual([]);
    expect(line?.fields).toMatchObject({
      destination: "timeseriesdb",
      reason: "beyond_retention",
      refused: 1,
      eventIds: old.envelope.eventId,
    });
  });

  it("finishes a shutdown during a refusal promptly, with nothing left unwritten", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("refusal_shutdown", logger, 1000);
    const events = [
      acceptedEvent({ timestamp: OLD }),
      ...Array.from({ length: 9 }, () => acceptedEvent({ timestamp: now() })),
    ];
    for (const event of events) await destinations.handleEvent(event);

    const started = Date.now();
    await destinations.stop();

    expect(Date.now() - started).toBeLessThan(1000);
    expect(destinations.stats().timeseriesdb).toMatchObject({ buffered: 0, written: 9, rejected: 1 });
    expect(await influxEventIdRows(influxd, "refusal_shutdown")).toHaveLength(9);
  });

  it("stores every good event of batches with field type conflicts mixed in, each written once", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("refusal_conflict", logger, 10);
    // Another client wrote `visible` as a string into the same shard first.
    await writeRaw(
      "refusal_conflict",
      `audit_event visible="yes" ${BigInt(Date.now() - 60_000) * 1_000_000n}`,
    );
    const events = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? acceptedEvent({ timestamp: now() })
        : acceptedEvent({
            timestamp: now(),
            payload: { context: { appName: "Sales" }, event: { objectId: "o" } },
          }),
    );
    const conflicting = events.filter((_, i) => i % 3 === 0);

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    const stored = await influxEventIdRows(influxd, "refusal_conflict");
    expect(stored.sort()).toEqual(
      events
        .filter((_, i) => i % 3 !== 0)
        .map((event) => event.envelope.eventId)
        .sort(),
    );
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 20,
      rejected: 10,
      failedWrites: 0,
      refused: { field_type_conflict: 10 },
    });
    const [line] = refusalLines(logger);
    expect(line?.fields).toMatchObject({ reason: "field_type_conflict", refused: 4 });
    expect(String(line?.fields?.eventIds).split(",")).toEqual(
      conflicting.slice(0, 4).map((event) => event.envelope.eventId),
    );
    expect(String(line?.fields?.detail)).toContain('input field "visible" on measurement "audit_event"');
  });
});

describe.skipIf(skip)("a refusal of InfluxDB 1.x that names a line with a control character", () => {
  it("is read as the refusal it is, not as no answer: the event refused, the others written at once", async () => {
    const logger = recordingLogger();
    const destinations = await auditInto("refusal_control_character", logger, 10);
    // A series key over InfluxDB's 65,535 bytes is unparsable; its answer names the line, ESC and all.
    const long = acceptedEvent({
      type: "event.bookmark",
      timestamp: now(),
      payload: { context: { appName: `\u001b[31m${"x".repeat(70_000)}` }, event: {} },
    });
    const others = [acceptedEvent({ timestamp: now() }), acceptedEvent({ timestamp: now() })];

    for (const event of [others[0], long, others[1]] as AcceptedEvent[])
      await destinations.handleEvent(event);
    await destinations.stop();

    expect((await influxEventIdRows(influxd, "refusal_control_character")).sort()).toEqual(
      others.map((event) => event.envelope.eventId).sort(),
    );
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: 2,
      rejected: 1,
      failedWrites: 0,
      refused: { unparsable: 1 },
    });
    expect(refusalLines(logger).map((entry) => entry.fields?.eventIds)).toEqual([long.envelope.eventId]);
  });
});

describe.skipIf(skip)("refusals of InfluxDB 1.x to the agent's points", () => {
  it("stores every good point beside field type conflicts and reports the refused ones with a preview", async () => {
    const config = timeseriesConfig(1, influxd.port);
    const series = createInfluxV1Client({
      ...config,
      v1Config: { ...config.v1Config, dbName: "agent_conflict" },
    });
    await series.ensureDatabase();
    const base = Date.now() - 60_000;
    await writeRaw("agent_conflict", `conflicting n=1.5 ${BigInt(base) * 1_000_000n}`);
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

    const started = Date.now();
    for (let from = 0; from < 50; from += 10) {
      await agentDestinations.writePoints(Array.from({ length: 10 }, (_, i) => point(from + i)));
    }
    await until(() => agentDestinations.stats().timeseriesdb?.buffered === 0, 5000);
    const settledMs = Date.now() - started;
    await agentDestinations.stop();

    expect(settledMs).toBeLessThan(2000);
    const fine = await influxd.query('SELECT count(n) FROM "fine"', "agent_conflict");
    expect(fine.results[0]?.series?.[0]?.values[0]?.[1]).toBe(40);
    expect(agentDestinations.stats().timeseriesdb).toMatchObject({
      written: 40,
      rejected: 10,
      refused: { field_type_conflict: 10 },
    });
    const [line, ...more] = logger.at("error").filter((entry) => entry.message.includes("refused"));
    expect(more).toEqual([]);
    expect(line?.fields).toMatchObject({
      destination: "timeseriesdb",
      reason: "field_type_conflict",
      refused: 2,
    });
    expect(String(line?.fields?.preview)).toMatch(/^conflicting n=0i /);
  });
});
