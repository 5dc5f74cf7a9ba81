/**
 * The polling function reads the Qlik Cloud tenants' licences through its Lambda handler, as its
 * entry point builds it, against two simulated tenants, dynalite for the Qlik Cloud and schedule
 * tables and InfluxDB 1.x for the points: once per period of `licenseMonitor.frequency` (every 6
 * hours by default), not at every 5-minute invocation, each tenant's allotments written as
 * `qlik_sense_license` points tagged with it; a tenant whose licence call failed is tried again at
 * the next invocation, without holding up the other. Time is moved by a clock ahead of the real one
 * (its timers are real, for the calls over loopback).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoCloudCursorStore } from "../../../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoScheduleLease } from "../../../../core/adapters/aws/dynamo-schedule-lease.ts";
import type { Clock } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { cloudFunctionParts } from "../../../../functions/qlik-cloud/cloud-function-parts.ts";
import { createPollLambda, type PollLambda } from "../../../../functions/qlik-cloud/poll-lambda.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { cloudFunctionConfig } from "../../../helpers/qlik-cloud-functions.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";

const DATABASE = "steward_cloud_licences";
const TABLE = "qlik-cloud";
const SCHEDULES = "schedules";
const RATE_LIMITS = "rate-limit";
const MINUTE = 60_000;
const SLOT_MS = 5 * MINUTE;
const { skip, influxd } = influxdForSuite();

let cloud: SimulatedCloud;
let a: SimulatedTenant;
let b: SimulatedTenant;
let dynamo: DynaliteServer;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  [a, b] = cloud.tenants as [SimulatedTenant, SimulatedTenant];
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, "pk", "sk");
  await dynamo.createTable(SCHEDULES, "id");
  await dynamo.createTable(RATE_LIMITS, "pk");
});
afterAll(async () => {
  await cloud?.stop();
  await dynamo?.close();
});

/** Real time moved to `atMs`: the handler's `now`, with real timers. */
function clockAt(atMs: number): Clock & { moveTo(ms: number): void } {
  let offset = atMs - Date.now();
  return {
    now: () => Date.now() + offset,
    setTimeout: (callback, ms) => systemClock.setTimeout(callback, ms),
    clearTimeout: (handle) => systemClock.clearTimeout(handle),
    moveTo(ms) {
      offset = ms - Date.now();
    },
  };
}

async function pollInstance(clock: Clock): Promise<PollLambda> {
  const parts = await cloudFunctionParts({
    configText: cloudFunctionConfig(cloud.tenants, {
      captureUrl: "http://127.0.0.1:9",
      influxPort: influxd.port,
      database: DATABASE,
    }),
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    rateLimitTable: RATE_LIMITS,
    clock,
    writeMetrics: () => undefined,
  });
  return createPollLambda({
    input: parts.input,
    cursors: createDynamoCloudCursorStore({ client: dynamo.client, tableName: TABLE }),
    lease: createDynamoScheduleLease({ client: dynamo.client, tableName: SCHEDULES, owner: "one" }),
    clock,
    slotMs: SLOT_MS,
  });
}

/** How many times each licence type of `tenant` was written. */
async function pointCounts(tenant: string): Promise<Record<string, number>> {
  const answer = await influxd.query(
    `SELECT count(total) FROM qlik_sense_license WHERE tenant = '${tenant}' GROUP BY license_type`,
    DATABASE,
  );
  return Object.fromEntries(
    (answer.results[0]?.series ?? []).map((series) => [
      (series as unknown as { tags: Record<string, string> }).tags.license_type,
      series.values?.[0]?.[1],
    ]),
  );
}

const overviewCalls = (tenant: SimulatedTenant) =>
  tenant.state.calls.filter((call) => call.startsWith("GET /api/v1/licenses/overview")).length;

describe.skipIf(skip)("the Qlik Cloud polling function's licence reading", () => {
  it("writes each tenant's licences once per licence period, not at every invocation, and retries a failed one at the next", async () => {
    const start = Date.UTC(2026, 11, 6, 6, 1);
    const clock = clockAt(start);
    const poll = await pollInstance(clock);
    const invokeAt = async (ms: number) => {
      clock.moveTo(ms);
      return poll({ time: new Date(ms).toISOString() });
    };
    b.state.licences.missing = true;

    expect(await invokeAt(start)).toEqual({ "sim-a": "polled", "sim-b": "polled" });
    expect(await pointCounts("sim-a")).toEqual({ analyzer: 1, analyzer_time: 1, professional: 1 });
    expect(await pointCounts("sim-b")).toEqual({});

    b.state.licences.missing = false;
    await invokeAt(start + 5 * MINUTE);
    await invokeAt(start + 10 * MINUTE);
    await invokeAt(start + 5 * 60 * MINUTE + 55 * MINUTE);

    expect(await pointCounts("sim-a")).toEqual({ analyzer: 1, analyzer_time: 1, professional: 1 });
    expect(await pointCounts("sim-b")).toEqual({ analyzer: 1, analyzer_time: 1, professional: 1 });
    expect([overviewCalls(a), overviewCalls(b)]).toEqual([1, 2]);

    // 12:00 UTC is the next occurrence of "every 6 hours" after both readings.
    await invokeAt(start + 6 * 60 * MINUTE + 4 * MINUTE);
    await invokeAt(start + 6 * 60 * MINUTE + 9 * MINUTE);

    expect(await pointCounts("sim-a")).toEqual({ analyzer: 2, analyzer_time: 2, professional: 2 });
    expect(await pointCounts("sim-b")).toEqual({ analyzer: 2, analyzer_time: 2, professional: 2 });
    expect([overviewCalls(a), overviewCalls(b)]).toEqual([2, 3]);
  });
});
