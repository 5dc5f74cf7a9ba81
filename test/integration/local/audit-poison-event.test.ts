/**
 * One audit event nested 100,000 brackets deep, which no destination can encode (JSON.stringify
 * throws a RangeError), seen from outside with `steward start` and the durable queue:
 * - posted between two good events, it is refused at ingest with 400 and the pointer where it
 *   passed 64 levels, and both good events reach Parquet and the JSON files in one write;
 * - already in the durable log (written there as an older version took it), Parquet, QVD, JSON
 *   and InfluxDB 1.x each refuse it once, counted and named in one ERROR line, write the good
 *   events around it and move their cursors past it; after a restart nothing is refused again
 *   and nothing is written twice.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDurableEventQueue } from "../../../core/adapters/local/durable-queue/durable-event-queue.ts";
import { openDurableLog } from "../../../core/adapters/local/durable-queue/durable-log.ts";
import type { AcceptedEvent, AuditEnvelope } from "../../../core/audit/accepted-event.ts";
import { systemClock } from "../../../core/system-clock.ts";
import {
  filesUnder,
  influxEventIdRows,
  jsonEventIds,
  parquetEventIds,
  qvdEventIds,
} from "../../helpers/audit-destination-contents.ts";
import { nestedEnvelopeText } from "../../helpers/audit-envelopes.ts";
import { writeAuditLoadConfig } from "../../helpers/audit-load-config.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import {
  freeStewardPorts,
  stewardStatus,
  writeJsonDestinationConfig,
} from "../../helpers/json-destination-steward.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

interface DestinationStatus {
  written: number;
  rejected: number;
  refused?: Record<string, number>;
}

/** The status page's destinations and the durable queue's backlog per destination. */
async function auditStatus(port: number) {
  const status = await stewardStatus(port);
  const audit = status.audit as { queue: { destinations: Record<string, { behindBytes: number }> } };
  return {
    destinations: status.destinations as Record<string, DestinationStatus | undefined>,
    behind: Object.values(audit.queue.destinations).map((destination) => destination.behindBytes),
  };
}

