/**
 * Polling a simulated tenant from persisted cursors (the local cursor files and run store), with
 * a clock moved by hand: a first start reads back `initialHours` and no further, a restart goes on
 * from its cursors and hands nothing on twice, a run the webhook took first is a duplicate, and a
 * round that fails leaves its cursor where it was.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openCloudCursorFiles } from "../../../../core/adapters/local/cloud-cursor-files.ts";
import { openFileKeyValueStore } from "../../../../core/adapters/local/file-key-value-store.ts";
import { createTenantHttpClient } from "../../../../core/adapters/qlik-cloud/tenant-http-client.ts";
import type { KeyValueStore } from "../../../../core/ports.ts";
import { createCloudInputMonitor } from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import type { CloudReloadRun } from "../../../../core/qlik-cloud/cloud-reload-run.ts";
import { createCloudRunInbox } from "../../../../core/qlik-cloud/cloud-run-inbox.ts";
import { createCloudRunIntake } from "../../../../core/qlik-cloud/cloud-run-intake.ts";
import { SETTLE_MS, startTenantPolling } from "../../../../core/qlik-cloud/tenant-polling.ts";
import { parseRecurrence } from "../../../../core/shared/recurrence.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { until } from "../../../helpers/eventually.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";
import { createWaitingClock, type WaitingClock } from "../../../helpers/waiting-clock.ts";

const scratch = suiteScratchDirectory("steward-cloud-polling-");
const HOUR = 3_600_000;

let cloud: SimulatedCloud;
let tenant: SimulatedTenant;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
  tenant = cloud.tenants[0] as SimulatedTenant;
});
afterAll(() => cloud.stop());
beforeEach(() => {
  tenant.state.reloads.length = 0;
  tenant.state.calls.length = 0;
  tenant.state.faults.serverErrors = 0;
});

/** One start of the poller over the files in `directory`; stop() closes everything. */
async function startPoller(
  directory: string,
  clock: WaitingClock,
  clientSecret = tenant.fixture.clientSecret,
) {
  const store: KeyValueStore = await openFileKeyValueStore({
    file: join(directory, "runs.json"),
    clock,
    maxKeysPerNamespace: 1000,
  });
  const cursors = await openCloudCursorFiles(join(directory, "cursors"));
  const monitor = createCloudInputMonitor(createMemoryMetricsRegistry(), clock);
  const handled: CloudReloadRun[] = [];
  const logger = recordingLogger();
  const intake = createCloudRunIntake({
    inbox: createCloudRunInbox(store),
    handler: async (run) => void handled.push(run),
    monitor,
    logger,
  });
  const client = createTenantHttpClient({
    tenant: "sim-a",
    url: tenant.url,
    credential: { oauth: { clientId: tenant.fixture.clientId, clientSecret } },
    clock,
    events: monitor,
    timeoutMs: 5000,
  });
  const polling = await startTenantPolling({
    tenant: "sim-a",
    client,
    recurrence: parseRecurrence("every 5 minutes"),
    initialHours: 24,
    cursors,
    intake,
    monitor,
    clock,
    logger,
  });
  const roundsDone = () => Object.keys(monitor.status("sim-a").cursors).length === 2;
  return {
    intake,
    handled,
    monitor,
    logger,
    roundsDone,
    async stop() {
      await polling.stop();
      await intake.stop();
      await store.close();
    },
  };
}

const ended = (clock: WaitingClock, agoMs: number, status: "FAILED" | "SUCCEEDED" = "FAILED") =>
  tenant.finishReload({ status, endMs: clock.now() - agoMs });

