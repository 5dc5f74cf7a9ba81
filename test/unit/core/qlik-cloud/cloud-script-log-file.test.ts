/**
 * A tenant's failed run's script log kept on disk (`qlikCloud.scriptLogFiles`): its name and date
 * folder, valid on Windows; the file written with the full log the alert downloaded, also for a
 * run no alert is made for (no destination takes it, or a first look-back's); nothing for a
 * successful or canceled run, nor when the switch is off.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptLogFolder } from "../../../../core/adapters/local/script-log-folder.ts";
import { createTenantHttpClient } from "../../../../core/adapters/qlik-cloud/tenant-http-client.ts";
import { windowsNameProblem } from "../../../../core/files/windows-names.ts";
import { createCloudInputMonitor } from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import type { CloudReloadRun } from "../../../../core/qlik-cloud/cloud-reload-run.ts";
import { createCloudRunOutputs } from "../../../../core/qlik-cloud/cloud-run-outputs.ts";
import { cloudRunDate, cloudScriptLogFileName } from "../../../../core/qlik-cloud/cloud-script-log-file.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { createScriptLogFiles } from "../../../../core/task-events/script-log-files.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let cloud: SimulatedCloud;
let directory: string;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
  directory = await mkdtemp(join(tmpdir(), "cloud-script-logs-"));
});
afterAll(async () => {
  await cloud?.stop();
  await rm(directory, { recursive: true, force: true });
});

function runOf(reload: { id: string; appId: string; status: string }, kind: CloudReloadRun["kind"]) {
  return {
    tenant: "eu",
    reloadId: reload.id,
    appId: reload.appId,
    kind,
    status: reload.status,
    finishedAt: "2026-12-05T23:59:59.000Z",
    startTime: "2026-12-04T23:50:00.000Z",
    source: "webhook",
    input: "webhook",
    receivedAt: "2026-12-06T00:00:06.000Z",
  } as CloudReloadRun;
}

/** The handler with the files on, in a directory of its own; alerted or not. */
function setUp(folderName: string, alerted: boolean, keepFiles = true) {
  const [tenant] = cloud.tenants;
  if (tenant === undefined) throw new Error("no tenant");
  const client = createTenantHttpClient({
    tenant: "eu",
    url: tenant.url,
    credential: { oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret } },
    clock: systemClock,
    events: createCloudInputMonitor(createMemoryMetricsRegistry(), systemClock),
  });
  const root = join(directory, folderName);
  const files = createScriptLogFiles({
    folder: createScriptLogFolder(root),
    clock: systemClock,
    logger: recordingLogger(),
  });
  const dispatched: unknown[] = [];
  const handler = createCloudRunOutputs({
    log: async () => undefined,
    tenants: new Map([["eu", { url: tenant.url, client, tags: [] }]]),
    alerts: {
      dispatch: async (alert) => {
        dispatched.push(alert);
        return {};
      },
      destinations: alerted ? [{ name: "email", handles: () => true }] : [],
    },
    logger: recordingLogger(),
    scriptLogFiles: keepFiles ? files : undefined,
  });
  return { tenant, handler, root, files, dispatched };
}

/** What the platform's log becomes on disk: its lines with CRLF ends. */
const onDisk = (text: string) =>
  `${text
    .replace(/\r?\n$/, "")
    .split(/\r?\n/)
    .join("\r\n")}\r\n`;

const listed = async (root: string) =>
  (await readdir(root, { recursive: true }).catch(() => [] as string[]))
    .map((name) => name.replace(/\\/g, "/"))
    .sort();

describe("a tenant's failed run's script log on disk", () => {
  it("is named <tenant>-<appId>-<reloadId>.log under the UTC date of the run's start, valid on Windows", () => {
    const run = runOf(
      { id: "6750c1d2e3f4a5b6c7d8e9f0", appId: "0b5d2f1e-3c4a-4b6d-8e9f-a1b2c3d4e5f6", status: "FAILED" },
      "reloadTaskFailure",
    );
    expect(cloudRunDate(run)).toBe("2026-12-04");
    expect(cloudRunDate({ ...run, startTime: undefined } as unknown as CloudReloadRun)).toBe("2026-12-05");
    const name = cloudScriptLogFileName(run);
    expect(name).toBe("eu-0b5d2f1e-3c4a-4b6d-8e9f-a1b2c3d4e5f6-6750c1d2e3f4a5b6c7d8e9f0.log");
    expect(windowsNameProblem(name)).toBeUndefined();
  });

  it("is written with the full log the alert downloaded, and nothing for a success or a canceled run", async () => {
    const { tenant, handler, root, dispatched } = setUp("alerted", true);
    const failed = tenant.finishReload({ status: "FAILED" });
    await handler(runOf(failed, "reloadTaskFailure"));
    await handler(runOf(tenant.finishReload({ status: "SUCCEEDED" }), "reloadTaskSuccess"));
    await handler(runOf(tenant.finishReload({ status: "CANCELED" }), "reloadTaskAborted"));
    expect(dispatched).toHaveLength(2);
    const name = `eu-${failed.appId}-${failed.id}.log`;
    expect(await listed(root)).toEqual(["2026-12-04", `2026-12-04/${name}`]);
    const text = await readFile(join(root, "2026-12-04", name), "utf8");
    expect(text).toBe(onDisk(failed.scriptLog));
    expect(text).toContain("Execution failed.");
  });

  it("is written when no alert is made: no destination takes the kind, or the run is a first look-back's", async () => {
    const { tenant, handler, root, dispatched } = setUp("not-alerted", false);
    const plain = tenant.finishReload({ status: "FAILED" });
    const old = tenant.finishReload({ status: "FAILED" });
    await handler(runOf(plain, "reloadTaskFailure"));
    await handler({
      ...runOf(old, "reloadTaskFailure"),
      source: "poll",
      input: "audits",
      firstLookBack: true,
    });
    expect(dispatched).toEqual([]);
    for (const reload of [plain, old])
      expect(await readFile(join(root, "2026-12-04", `eu-${reload.appId}-${reload.id}.log`), "utf8")).toBe(
        onDisk(reload.scriptLog),
      );
  });

  it("is not written when the switch is off", async () => {
    const { tenant, handler, root } = setUp("off", true, false);
    await handler(runOf(tenant.finishReload({ status: "FAILED" }), "reloadTaskFailure"));
    expect(await listed(root)).toEqual([]);
  });
});
