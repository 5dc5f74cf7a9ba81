/**
 * The platform integration through the real process: `steward start` pointed at the simulated
 * platform (mutual TLS, throwaway certificates) starts reload tasks over HTTP, fires a started
 * schedule's platform task on its cron, lists the apps, and exits 0 on SIGTERM.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_BROKEN,
  APP_SALES,
  TASK_FINANCE,
  TASK_HR,
  TASK_SALES,
} from "../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { eventually } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

/** Polls every 50 ms (the process runs on real time). */

let sim: TestPlatform;
let dir: string;

beforeAll(async () => {
  sim = await startTestPlatform();
  dir = mkdtempSync(join(tmpdir(), "steward-platform-"));
});

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Steward's YAML pointing `platform.*` and `cert.*` at the simulation. */
function configYaml(restPort: number): string {
  // The server certificate names DNS:localhost and IP:127.0.0.1; the host name is verified.
  const { repositoryPort, enginePort } = sim.connection();
  const certs = sim.certificates;
  return [
    "Service:",
    "  auditEvents:",
    "    enable: false",
    "  restServer:",
    `    port: ${restPort}`,
    "    endpointsEnable:",
    "      appReload: true",
    "      appList: true",
    "      appDump: true",
    "      reloadTaskStart: true",
    "      scheduleCreate: true",
    "      scheduleGet: true",
    "  platform:",
    "    host: localhost",
    `    repositoryPort: ${repositoryPort}`,
    `    enginePort: ${enginePort}`,
    "    rejectUnauthorized: true",
    "    timeoutMs: 5000",
    "  cert:",
    `    clientCert: ${JSON.stringify(certs.clientCert)}`,
    `    clientCertKey: ${JSON.stringify(certs.clientCertKey)}`,
    `    clientCertCA: ${JSON.stringify(certs.clientCertCA)}`,
    "",
  ].join("\n");
}

async function startSteward(): Promise<{ proc: StewardProcess; base: string }> {
  const port = await freePort();
  writeFileSync(join(dir, "steward.yaml"), configYaml(port));
  const proc = await startStewardIn(dir);
  return { proc, base: `http://127.0.0.1:${port}/v4` };
}

describe("steward start with a platform", () => {
  it("starts tasks over HTTP, fires a started schedule's task, lists apps and exits 0 on SIGTERM", async () => {
    sim.reset();
    const { proc, base } = await startSteward();

    // (a) PUT /v4/reloadtask/{id}/start starts the task on the platform.
    const started = await fetch(`${base}/reloadtask/${TASK_HR}/start`, { method: "PUT" });
    expect(started.status).toBe(200);
    expect(((await started.json()) as { tasksId: unknown }).tasksId).toEqual({
      started: [{ taskId: TASK_HR, taskName: "Reload HR" }],
      invalid: [],
      denied: [],
    });
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);

    // (b) A schedule firing every second starts its platform task.
    const created = await fetch(`${base}/schedules`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "every second",
        cronSchedule: "* * * * * *",
        timezone: "UTC",
        platformTaskId: TASK_FINANCE,
        startupState: "started",
      }),
    });
    expect(created.status).toBe(201);
    const fired = await eventually(() => sim.repository.startedTaskIds.includes(TASK_FINANCE), 5000);
    expect(fired, `schedule did not fire; process output:\n${proc.output()}`).toBe(true);
    expect(sim.repository.startedTaskIds).not.toContain(TASK_SALES);

    // (c) The app catalogue.
    const apps = await fetch(`${base}/apps/list`);
    expect(apps.status).toBe(200);
    expect(await apps.json()).toEqual([
      { id: APP_SALES, name: "Sales dashboard" },
      { id: APP_BROKEN, name: "Broken script" },
    ]);

    proc.child.kill("SIGTERM");
    expect((await proc.exited()).code).toBe(0);
    // Every call came through the real client: client certificate and the configured user header.
    expect(sim.repository.calls.length).toBeGreaterThan(0);
    for (const call of sim.repository.calls) {
      expect(call).toMatchObject({ user: "UserDirectory=Internal;UserId=sa_repository" });
      expect(call.clientCertCn).toBeTruthy();
    }
    expect(proc.output()).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
  }, 30_000);
});