describe("polling a tenant", () => {
  it("reads back initialHours on a first start and no further, and persists its cursors", async () => {
    const directory = scratch.fresh();
    const clock = createWaitingClock();
    const recent = [ended(clock, HOUR / 2), ended(clock, 3 * HOUR, "SUCCEEDED")];
    ended(clock, 30 * HOUR);

    const poller = await startPoller(directory, clock);
    await until(poller.roundsDone);
    await poller.stop();

    expect(poller.handled.map((run) => run.reloadId).sort()).toEqual(
      recent.map((reload) => reload.id).sort(),
    );
    const cursor = JSON.parse(await readFile(join(directory, "cursors", "sim-a.reloads.json"), "utf8"));
    expect(cursor).toEqual({
      tenant: "sim-a",
      input: "reloads",
      readUpTo: new Date(clock.now() - SETTLE_MS).toISOString(),
    });
    expect((await stat(join(directory, "cursors", "sim-a.audits.json"))).mode & 0o777).toBe(0o600);
    expect(tenant.state.calls).toContain(
      `GET /api/v1/audits?eventType=com.qlik.v1.reload.finished&eventTime=${encodeURIComponent(
        `${new Date(clock.now() - 24 * HOUR).toISOString()}/${new Date(clock.now()).toISOString()}`,
      )}&sort=%2BeventTime&limit=100`,
    );
  });

  it("goes on from its cursors after a restart, handing on only what is new", async () => {
    const directory = scratch.fresh();
    const clock = createWaitingClock();
    ended(clock, HOUR);
    const first = await startPoller(directory, clock);
    await until(first.roundsDone);
    await first.stop();

    clock.advance(20 * 60_000);
    const later = ended(clock, 5 * 60_000);
    const second = await startPoller(directory, clock);
    await until(() => second.roundsDone() && second.handled.length === 1);
    await second.stop();

    expect(first.handled).toHaveLength(1);
    expect(second.handled.map((run) => run.reloadId)).toEqual([later.id]);
    expect(second.monitor.status("sim-a").events).toEqual({ "poll.processed": 1 });
  });

  it("marks the runs a new tenant's first look-back finds from before, and none once it has a cursor", async () => {
    const directory = scratch.fresh();
    const clock = createWaitingClock();
    const old = [ended(clock, HOUR), ended(clock, 2 * HOUR, "SUCCEEDED"), ended(clock, 3 * HOUR)];
    const first = await startPoller(directory, clock);
    await until(first.roundsDone);
    await first.stop();

    clock.advance(10 * 60_000);
    const later = ended(clock, 60_000);
    const second = await startPoller(directory, clock);
    await until(() => second.roundsDone() && second.handled.length === 1);
    await second.stop();

    expect(first.handled.map((run) => [run.reloadId, run.firstLookBack]).sort()).toEqual(
      old.map((reload) => [reload.id, true]).sort(),
    );
    expect(second.handled.map((run) => [run.reloadId, run.firstLookBack])).toEqual([[later.id, undefined]]);
    // One line per input that took some of them first (the two inputs read side by side).
    const said = first.logger
      .at("info")
      .filter((line) => line.message.startsWith("First look-back of a newly polled Qlik Cloud tenant"));
    expect(said[0]?.message).toBe(
      "First look-back of a newly polled Qlik Cloud tenant: its failed and canceled runs from before are recorded, not alerted",
    );
    expect(said.reduce((sum, line) => sum + Number(line.fields?.runs), 0)).toBe(2);
    expect(said[0]?.fields).toMatchObject({ tenant: "sim-a", hours: 24 });
    expect(second.logger.at("info")).toEqual([]);
  });

  it("counts a run the webhook took first as a duplicate, once", async () => {
    const directory = scratch.fresh();
    const clock = createWaitingClock();
    const reload = ended(clock, 60_000);
    const store = await openFileKeyValueStore({
      file: join(directory, "runs.json"),
      clock,
      maxKeysPerNamespace: 10,
    });
    await createCloudRunInbox(store).take({
      tenant: "sim-a",
      reloadId: reload.id,
      appId: reload.appId,
      kind: "reloadTaskFailure",
      status: "FAILED",
      finishedAt: reload.endTime,
      source: "webhook",
      input: "webhook",
      receivedAt: reload.endTime,
    });
    await store.close();

    const poller = await startPoller(directory, clock);
    await until(poller.roundsDone);
    await poller.stop();

    expect(poller.handled).toEqual([]);
    expect(poller.monitor.status("sim-a").events).toEqual({ "poll.duplicate": 1 });
  });

  it("leaves the cursor where it was when a round fails, and says why", async () => {
    const directory = scratch.fresh();
    const clock = createWaitingClock();
    const first = await startPoller(directory, clock);
    await until(first.roundsDone);
    await first.stop();
    const before = await readFile(join(directory, "cursors", "sim-a.reloads.json"), "utf8");

    clock.advance(HOUR);
    const failing = await startPoller(directory, clock, "wrong-secret");
    await until(() => failing.logger.at("warn").length === 2);
    await failing.stop();

    expect(await readFile(join(directory, "cursors", "sim-a.reloads.json"), "utf8")).toBe(before);
    const status = failing.monitor.status("sim-a");
    expect(status.cursors.reloads?.lagSeconds).toBe((HOUR + SETTLE_MS) / 1000);
    expect(status.lastError?.message).toMatch(
      /^polling (reloads|audits) failed: TenantApiError: Qlik Cloud tenant sim-a: POST \/oauth\/token answered 401: invalid client$/,
    );
    expect(failing.logger.at("warn")[0]?.message).toBe(
      "A Qlik Cloud poll round failed; the next round reads the same time again",
    );
  });
});
