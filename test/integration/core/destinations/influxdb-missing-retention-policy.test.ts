/**
 * A database that exists without the configured retention policy, on Debian's InfluxDB 1.x:
 * another tool created it, so it has only its own policies, and InfluxDB answers every write
 * naming the configured one `retention policy not found`. The audit destination says once at
 * ERROR what to do (the database's policies, the statement that creates the policy, the setting
 * to change instead), leaves the database as it is, keeps the events and retries them as for an
 * outage, and writes them once the operator has created the policy.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectDestinations } from "../../../../core/destinations/select-destinations.ts";
import { startAuditDestinations } from "../../../../core/destinations/start-audit-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { localDestinationAdapters } from "../../../../local/audit/destination-adapters.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { destinationConfig } from "../../../helpers/destination-config.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";
import { timeseriesConfig } from "../../../helpers/timeseries-config.ts";

const { skip, influxd } = influxdForSuite();
const DATABASE = "made_by_another_tool";
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "steward-missing-rp-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The database's retention policies, as `name` or `name (default)`. */
async function policiesOf(database: string): Promise<string[]> {
  const shown = await influxd.query(`SHOW RETENTION POLICIES ON "${database}"`);
  return (shown.results[0]?.series?.[0]?.values ?? []).map(
    (row) => `${String(row[0])}${row[4] === true ? " (default)" : ""}`,
  );
}

/** The eventIds of the audit points in the policy Steward writes to (not the database's default). */
async function auditRpEventIds(): Promise<string[]> {
  const answer = await influxd.query(`SELECT "eventId" FROM "audit_rp"."audit_event"`, DATABASE);
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => String(row[1]));
}

describe.skipIf(skip)("an InfluxDB 1.x database without the configured retention policy", () => {
  it("is named once at ERROR with what to do, retried as an outage, and written once the policy exists", async () => {
    // Prepare: the database as another tool left it (autogen, its default, and one of its own).
    await influxd.query(`CREATE DATABASE "${DATABASE}"`);
    await influxd.query(`CREATE RETENTION POLICY "month" ON "${DATABASE}" DURATION 30d REPLICATION 1`);
    const connection = timeseriesConfig(1, influxd.port);
    const timeseries = {
      ...connection,
      v1Config: {
        ...connection.v1Config,
        dbName: DATABASE,
        retentionPolicy: { name: "audit_rp", duration: "30d" },
      },
    };
    const config = destinationConfig(["timeseriesdb"], root);
    const logger = recordingLogger();
    const destinations = await startAuditDestinations({
      destinations: selectDestinations(
        { ...config, timeseriesdb: { ...config.timeseriesdb, writeFrequency: 0 } },
        timeseries,
        localDestinationAdapters({ cwd: root, logger }),
      ),
      clock: systemClock,
      logger,
      initialRetryDelayMs: 20,
    });
    const event = acceptedEvent({ timestamp: new Date().toISOString() });

    // Act: an event arrives, and its writes fail a few times
    await destinations.handleEvent(event);
    await until(() => (destinations.stats().timeseriesdb?.failedWrites ?? 0) >= 3, 10_000, 20);
    const errors = logger.at("error");
    const policiesMeanwhile = await policiesOf(DATABASE);
    await influxd.query(`CREATE RETENTION POLICY "audit_rp" ON "${DATABASE}" DURATION 30d REPLICATION 1`);
    await until(async () => (await auditRpEventIds()).includes(event.envelope.eventId), 10_000, 50);
    await destinations.stop();

    // Assess
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(error?.message).toContain(`InfluxDB database "${DATABASE}" has no retention policy "audit_rp"`);
    expect(error?.message).toContain("its policies: autogen (default), month");
    expect(error?.message).toContain(
      `CREATE RETENTION POLICY "audit_rp" ON "${DATABASE}" DURATION 30d REPLICATION 1`,
    );
    expect(error?.message).toContain("set timeseriesdbConfig.v1Config.retentionPolicy.name to one of");
    expect(error?.message).toContain('or to "" to write to its default policy');
    expect(error?.fields).toEqual({
      database: DATABASE,
      retentionPolicy: "audit_rp",
      policies: "autogen (default), month",
    });
    expect(policiesMeanwhile).toEqual(["autogen (default)", "month"]);
    expect(destinations.stats().timeseriesdb).toMatchObject({ written: 1, rejected: 0 });
  });
});
