/**
 * InfluxDB 1.x with a `max-values-per-tag` of 20: the audit destination stores thousands of
 * events (their identifiers are fields, not tags), and the events over the limit of a tag that is
 * a tag are refused on their own while every good event beside them is stored.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { influxEventIdRows } from "../../../helpers/audit-destination-contents.ts";
import { acceptedEvent, COLLIDING_EVENT_IDS } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const LIMIT = 20;
const { skip, influxd } = influxdForSuite({ env: { INFLUXDB_DATA_MAX_VALUES_PER_TAG: String(LIMIT) } });
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-tag-limit-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function auditInto(dbName: string, maxBatchSize: number) {
  const logger = recordingLogger();
  const config = destinationConfig(["timeseriesdb"], root);
  const connection = timeseriesConfig(1, influxd.port);
  const destinations = await startAuditDestinations({
    destinations: selectDestinations(
      { ...config, timeseriesdb: { ...config.timeseriesdb, maxBatchSize, writeFrequency: 60_000 } },
      { ...connection, v1Config: { ...connection.v1Config, dbName } },
      localDestinationAdapters({ cwd: root, logger }),
    ),
    clock: systemClock,
    logger,
  });
  return { destinations, logger };
}

// Within the test database's 30 days, spread over a minute: many events share a millisecond.
const recent = (i: number) => new Date(Date.now() - 120_000 + (i % 60_000)).toISOString();

describe.skipIf(skip)(`InfluxDB 1.x with max-values-per-tag = ${LIMIT}`, () => {
  it("stores 2,000 audit events, each with its own eventId, correlationId and selectionTxnId", async () => {
    const { destinations, logger } = await auditInto("tag_limit_many", 500);
    const events = Array.from({ length: 2000 }, (_, i) =>
      acceptedEvent({ timestamp: recent(Math.floor(i / 4)), correlationId: `corr-${i}` }),
    );

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    const stored = await influxEventIdRows(influxd, "tag_limit_many");
    expect(stored).toHaveLength(2000);
    expect(new Set(stored)).toEqual(new Set(events.map((event) => event.envelope.eventId)));
    expect(destinations.stats().timeseriesdb).toMatchObject({ written: 2000, rejected: 0 });
    expect(logger.at("error")).toEqual([]);
    const series = await influxd.query('SHOW SERIES CARDINALITY FROM "audit_event"', "tag_limit_many");
    expect(series.results[0]?.series?.[0]?.values[0]?.[0]).toBe(1);
  });

  it("stores two events of one series and millisecond whose eventIds give the same nanosecond, both", async () => {
    const { destinations } = await auditInto("tag_limit_colliding", 500);
    const ids = [...COLLIDING_EVENT_IDS];
    const events = ids.map((eventId) => acceptedEvent({ eventId, timestamp: recent(0) }));

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    expect(new Set(await influxEventIdRows(influxd, "tag_limit_colliding"))).toEqual(new Set(ids));
  });

  it("refuses the events over the limit of a real tag and stores every good event beside them", async () => {
    const { destinations, logger } = await auditInto("tag_limit_mixed", 25);
    // Good events name one app; every fifth event names an app of its own: 40 new tag values.
    const events = Array.from({ length: 200 }, (_, i) =>
      acceptedEvent({
        timestamp: recent(i),
        payload: { context: { appName: i % 5 === 0 ? `app-${i}` : "Sales" }, event: { objectId: "o" } },
      }),
    );

    for (const event of events) await destinations.handleEvent(event);
    await destinations.stop();

    const stored = new Set(await influxEventIdRows(influxd, "tag_limit_mixed"));
    const good = events.filter((_, i) => i % 5 !== 0);
    for (const event of good) expect(stored.has(event.envelope.eventId)).toBe(true);
    // About 20 values fit ("Sales" and the first app names; the limit is soft within a request):
    // every event not stored is counted as refused, and every one counted is not stored.
    const refused = events.length - stored.size;
    expect(refused).toBeGreaterThanOrEqual(40 - LIMIT);
    expect(destinations.stats().timeseriesdb).toMatchObject({
      written: stored.size,
      rejected: refused,
      failedWrites: 0,
      refused: { max_values_per_tag: refused },
    });
    const [line] = logger.at("error");
    expect(line?.fields).toMatchObject({ reason: "max_values_per_tag" });
    expect(String(line?.fields?.detail)).toContain('tag="appName"');
  });
});
