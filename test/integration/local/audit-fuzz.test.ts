/**
 * Audit events with extreme shapes (extreme-audit-events.ts: depth at and around the 64-level
 * limit, width, long strings, unusual Unicode, numbers at the limits) posted to `steward start`
 * with every audit destination selected: Parquet, table files (QVD), objectData JSON files and
 * Debian's InfluxDB 1.x, through the durable queue. Nothing stalls: every destination's cursor
 * reaches the end of the log. Every event is accounted for: each answer is 202 or a 4xx (400
 * naming the pointer for exactly the events nested deeper than 64 levels), and per destination
 * the accepted events are the written ones plus the refused ones, each refusal counted; what a
 * destination counts as written is in its files or its database. Seeded: the seed is printed
 * when the test fails, and `STEWARD_FUZZ_SEED=<seed>` replays it.
 */
import { join } from "node:path";
import { describe, expect, it, onTestFailed } from "vitest";
import {
  influxEventIds,
  jsonEventIds,
  parquetEventIds,
  qvdEventIds,
} from "../../helpers/audit-destination-contents.ts";
import { writeAuditLoadConfig } from "../../helpers/audit-load-config.ts";
import { until } from "../../helpers/eventually.ts";
import { type ExtremeEvent, extremeEvents, fuzzSeed } from "../../helpers/extreme-audit-events.ts";
import { freePort } from "../../helpers/free-port.ts";
import { expectNoCrash } from "../../helpers/ingest-client.ts";
import { stewardStatus } from "../../helpers/json-destination-steward.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

const DESTINATIONS = ["parquet", "tablefile", "json", "timeseriesdb"] as const;
const EVENTS = 120;

interface Answer {
  event: ExtremeEvent;
  status: number;
  reason: string;
}

async function post(url: string, event: ExtremeEvent): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
      body: event.text,
    });
    const body = (await response.json()) as { reason?: string };
    return { event, status: response.status, reason: body.reason ?? "" };
  } catch (error) {
    return { event, status: 0, reason: String(error) };
  }
}

/** The deepest nesting the generator gave the event, 0 when it gave none. */
const depthOf = (event: ExtremeEvent) =>
  Math.max(0, ...event.shapes.map((shape) => Number(/^depth (\d+)$/.exec(shape)?.[1] ?? 0)));

async function auditStatus(port: number) {
  const status = await stewardStatus(port);
  const audit = status.audit as { queue: { destinations: Record<string, { behindBytes: number }> } };
  return {
    destinations: status.destinations as Record<
      string,
      { written: number; rejected: number; skipped?: { events: number } } | undefined
    >,
    behind: audit.queue.destinations,
  };
}

describe.skipIf(skip)("audit events with extreme shapes through every audit destination", () => {
  it("stalls no destination, and accounts for every event: written, skipped or refused and counted", async () => {
    // Prepare
    const seed = fuzzSeed();
    onTestFailed(() => {
      console.error(`audit fuzz failed with seed ${seed}; replay: STEWARD_FUZZ_SEED=${seed}`);
    });
    const events = extremeEvents(seed, EVENTS);
    const dir = scratchDirectory("steward-fuzz-");
    const database = "steward_fuzz";
    const ports = { ingest: await freePort(), rest: await freePort(), ui: await freePort() };
    writeAuditLoadConfig(dir, {
      ports,
      type: DESTINATIONS.join(","),
      influx: { port: influxd.port, database },
      parquetWriteFrequency: 500,
      ui: ports.ui,
    });
    const steward = await startStewardIn(dir);
    const url = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;

    // Act
    const answers: Answer[] = [];
    for (const event of events) answers.push(await post(url, event));
    const drained = await until(
      async () =>
        Object.values((await auditStatus(ports.ui)).behind).every(({ behindBytes }) => behindBytes === 0),
      60_000,
      200,
    ).then(
      () => true,
      () => false,
    );
    const status = await auditStatus(ports.ui);
    steward.child.kill("SIGTERM");
    const { code } = await steward.exited(20_000);

    // Assess
    const context = `seed ${seed}`;
    const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.event);
    const acceptedIds = new Set(accepted.map((event) => event.eventId));
    const unexpected = answers.filter(({ status }) => status !== 202 && (status < 400 || status >= 500));
    expect(
      unexpected.map(({ event, status, reason }) => ({ shapes: event.shapes, status, reason })),
      context,
    ).toEqual([]);
    const tooDeep = answers.filter(({ reason }) =>
      reason.startsWith("JSON nested deeper than 64 levels at /payload/"),
    );
    expect(
      tooDeep.map(({ event }) => event.eventId),
      context,
    ).toEqual(answers.filter(({ event }) => depthOf(event) > 64).map(({ event }) => event.eventId));
    expect(
      tooDeep.every(({ status }) => status === 400),
      context,
    ).toBe(true);
    expect(accepted.length, context).toBeGreaterThan(EVENTS / 3);
    expect({ drained, behind: status.behind }, context).toMatchObject({ drained: true });
    for (const name of DESTINATIONS) {
      const { written = -1, rejected = -1, skipped } = status.destinations[`audit.${name}`] ?? {};
      const counted = written + rejected + (skipped?.events ?? 0);
      expect({ name, counted }, context).toEqual({ name, counted: accepted.length });
    }
    const stored = {
      parquet: await parquetEventIds(join(dir, "out", "parquet")),
      tablefile: qvdEventIds(join(dir, "out", "tablefile")),
      timeseriesdb: [...(await influxEventIds(influxd, database))],
    };
    for (const [name, ids] of Object.entries(stored)) {
      expect({ name, rows: ids.length, distinct: new Set(ids).size }, context).toEqual({
        name,
        rows: status.destinations[`audit.${name}`]?.written,
        distinct: ids.length,
      });
      expect(
        ids.filter((id) => !acceptedIds.has(id)),
        `${context}: ${name}`,
      ).toEqual([]);
    }
    const withObjectData = accepted.filter((event) => event.carriesObjectData).length;
    const jsonFiles = jsonEventIds(join(dir, "out", "json"));
    expect(jsonFiles.length, context).toBe(
      withObjectData - (status.destinations["audit.json"]?.rejected ?? 0),
    );
    // Counted written only for the files there are; the events without objectData are skipped.
    expect(status.destinations["audit.json"], context).toMatchObject({
      written: jsonFiles.length,
      skipped: { events: accepted.length - withObjectData },
    });
    expect(code, context).toBe(0);
    expectNoCrash(steward.output());
  }, 180_000);
});
