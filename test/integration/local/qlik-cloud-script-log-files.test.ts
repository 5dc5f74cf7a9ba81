/**
 * `qlikCloud.scriptLogFiles` through a real `steward start`: a tenant's failed run, delivered by
 * its webhook, leaves its full script log on disk as `<directory>/<date>/<tenant>-<app>-<reload>.log`
 * (counted under `steward_qlik_cloud_script_logs_total` and shown on the status page); a successful
 * run leaves none.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { until } from "../../helpers/eventually.ts";
import { sampleValue } from "../../helpers/prometheus-text.ts";
import {
  freeCloudStewardPorts,
  registerWebhooks,
  scrape,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

let cloud: SimulatedCloud;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
});
afterAll(() => cloud?.stop());

const filesUnder = async (root: string) =>
  (await readdir(root, { recursive: true }).catch(() => [] as string[]))
    .map((name) => name.replace(/\\/g, "/"))
    .filter((name) => name.endsWith(".log"));

describe("a Qlik Cloud tenant's script logs on disk", () => {
  const scratch = suiteScratchDirectory("steward-cloud-script-logs-");

  it("keeps the full log of a failed run and none of a successful one", async () => {
    const tenant = cloud.tenants[0] as SimulatedTenant;
    const ports = await freeCloudStewardPorts();
    writeCloudConfig(scratch.root, {
      tenants: [tenant],
      ports,
      poll: false,
      logLevel: "verbose",
      scriptLogDirectory: "./logs",
    });
    registerWebhooks([tenant], ports.ingest);
    const steward = await startStewardIn(scratch.root);
    const root = join(scratch.root, "logs");

    const succeeded = tenant.finishReload({ status: "SUCCEEDED" });
    await tenant.deliver(succeeded, { form: "cloudevents" });
    const failed = tenant.finishReload({ status: "FAILED" });
    await tenant.deliver(failed, { form: "cloudevents" });
    await until(async () => (await filesUnder(root)).length > 0, 15_000, 50);
    await until(() => steward.output().includes(`reloadId=${succeeded.id}`), 10_000, 50);

    const name = `${tenant.fixture.name}-${failed.appId}-${failed.id}.log`;
    const files = await filesUnder(root);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}/${name}$`))]);
    const text = await readFile(join(root, files[0] as string), "utf8");
    const lines = failed.scriptLog.replace(/\r?\n$/, "").split(/\r?\n/);
    expect(text).toBe(`${lines.join("\r\n")}\r\n`);
    expect(text).toContain("Execution failed.");
    const metrics = await scrape(ports.scrape);
    expect(sampleValue(metrics, "steward_qlik_cloud_script_logs_total", { outcome: "written" })).toBe(1);
    const status = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
      qlikCloud: Record<string, unknown>;
      scriptLogFiles: { qlikCloud: { written: number; directory: string } };
    };
    expect(status.scriptLogFiles.qlikCloud).toMatchObject({ written: 1, directory: root });
    expect(Object.keys(status.qlikCloud)).toEqual([tenant.fixture.name]);
  });
});
