/**
 * What a tenant's run becomes besides its log line, against the loopback tenant: a failed run's
 * alert completed through the tenant's API (app, owner, who reloaded, script log) and handed to
 * the dispatcher once; an alert with what is known when the lookups fail; no alert for a
 * success; and the `reload_task_failed` point under the site's measurement, tagged with the tenant,
 * also for a failed run of a new tenant's first look-back, which is not alerted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantHttpClient } from "../../../../core/adapters/qlik-cloud/tenant-http-client.ts";
import type { Alert } from "../../../../core/alerts/index.ts";
import { createCloudInputMonitor } from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import type { CloudReloadRun } from "../../../../core/qlik-cloud/cloud-reload-run.ts";
import { createCloudRunOutputs } from "../../../../core/qlik-cloud/cloud-run-outputs.ts";
import { cloudRunPoint } from "../../../../core/qlik-cloud/cloud-run-points.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let cloud: SimulatedCloud;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
});
afterAll(() => cloud?.stop());

const POINTS = { reloadFailure: { enable: true }, reloadSuccess: { enable: false } };

/** `records`: the kinds a records dispatcher (the broker's messages) takes besides the channels. */
function setUp(records: readonly string[] = []) {
  const [tenant] = cloud.tenants;
  if (tenant === undefined) throw new Error("no tenant");
  const client = createTenantHttpClient({
    tenant: "eu",
    url: tenant.url,
    credential: { oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret } },
    clock: systemClock,
    events: createCloudInputMonitor(createMemoryMetricsRegistry(), systemClock),
  });
  const alerts: Alert[] = [];
  const recorded: Alert[] = [];
  const written: Point[] = [];
  const handler = createCloudRunOutputs({
    log: async () => undefined,
    tenants: new Map([["eu", { url: tenant.url, client, tags: [{ name: "qs_env", value: "cloud" }] }]]),
    alerts: {
      dispatch: async (alert) => {
        alerts.push(alert);
        return {};
      },
      destinations: [{ name: "email", handles: (kind) => kind === "qlikCloudReloadFailure" }],
    },
    points: {
      config: POINTS,
      series: { write: async (points: readonly Point[]) => void written.push(...points) } as never,
    },
    records: {
      dispatch: async (alert) => {
        recorded.push(alert);
        return {};
      },
      destinations: [{ name: "mqtt", handles: (kind) => records.includes(kind) }],
    },
    logger: recordingLogger(),
  });
  return { tenant, handler, alerts, recorded, written };
}

function runOf(
  reload: { id: string; appId: string; status: string; userId?: string },
  kind: CloudReloadRun["kind"],
) {
  return {
    tenant: "eu",
    reloadId: reload.id,
    appId: reload.appId,
    kind,
    status: reload.status,
    finishedAt: "2026-12-05T10:00:05.000Z",
    endTime: "2026-12-05T10:00:05.000Z",
    source: "webhook",
    input: "webhook",
    receivedAt: "2026-12-05T10:00:06.000Z",
    ...(reload.userId === undefined ? {} : { userId: reload.userId }),
    errorCode: "EngineReloadError",
  } as CloudReloadRun;
}

describe("a tenant's run handed on", () => {
  it("becomes one alert completed through the tenant's API, and one point tagged with the tenant", async () => {
    const { tenant, handler, alerts, written } = setUp();
    const reload = tenant.finishReload({ status: "FAILED" });
    await handler(runOf(reload, "reloadTaskFailure"));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: "qlikCloudReloadFailure",
      tenant: { name: "eu", url: tenant.url },
      app: { available: true, value: { name: expect.any(String) } },
      owner: { available: true, value: { email: expect.stringContaining("@") } },
      scriptLog: { available: true, value: { lines: expect.arrayContaining(["Execution failed."]) } },
    });
    expect(written).toEqual([
      expect.objectContaining({
        measurement: "reload_task_failed",
        tags: expect.objectContaining({ tenant: "eu", qs_env: "cloud", app_id: reload.appId }),
        timestampMs: Date.parse("2026-12-05T10:00:05.000Z"),
      }),
    ]);
  });

  it("is alerted with what is known when the lookups fail", async () => {
    const { handler, alerts } = setUp();
    await handler(
      runOf({ id: "no-such-reload", appId: "no-such-app", status: "FAILED" }, "reloadTaskFailure"),
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      app: { available: false, reason: expect.stringContaining("404") },
      scriptLog: { available: false },
      run: { appId: "no-such-app", reloadId: "no-such-reload" },
    });
  });

  it("is not alerted when it succeeded or no destination takes its kind, and a success has no point by default", async () => {
    const { tenant, handler, alerts, written } = setUp();
    const reload = tenant.finishReload({ status: "SUCCEEDED" });
    await handler(runOf(reload, "reloadTaskSuccess"));
    await handler(runOf(tenant.finishReload({ status: "CANCELED" }), "reloadTaskAborted"));
    expect(alerts).toEqual([]);
    expect(written).toEqual([]);
    expect(
      cloudRunPoint(runOf(reload, "reloadTaskSuccess"), { ...POINTS, reloadSuccess: { enable: true } }),
    ).toMatchObject({ measurement: "reload_task_success", tags: { tenant: "eu" } });
  });

  it("goes to the records of runs (the broker) as well, also when no alert channel takes its kind", async () => {
    const { tenant, handler, alerts, recorded } = setUp(["qlikCloudReloadFailure", "qlikCloudReloadAborted"]);
    const failed = tenant.finishReload({ status: "FAILED" });
    await handler(runOf(failed, "reloadTaskFailure"));
    const canceled = tenant.finishReload({ status: "CANCELED" });
    await handler(runOf(canceled, "reloadTaskAborted"));
    expect(alerts.map((alert) => alert.kind)).toEqual(["qlikCloudReloadFailure"]);
    expect(recorded).toEqual([
      expect.objectContaining({
        kind: "qlikCloudReloadFailure",
        run: expect.objectContaining({ reloadId: failed.id }),
      }),
      expect.objectContaining({
        kind: "qlikCloudReloadAborted",
        run: expect.objectContaining({ reloadId: canceled.id }),
      }),
    ]);
  });

  it("of a new tenant's first look-back is written as a point and not alerted", async () => {
    const { tenant, handler, alerts, written } = setUp();
    const reload = tenant.finishReload({ status: "FAILED" });
    await handler({
      ...runOf(reload, "reloadTaskFailure"),
      source: "poll",
      input: "audits",
      firstLookBack: true,
    });
    expect(alerts).toEqual([]);
    expect(written).toEqual([
      expect.objectContaining({
        measurement: "reload_task_failed",
        tags: expect.objectContaining({ tenant: "eu" }),
      }),
    ]);
  });
});