/** POSTs `text` as it is to the ingest API. */
async function postText(
  url: string,
  text: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
    body: text,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function stop(steward: StewardProcess): Promise<number | null> {
  steward.child.kill("SIGTERM");
  return (await steward.exited(20_000)).code;
}

describe("an event nested 100,000 brackets deep, posted to steward start with Parquet and JSON", () => {
  it("is refused at ingest with the pointer, and both good events are written to both in one write", async () => {
    // Prepare
    const dir = scratchDirectory("steward-poison-ingest-");
    const ports = await freeStewardPorts();
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    writeJsonDestinationConfig(dir, {
      ports,
      queueDirectory: "./data/audit-queue",
      parquet: { exportDirectory: "./out/parquet", writeFrequency: 1000 },
    });
    const good = [randomUUID(), randomUUID()];
    const steward = await startStewardIn(dir);

    // Act: good, poison, good, as the reproduction posts them
    const first = await postEvent(url, eventWithId(good[0] as string));
    const poison = await postText(url, nestedEnvelopeText(randomUUID(), 100_000));
    const second = await postEvent(url, eventWithId(good[1] as string));
    const parquet = join(dir, "out", "parquet");
    await until(async () => filesUnder(dir, ".parquet").length > 0, 10_000, 50);
    await until(() => jsonEventIds(join(dir, "out", "json")).length === 2, 5000, 50);
    const status = await auditStatus(ports.ui);
    const code = await stop(steward);

    // Assess
    const pointer = `/payload/event/objectData/a${"/0".repeat(60)}`;
    expect([first.status, poison.status, second.status]).toEqual([202, 400, 202]);
    expect(poison.body).toMatchObject({
      outcome: "dropped",
      reason: `JSON nested deeper than 64 levels at ${pointer}`,
      details: { maxDepth: 64, errors: [{ instancePath: pointer }] },
    });
    // One Parquet file: both events were written by the first write, a second after the first event.
    expect(filesUnder(parquet, ".parquet")).toHaveLength(1);
    expect((await parquetEventIds(parquet)).sort()).toEqual([...good].sort());
    expect(jsonEventIds(join(dir, "out", "json")).sort()).toEqual([...good].sort());
    expect(status.destinations["audit.parquet"]).toMatchObject({ written: 2, rejected: 0 });
    expect(status.destinations["audit.json"]).toMatchObject({ written: 2, rejected: 0 });
    expect(status.behind).toEqual([0, 0]);
    expect(code).toBe(0);
    expectNoCrash(steward.output());
  }, 60_000);
});

const ALL_DESTINATIONS = ["parquet", "tablefile", "json", "timeseriesdb"] as const;

/** Writes good, poison, good into the durable log under `dir`, as an older Steward took them. */
async function writeOlderLog(dir: string, ids: { good: string[]; poison: string }): Promise<void> {
  const log = await openDurableLog({
    directory: join(dir, "data", "audit-queue"),
    destinations: ALL_DESTINATIONS,
    maxDiskBytes: 64 * 1024 * 1024,
    clock: systemClock,
    logger: recordingLogger(),
  });
  const queue = createDurableEventQueue(
    { backpressureThreshold: 100, rateLimit: { enable: false, maxPerMinute: 600 } },
    {
      log,
      destinations: ALL_DESTINATIONS,
      deliver: async () => undefined,
      logger: recordingLogger(),
      clock: systemClock,
    },
  );
  const texts = [
    JSON.stringify(eventWithId(ids.good[0] as string)),
    nestedEnvelopeText(ids.poison, 100_000),
    JSON.stringify(eventWithId(ids.good[1] as string)),
  ];
  for (const text of texts) {
    const event: AcceptedEvent = {
      envelope: JSON.parse(text) as AuditEnvelope,
      receivedAt: new Date().toISOString(),
      clientIp: "127.0.0.1",
    };
    // The request's own text, as ingest stores it: the queue need not encode the event.
    expect(await queue.enqueue(event, text)).toBe("queued");
  }
  await queue.stop();
  await log.close();
}

/** What each destination holds, by eventId, one entry per row or point. */
async function storedIds(dir: string, database: string): Promise<Record<string, string[]>> {
  return {
    parquet: (await parquetEventIds(join(dir, "out", "parquet"))).sort(),
    tablefile: qvdEventIds(join(dir, "out", "tablefile")).sort(),
    json: jsonEventIds(join(dir, "out", "json")).sort(),
    timeseriesdb: (await influxEventIdRows(influxd, database)).sort(),
  };
}

describe.skipIf(skip)("a durable log that already holds such an event", () => {
  it("drains past it: each destination refuses it once and writes the good events, and a restart refuses nothing again", async () => {
    // Prepare
    const dir = scratchDirectory("steward-poison-log-");
    const database = "steward_poison_log";
    const ports = { ingest: await freePort(), rest: await freePort(), ui: await freePort() };
    writeAuditLoadConfig(dir, {
      ports,
      type: ALL_DESTINATIONS.join(","),
      influx: { port: influxd.port, database },
      parquetWriteFrequency: 500,
      ui: ports.ui,
    });
    mkdirSync(join(dir, "out"));
    const ids = { good: [randomUUID(), randomUUID()], poison: randomUUID() };
    await writeOlderLog(dir, ids);
    const expected = [...ids.good].sort();
    const all = Object.fromEntries(ALL_DESTINATIONS.map((name) => [name, expected]));

    // Act: start on that log; then again, and one new event through the pipeline
    const first = await startStewardIn(dir);
    await until(async () => (await auditStatus(ports.ui)).behind.every((bytes) => bytes === 0), 20_000, 100);
    const drained = await auditStatus(ports.ui);
    const storedFirst = await storedIds(dir, database);
    const firstCode = await stop(first);
    const second = await startStewardIn(dir);
    const later = randomUUID();
    const answer = await postEvent(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, eventWithId(later));
    await until(
      async () => {
        const stored = await storedIds(dir, database);
        return Object.values(stored).every((held) => held.includes(later));
      },
      20_000,
      100,
    );
    const afterRestart = await auditStatus(ports.ui);
    const storedSecond = await storedIds(dir, database);
    const secondCode = await stop(second);

    // Assess
    expect(storedFirst).toEqual(all);
    for (const name of ALL_DESTINATIONS) {
      expect({ name, ...drained.destinations[`audit.${name}`] }).toMatchObject({
        name,
        written: 2,
        rejected: 1,
        refused: { unencodable: 1 },
      });
    }
    const refusals = logLines(first.output(), "error", /refused audit events/);
    expect(refusals).toHaveLength(ALL_DESTINATIONS.length);
    for (const name of ALL_DESTINATIONS) {
      expect(refusals.filter((line) => line.includes(`destination=${name} `))).toHaveLength(1);
    }
    expect(refusals.every((line) => line.includes("reason=unencodable") && line.includes(ids.poison))).toBe(
      true,
    );
    expect(answer.status).toBe(202);
    expect(storedSecond).toEqual(
      Object.fromEntries(ALL_DESTINATIONS.map((name) => [name, [...expected, later].sort()])),
    );
    expect(logLines(second.output(), "error", /refused/)).toEqual([]);
    for (const name of ALL_DESTINATIONS) {
      expect({ name, ...afterRestart.destinations[`audit.${name}`] }).toMatchObject({
        name,
        written: 1,
        rejected: 0,
      });
    }
    expect([firstCode, secondCode]).toEqual([0, 0]);
    expectNoCrash(first.output() + second.output());
  }, 90_000);
});
